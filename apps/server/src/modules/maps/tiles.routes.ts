import { BinaryBody, ErrorBody, MAP_TILE_MAX_ZOOM, MAP_TILE_MIN_ZOOM, WILDFIRE_SCENARIO_YEARS } from '@crp/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TOKEN_OR_QUERY_SECURITY, TOKEN_SECURITY } from '../../plugins/auth.js';
import { badRequest } from '../../lib/errors.js';
import { parseDataset, type MapDataset } from './tile-renderer.js';

const int = (f: string) =>
  z.coerce
    .number({ error: `${f} must be a whole number` })
    .int(`${f} must be a whole number`)
    .min(0, `${f} must be 0 or more`);
const LAYERS = ['rainfall_flood', 'storm_surge_rp', 'wildfire'] as const;
type Layer = (typeof LAYERS)[number];
const layerParam = z.enum(LAYERS, { error: `layer must be one of ${LAYERS.join(', ')}` });
const zoomParam = int('z').max(MAP_TILE_MAX_ZOOM, `z must be between ${MAP_TILE_MIN_ZOOM} and ${MAP_TILE_MAX_ZOOM}`);
const tileQuery = {
  return_period: z.string().max(10).optional(),
  scenario_year: z.string().max(10).optional(),
  country_code: z
    .string()
    .regex(/^[A-Za-z]{2,3}$/, 'country_code must be an ISO 3166 code')
    .optional(),
  region_code: z.string().max(100).optional(),
};
const DATASET_DOC =
  'rainfall_flood and storm_surge_rp take return_period ("{n}yr"); wildfire takes scenario_year ("00_2020", "85_2030", "85_2050"). country_code (and region_code, not for storm surge) are accepted as the web app sends them; ' +
  'the layers are global, so they do not change the picture. Rendered from the native hazard grid, cached; transparent where there is no hazard or no data.';

/** Raster tiles of the map module (spec 001 §7): `GET {x}/{y}/{z}` with the user's token, and the standard `{z}/{x}/{y}` for GIS clients. */
export const tileRoutes: FastifyPluginAsyncZod = async (app) => {
  async function sendTile(
    reply: FastifyReply,
    layer: Layer,
    x: number,
    y: number,
    zoom: number,
    q: { return_period?: string | undefined; scenario_year?: string | undefined },
  ) {
    const n = 2 ** zoom;
    if (x >= n) throw badRequest(`x must be below ${n} at zoom ${zoom}.`, 'x');
    if (y >= n) throw badRequest(`y must be below ${n} at zoom ${zoom}.`, 'y');
    let dataset: MapDataset | null;
    if (layer === 'wildfire') {
      const sy = q.scenario_year;
      if (!sy) throw badRequest(`scenario_year is required for wildfire: one of ${WILDFIRE_SCENARIO_YEARS.join(', ')}.`, 'scenario_year');
      dataset = parseDataset('wildfire', sy);
      if (!dataset) throw badRequest(`scenario_year must be one of ${WILDFIRE_SCENARIO_YEARS.join(', ')}.`, 'scenario_year');
    } else {
      const rp = q.return_period;
      if (!rp) throw badRequest('return_period is required, e.g. 100yr.', 'return_period');
      dataset = parseDataset(layer === 'storm_surge_rp' ? 'storm_surge' : 'rainfall_flood', rp);
      if (!dataset) throw badRequest('return_period must be one of 2yr, 5yr, 10yr, 25yr, 50yr, 100yr, 250yr, 500yr, 1000yr.', 'return_period');
    }
    const renderer = await app.services.maps.renderer();
    const png = renderer.tile({ dataset, z: zoom, x, y });
    return reply.header('content-type', 'image/png').header('cache-control', 'private, max-age=86400').send(png);
  }

  app.get(
    '/api/v2/map_tiles/:layer/:x/:y/:z',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Map module'],
        security: TOKEN_SECURITY,
        summary: 'Hazard raster tile: 256 px Web Mercator PNG coloured with the map legend',
        description: DATASET_DOC + ' GIS clients use the standard {z}/{x}/{y} form: GET /api/v2/xyz_tiles/{layer}/{z}/{x}/{y}.',
        params: z.object({ layer: layerParam, x: int('x'), y: int('y'), z: zoomParam }),
        querystring: z.object(tileQuery),
        response: { 200: BinaryBody('A 256 x 256 px PNG image'), 400: ErrorBody, 401: ErrorBody },
        produces: ['image/png'],
      },
    },
    async (req, reply) => sendTile(reply, req.params.layer, req.params.x, req.params.y, req.params.z, req.query),
  );

  app.get(
    '/api/v2/xyz_tiles/:layer/:z/:x/:y',
    {
      onRequest: app.authenticateHeaderOrQuery,
      schema: {
        tags: ['Map module'],
        security: TOKEN_OR_QUERY_SECURITY,
        summary: 'The same hazard tile in the standard XYZ order {z}/{x}/{y} (QGIS, GDAL, Leaflet); token as header or ?token=',
        description:
          DATASET_DOC +
          ' y may end in .png. QGIS: Layer > Add XYZ Layer with URL ' +
          '`https://<host>/api/v2/xyz_tiles/rainfall_flood/{z}/{x}/{y}.png?return_period=100yr&token=<token>`. ' +
          'A token in the URL is stored in the QGIS project, shell history and any proxy log on the way: use a session made for the purpose and end it (POST /api/user/rest_logout/) when done. The server never logs it (redacted).',
        params: z.object({
          layer: layerParam,
          z: zoomParam,
          x: int('x'),
          y: z
            .string()
            .regex(/^\d{1,8}(\.png)?$/, 'y must be a whole number (optionally with .png)')
            .transform((v) => Number(v.replace(/\.png$/, ''))),
        }),
        querystring: z.object({
          ...tileQuery,
          token: z.string().max(200).optional().describe('The rest_login token, for clients that cannot send the Authorization header.'),
        }),
        response: { 200: BinaryBody('A 256 x 256 px PNG image'), 400: ErrorBody, 401: ErrorBody },
        produces: ['image/png'],
      },
    },
    async (req, reply) => sendTile(reply, req.params.layer, req.params.x, req.params.y, req.params.z, req.query),
  );
};
