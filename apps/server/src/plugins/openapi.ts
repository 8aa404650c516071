import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

export const API_VERSION = '5.0.0';

/**
 * The operationId of a route, derived from its method and path so that it is stable (it changes only when the route
 * does) and unique (method + path are): `POST /api/v2/download_csv_report/` -> `postV2DownloadCsvReport`,
 * `GET /api/v2/map_tiles/{layer}/{x}/{y}/{z}` -> `getV2MapTilesByLayerByXByYByZ`. The `/api/` prefix and trailing
 * slashes are dropped; path parameters read `By<Name>`. Generated clients name their functions after it.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .flatMap((seg) => {
      const param = /^[:{]([A-Za-z0-9_]+)\}?(.*)$/.exec(seg);
      const raw = param ? `by_${param[1]}${param[2] ? `_${param[2]}` : ''}` : seg;
      return raw.split(/[^A-Za-z0-9]+/).filter(Boolean);
    });
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  return method.toLowerCase() + words.map((w) => cap(w.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()))).join('');
}

/**
 * Request media types whose schema is not the route's JSON body schema (e.g. a CSV body), by `METHOD path` in the
 * OpenAPI form: @fastify/swagger gives every type of `consumes` the body schema; transformObject puts these instead.
 */
const requestMedia = new Map<string, Record<string, Record<string, unknown>>>();
export function declareRequestMedia(method: string, openapiPath: string, media: Record<string, Record<string, unknown>>) {
  requestMedia.set(`${method.toLowerCase()} ${openapiPath}`, media);
}
function applyRequestMedia<T>(doc: T): T {
  const paths = (doc as { paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>> }).paths ?? {};
  for (const [key, media] of requestMedia) {
    const [method, path] = key.split(' ') as [string, string];
    const content = paths[path]?.[method]?.requestBody?.content;
    if (content) for (const [type, schema] of Object.entries(media)) content[type] = { schema };
  }
  return doc;
}

/** OpenAPI document generated from the same zod schemas that validate requests; UI at /docs, JSON at /openapi.json. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Climate Risk Platform API',
        description:
          'Physical and transition climate-risk analytics for portfolios of assets. Authenticate with `POST /api/user/rest_login/` and send `Authorization: Token <token>` on every other call. Errors answer `{detail, errors?: [{field, message}]}`.',
        version: API_VERSION,
      },
      components: {
        securitySchemes: {
          TokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <token> from rest_login' },
          TokenQuery: {
            type: 'apiKey',
            in: 'query',
            name: 'token',
            description:
              'The rest_login token as ?token=, only on the XYZ tile route for desktop GIS (QGIS, GDAL). The URL then carries the secret: see docs/maps.md.',
          },
        },
      },
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const method = Array.isArray(input.route.method) ? input.route.method[0]! : input.route.method;
      return { ...out, schema: { operationId: operationIdOf(method, input.url), ...out.schema } };
    },
    // Schemas given an id (`.meta({ id })`, e.g. AssetResult) become named components that generated clients reuse.
    transformObject: (input) => applyRequestMedia(jsonSchemaTransformObject(input)),
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
