import {
  ErrorBody,
  HAZARD_CURVES_MAX_POINTS,
  HazardCatalogEntry,
  HazardCurvesAnswer,
  HazardCurvesRequest,
  HazardPointAnswer,
  HazardPointQuery,
} from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';

const errors = { 400: ErrorBody, 401: ErrorBody };

export const hazardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v2/hazard/point/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Hazards'],
        summary: 'All eleven hazards at one point for one scenario and year',
        description:
          'Each hazard: value and unit (null where there is no data, never a fake zero), score 0-100 and band, return-period curve for acute hazards, resolution_km, data tier and source. Years: those of the analysis type, as in the results API (RCP 2020, 2030, 2050; SSP 2020 baseline and 2025-2100 every 5 years); another year is a 400 naming `year`. SSP years between the AR6 decades are interpolated through the global warming level. Where one of your company\'s own hazard layers covers the point, its value replaces the built-in one, with tier "own data".',
        security: TOKEN_SECURITY,
        querystring: HazardPointQuery,
        response: { 200: HazardPointAnswer, ...errors },
      },
    },
    async (req) => app.services.hazards.point(caller(req), req.query),
  );

  app.post(
    '/api/v2/hazard/curves/',
    {
      onRequest: app.authenticate,
      // A query in a POST body that changes nothing: personal API tokens (read-only) may call it.
      config: { readOnlyPost: true },
      schema: {
        tags: ['Hazards'],
        summary: 'Return-period hazard curves (and the other hazard values) at many points for one scenario and year',
        description: `At most ${HAZARD_CURVES_MAX_POINTS.toLocaleString('en-US')} points. Each point answers, for each hazard asked for (default the curve hazards river_flood, typhoon, storm_surge, rainfall_flood), the value the point API gives there: the return-period curve (return_periods: returnPeriodsYears and intensities), value, unit, score, band, tier and source; null where there is no data. Years as in the point API; another year is a 400 naming \`year\`. Unknown keys are a 400 naming them.`,
        security: TOKEN_SECURITY,
        body: HazardCurvesRequest,
        response: { 200: HazardCurvesAnswer, ...errors, 403: ErrorBody },
      },
    },
    async (req) => app.services.hazards.curves(caller(req), req.body),
  );

  app.get(
    '/api/v2/hazard/catalog/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Hazards'],
        summary: 'Every hazard layer with its indicator, grid, resolution, scenarios, years, sources, licence and checksum',
        security: TOKEN_SECURITY,
        response: { 200: HazardCatalogEntry.array(), ...errors },
      },
    },
    async () => app.services.hazards.catalog(),
  );
};
