import {
  DashboardAnswer,
  DashboardAssetPage,
  DashboardAssetPageBody,
  DashboardBody,
  DashboardHeatmapPage,
  DashboardHeatmapPageBody,
  DashboardMapAnswer,
  DashboardMapBody,
  ErrorBody,
} from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody.passthrough() };

/** The detail-by-year presentation's fields (spec 001 §7): project, rcp (the scenario), year, count, with_content, variable. */
const DetailBody = z.object({
  project: z.string().trim().min(1, 'project is required').max(150),
  rcp: z.coerce
    .string()
    .pipe(z.enum(['26', '45', '85'], { error: 'rcp must be 26, 45 or 85' }))
    .optional(),
  analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).optional(),
  year: z.coerce.number({ error: 'year must be a number' }).int().min(2020, 'year must be 2020 to 2100').max(2100, 'year must be 2020 to 2100').optional(),
  count: z.union([z.literal('All'), z.coerce.number().int().positive()]).default('All'),
  with_content: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .transform((v) => v === true || v === 'true')
    .default(true),
  variable: z.string().trim().max(40).default('Total'),
});

/**
 * The dashboard answer as the service built it: the UTF-8 JSON of a DashboardAnswer in a Buffer. Fastify writes a
 * Buffer as is (no serialiser, no schema check), so the typed response schema only documents it.
 */
const preSerialised = (buf: Buffer) => buf as unknown as DashboardAnswer;

// eslint-disable-next-line max-lines-per-function -- a route table (schemas and one-line handlers, each one service call), not request-path logic
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { dashboard } = app.services;

  app.post(
    '/api/v2/dashboard/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Dashboard'],
        summary: 'The physical-risk dashboard of a project for one analysis type, scenario and year (every field of spec 001 §3.2)',
        description:
          'Computed from the stored analysis. 409 while the analysis runs. Sections the tier does not allow are null. Field meanings: docs/dashboard.md.',
        security: TOKEN_SECURITY,
        body: DashboardBody,
        // Documents the answer. The handler sends a pre-serialised Buffer, which Fastify writes as is: this schema adds no
        // serialisation or validation pass (docs/performance-history.md "Dashboard query"); dashboard.test.ts parses real answers with it.
        response: { 200: DashboardAnswer, ...errors },
      },
    },
    async (req, reply) => reply.type('application/json; charset=utf-8').send(preSerialised(await dashboard.queryJson(caller(req), req.body))),
  );

  // Pages of the per-asset sections (issue 22 item 3): the web asks the answer with per_asset 'pages' and reads these.
  app.post(
    '/api/v2/dashboard/assets/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Dashboard'],
        summary: 'One page of the dashboard asset table, sorted and searched on the server',
        description:
          'The same filters as POST api/v2/dashboard/, plus sort (a column or position), order, search (name or property type), offset and limit (at most 500), or ids. Rows carry the asset table columns, the position in the selection and the hazard scores. 403 when the tier has no asset table (or, for a loss column as sort, no portfolio losses).',
        security: TOKEN_SECURITY,
        body: DashboardAssetPageBody,
        response: { 200: DashboardAssetPage, ...errors },
      },
    },
    async (req) => dashboard.assetPage(caller(req), req.body),
  );

  app.post(
    '/api/v2/dashboard/heatmap/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Dashboard'],
        summary: 'One page of the dashboard hazard heat map (assets by hazards)',
        description:
          'The same filters as POST api/v2/dashboard/, plus adaptation, sort (position, name, climate_score or a hazard label), order, search, offset and limit (at most 500). 403 when the tier has no heat map.',
        security: TOKEN_SECURITY,
        body: DashboardHeatmapPageBody,
        response: { 200: DashboardHeatmapPage, ...errors },
      },
    },
    async (req) => dashboard.heatmapPage(caller(req), req.body),
  );

  app.post(
    '/api/v2/dashboard/map/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Dashboard'],
        summary: 'The dashboard asset maps: every point up to 5,000 selected assets, else clusters of the viewport',
        description:
          'The same filters as POST api/v2/dashboard/, plus colour_by (Climate score or a hazard label), bbox [west, south, east, north] and zoom. 403 when the tier has no asset risk map.',
        security: TOKEN_SECURITY,
        body: DashboardMapBody,
        response: { 200: DashboardMapAnswer, ...errors },
      },
    },
    async (req) => dashboard.mapData(caller(req), req.body),
  );

  app.post(
    '/api/v2/dashboard/detail/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Dashboard'],
        summary: 'The detail-by-year presentation of the dashboard',
        description: 'The same answer as POST api/v2/dashboard/ with adaptation, dollars and every property type (sent as a pre-serialised Buffer too).',
        security: TOKEN_SECURITY,
        body: DetailBody,
        response: { 200: DashboardAnswer, ...errors },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const answer = await dashboard.queryJson(caller(req), {
        project_name: b.project,
        ...(b.analysis_type ? { analysis_type: b.analysis_type } : {}),
        ...(b.rcp ? { scenario: b.rcp } : {}),
        ...(b.year ? { year: b.year } : {}),
        count: b.count,
        with_content: b.with_content,
        variable: b.variable,
        currency: 'USD',
        percentage_type: 'dollar',
        mitigation: true,
        parameter: 'loss',
        adjusted_gdp: false,
        property_type: 'All',
        per_asset: 'columns',
      });
      return reply.type('application/json; charset=utf-8').send(preSerialised(answer));
    },
  );
};
