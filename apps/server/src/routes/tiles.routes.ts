import { BinaryBody, ErrorBody, MAP_TILE_MAX_ZOOM, MAP_TILE_MIN_ZOOM, WILDFIRE_SCENARIO_YEARS } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TOKEN_SECURITY } from '../plugins/auth.js';
import { badRequest } from '../lib/errors.js';
import { parseDataset, type MapDataset } from '../services/tile-renderer.js';

const int = (f: string) => z.coerce.number({ error: `${f} must be a whole number` }).int(`${f} must be a whole number`).min(0, `${f} must be 0 or more`);
const LAYERS = ['rainfall_flood', 'storm_surge_rp', 'wildfire'] as const;

/** Raster tiles of the map module (spec 001 §7): `GET {x}/{y}/{z}` with the user's token. */
export const tileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/v2/map_tiles/:layer/:x/:y/:z', {
    onRequest: app.authenticate,
    schema: {
      tags: ['Map module'], security: TOKEN_SECURITY,
      summary: 'Hazard raster tile: 256 px Web Mercator PNG coloured with the map legend',
      description:
        'rainfall_flood and storm_surge_rp take return_period ("{n}yr"); wildfire takes scenario_year ("00_2020", "85_2030", "85_2050"). country_code (and region_code, not for storm surge) are accepted as the web app sends them; ' +
        'the layers are global, so they do not change the picture. Rendered from the native hazard grid, cached; transparent where there is no hazard or no data.',
      params: z.object({ layer: z.enum(LAYERS, { error: `layer must be one of ${LAYERS.join(', ')}` }), x: int('x'), y: int('y'), z: int('z').max(MAP_TILE_MAX_ZOOM, `z must be between ${MAP_TILE_MIN_ZOOM} and ${MAP_TILE_MAX_ZOOM}`) }),
      querystring: z.object({
        return_period: z.string().max(10).optional(),
        scenario_year: z.string().max(10).optional(),
        country_code: z.string().regex(/^[A-Za-z]{2,3}$/, 'country_code must be an ISO 3166 code').optional(),
        region_code: z.string().max(100).optional(),
      }),
      response: { 200: BinaryBody('A 256 x 256 px PNG image'), 400: ErrorBody, 401: ErrorBody },
      produces: ['image/png'],
    },
  }, async (req, reply) => {
    const { layer, x, y, z: zoom } = req.params;
    const n = 2 ** zoom;
    if (x >= n) throw badRequest(`x must be below ${n} at zoom ${zoom}.`, 'x');
    if (y >= n) throw badRequest(`y must be below ${n} at zoom ${zoom}.`, 'y');
    let dataset: MapDataset | null;
    if (layer === 'wildfire') {
      const sy = req.query.scenario_year;
      if (!sy) throw badRequest(`scenario_year is required for wildfire: one of ${WILDFIRE_SCENARIO_YEARS.join(', ')}.`, 'scenario_year');
      dataset = parseDataset('wildfire', sy);
      if (!dataset) throw badRequest(`scenario_year must be one of ${WILDFIRE_SCENARIO_YEARS.join(', ')}.`, 'scenario_year');
    } else {
      const rp = req.query.return_period;
      if (!rp) throw badRequest('return_period is required, e.g. 100yr.', 'return_period');
      dataset = parseDataset(layer === 'storm_surge_rp' ? 'storm_surge' : 'rainfall_flood', rp);
      if (!dataset) throw badRequest('return_period must be one of 2yr, 5yr, 10yr, 25yr, 50yr, 100yr, 250yr, 500yr, 1000yr.', 'return_period');
    }
    const renderer = await app.services.maps.renderer();
    const png = renderer.tile({ dataset, z: zoom, x, y });
    return reply.header('content-type', 'image/png').header('cache-control', 'private, max-age=86400').send(png);
  });
};
