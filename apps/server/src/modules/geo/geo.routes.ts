import { CompanySearchAnswer, CreateProjectResponse, dbId, ErrorBody, ForwardGeocodeHit, IndexListAnswer, ReverseGeocodeAnswer } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';

const errors = { 400: ErrorBody.passthrough(), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const lat = z.coerce
  .number({ error: 'latitude must be a number' })
  .min(-90, 'latitude must be between -90 and 90')
  .max(90, 'latitude must be between -90 and 90');
const lng = z.coerce
  .number({ error: 'longitude must be a number' })
  .min(-180, 'longitude must be between -180 and 180')
  .max(180, 'longitude must be between -180 and 180');
const UserIdParam = z.object({ userId: dbId('userId', { coerce: true }) });

// eslint-disable-next-line max-lines-per-function -- a route table (schemas and one-line handlers, each one service call), not request-path logic
export const geoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v2/geocode/reverse/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Geocoding'],
        summary:
          'Name of the place at a point ("place, region, country"), ISO country code and, in Hong Kong, the district (offline GeoNames and Natural Earth)',
        security: TOKEN_SECURITY,
        querystring: z.object({ latitude: lat, longitude: lng }),
        response: { 200: ReverseGeocodeAnswer, ...errors },
      },
    },
    async (req) => app.services.geo.reverse(req.query.latitude, req.query.longitude),
  );

  app.get(
    '/api/v2/geocode/search/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Geocoding'],
        summary: 'Places, regions and countries matching a text (prefix and typo-tolerant), up to 5',
        security: TOKEN_SECURITY,
        querystring: z.object({ q: z.string({ error: 'q is required' }).max(200, 'q is too long'), limit: z.coerce.number().int().min(1).max(10).default(5) }),
        response: { 200: z.array(ForwardGeocodeHit), ...errors },
      },
    },
    async (req) => app.services.geo.search(req.query.q, req.query.limit),
  );

  app.post(
    '/api/search/deepsearch/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Companies'],
        summary:
          'Company search by name (more than 3 characters: prefix, full-text and typo-tolerant trigram matching in the database) or ticker, with headquarters locations from the data; hits grouped by index',
        description:
          'Locations flagged `approximate` are placed at the listing city or country capital, as `location_basis` says. Website lookups need an external service and are not available offline.',
        security: TOKEN_SECURITY,
        body: z.object({
          search_term: z.string().trim().max(120, 'search_term is too long').optional(),
          website: z.string().max(300).optional(),
          parser: z.string().max(50).optional(),
          index: z.string().max(80).optional(),
          limit: z.coerce.number().int().min(1).max(50).default(50),
        }),
        response: { 200: CompanySearchAnswer, ...errors },
      },
    },
    async (req) => app.services.companies.deepSearch(req.body),
  );

  app.get(
    '/api/asset/index/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Companies'],
        summary: 'Benchmark indices (HSI by default), or the members of one index with their locations',
        security: TOKEN_SECURITY,
        params: UserIdParam,
        querystring: z.object({ index: z.string().trim().max(80).optional() }),
        response: { 200: IndexListAnswer, ...errors },
      },
    },
    async (req) => {
      app.services.projectList.assertSelf(caller(req), req.params.userId);
      return app.services.geo.indices(req.query.index);
    },
  );

  app.post(
    '/api/asset/index/:userId/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Companies'],
        summary: "Create a portfolio of an index's members at their headquarters (or listing) locations, and queue its analysis",
        security: TOKEN_SECURITY,
        params: UserIdParam,
        body: z.object({
          index_name: z.string({ error: 'index_name is required' }).trim().min(1, 'index_name is required').max(80),
          portfolio_name: z.string({ error: 'portfolio_name is required' }).trim().min(1, 'portfolio_name is required').max(150, 'portfolio_name is too long'),
        }),
        response: { 201: CreateProjectResponse, ...errors },
      },
    },
    async (req, reply) => {
      const user = caller(req);
      app.services.projectList.assertSelf(user, req.params.userId);
      const out = await app.services.geo.createIndexPortfolio(user, req.body.index_name, req.body.portfolio_name);
      return reply
        .status(201)
        .send({
          detail: `Portfolio '${out.project.name}' created with the ${out.project.assets} members of ${req.body.index_name}; analysis queued.`,
          project: out.project,
          job_id: out.jobId,
        });
    },
  );
};
