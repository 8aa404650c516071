import { ErrorBody } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';
import { BuildingDamageBody } from './building-damage.service.js';

const Series = z.object({ x: z.array(z.number()), y: z.array(z.number()), y_value: z.array(z.number()), x_unit: z.enum(['m', 'years']), expected_annual_damage_ratio: z.number().nullable() });
const ByScenario = z.object({ '26': Series, '45': Series, '85': Series });

export const buildingDamageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/v2/building_damage/', {
    onRequest: app.authenticate,
    schema: {
      tags: ['Analysis'],
      summary: 'Building-damage explorer: damage-ratio curves for river flood, storm surge and rainfall flood per scenario',
      description:
        'Without an asset: Hazus/USACE depth-damage curves (x = depth in m). With project_name and asset_name: the site\'s return-period curves at the year for each scenario through the same building curve (x = return period in years), with the expected annual damage ratio.',
      security: TOKEN_SECURITY,
      body: BuildingDamageBody,
      response: { 200: z.object({ river_flood: ByScenario, storm_surge: ByScenario, rainfall_flood: ByScenario, hazus_occupancy: z.string(), first_floor_height_m: z.number(), source: z.string() }), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
    },
  }, async (req) => app.services.buildingDamage.curves(caller(req), req.body));
};
