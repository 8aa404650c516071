import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const API_VERSION = '5.0.0';

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
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
