import { ErrorBody, UpdateAssetsBody, UpdateAssetsResponse } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';

export const assetRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v2/update_assets/',
    {
      onRequest: app.authenticate,
      bodyLimit: app.config.UPLOAD_LIMIT_BYTES,
      schema: {
        tags: ['Assets'],
        summary: 'Save the asset table (all rows); the analysis re-runs for the changed assets only',
        description:
          'Editable: name, type, revenue, construction_cost, area, ownership (0-100), floors, valuation, building_age, mitigation_risk (0-3), content_value, plinth_height, basement, yearly_inventory_value, flood_protection (years), construction (concrete, steel, masonry, wood, manufactured; NA for unknown). Location cannot change. Columns gated by data_edit_permissions answer 403. Send the `version` you loaded: a newer one answers 409.',
        security: TOKEN_SECURITY,
        body: UpdateAssetsBody,
        response: { 200: UpdateAssetsResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (req) => app.services.assetEdits.update(caller(req), req.body),
  );
};
