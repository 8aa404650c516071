import { BuildingDamageAnswer, ErrorBody } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';
import { BuildingDamageBody } from './building-damage.service.js';

export const buildingDamageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v2/building_damage/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Analysis'],
        summary: 'Building-damage explorer: damage-ratio curves for river flood, storm surge and rainfall flood per scenario',
        description:
          "Without an asset: Hazus/USACE depth-damage curves of the chosen building (x = depth in m). With project_name and asset_name: the building the analysis models for that asset (its storeys, basement, occupancy and construction unless a selector says otherwise) at its site's return periods for each scenario at the year (x = return period in years), with the expected annual damage ratio the dashboard uses. Selectors left out take the asset's own values; `inputs` in the answer says which were used.",
        security: TOKEN_SECURITY,
        body: BuildingDamageBody,
        response: { 200: BuildingDamageAnswer, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => app.services.buildingDamage.curves(caller(req), req.body),
  );
};
