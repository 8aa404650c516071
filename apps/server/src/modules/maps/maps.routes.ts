import {
  CreateMapBody,
  DatasetLookupResponse,
  DetailBody,
  ErrorBody,
  MapLocationBody,
  MapProjectItem,
  MapResponse,
  MapValueBody,
  MapValueResponse,
} from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const tags = ['Map module'];

/** Map module calls (spec 001 §7 "Map module"; createMap is spec 000's `POST api/v2/create_map_project/`). */
// eslint-disable-next-line max-lines-per-function -- a route table (schemas and one-line handlers, each one service call), not request-path logic
export const mapRoutes: FastifyPluginAsyncZod = async (app) => {
  const { maps } = app.services;

  app.post(
    '/api/v2/map_datasets/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security: TOKEN_SECURITY,
        summary: 'Dataset lookup: which datasets of rainfall_flood, storm_surge and wildfire exist at a point',
        description:
          'Each hazard is a list of {key: label, value: dataset}; an empty list means the hazard is not offered there. Return periods are "{n}yr"; wildfire datasets are "{scenario}_{year}" (00 = baseline).',
        body: MapLocationBody,
        response: { 200: DatasetLookupResponse, ...errors },
      },
    },
    async (req) => maps.datasets(req.body.latitude, req.body.longitude),
  );

  app.post(
    '/api/v2/create_map_project/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security: TOKEN_SECURITY,
        summary: 'createMap: a map project for one location (name, address, latitude, longitude, portfolio_variables, distance, duration_data)',
        description:
          'portfolio_variables and duration_data are JSON lists. The name must have 3+ characters and be new among your maps; Wildfire allows only distance 5; every dataset must exist at the point (see map_datasets).',
        body: CreateMapBody,
        response: { 201: DetailBody.extend({ name: z.string(), project_id: z.number().int() }), ...errors },
      },
    },
    async (req, reply) => {
      const r = await maps.create(caller(req), req.body);
      return reply.status(201).send({ detail: `Map '${r.name}' created.`, ...r });
    },
  );

  app.post(
    '/api/v2/generate_map/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security: TOKEN_SECURITY,
        summary: 'generateMap: the map response of a map project (average, max and min per dataset inside the bounding box, gdp, population, resolution)',
        description:
          'Bounding box: half-side 500 m x distance (km). Statistics are area-weighted over the native hazard cells the box overlaps. Flood values in m, wildfire in % per year. population is people/km² (GPW v4 2020), gdp current US$ (World Bank).',
        body: z.object({ name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(150, 'name is too long') }),
        response: { 200: MapResponse, ...errors },
      },
    },
    async (req) => maps.generate(caller(req), req.body.name),
  );

  app.post(
    '/api/v2/map_value/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security: TOKEN_SECURITY,
        summary: 'MapValue: the values at a clicked point (hand, elevation, no_of_days, slope, flood, value, value_00_2020, value_85_2030, value_85_2050)',
        description:
          'null where the layers have no data (no_of_days: no flood-duration data exists in the open inputs). duration_data is the dataset (default 100yr, wildfire 85_2050).',
        body: MapValueBody,
        response: { 200: MapValueResponse, ...errors },
      },
    },
    async (req) => maps.pointValue(req.body),
  );

  app.post(
    '/api/v2/download_map/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security: TOKEN_SECURITY,
        summary: 'downloadMap: an Excel file of a map project; url is a link valid for a limited time',
        description: 'Future rows at scenario 85, year 2050 unless scenario / year are given.',
        body: z.object({
          project_name: z.string({ error: 'project_name is required' }).trim().min(1, 'project_name is required').max(150),
          scenario: z.enum(['26', '45', '85'], { error: 'scenario must be 26, 45 or 85' }).optional(),
          year: z.coerce
            .number({ error: 'year must be a number' })
            .int()
            .refine((y) => [2030, 2040, 2050, 2060, 2070, 2080, 2090, 2100].includes(y), 'year must be a decade from 2030 to 2100')
            .optional(),
        }),
        response: { 200: z.object({ url: z.string(), expires_at: z.string() }), ...errors },
      },
    },
    async (req) => maps.download(caller(req), req.body.project_name, req.body.scenario, req.body.year),
  );

  app.get(
    '/api/v2/map_country/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security: TOKEN_SECURITY,
        summary: 'Country detection of the address search: the country a query names ("Vietnam", "Viet Nam", "UK"), with its representative point, or null',
        querystring: z.object({ q: z.string({ error: 'q is required' }).trim().min(2, 'q needs at least 2 characters').max(100, 'q is too long') }),
        response: {
          200: z.object({ country: z.object({ country_code: z.string(), name: z.string(), latitude: z.number(), longitude: z.number() }).nullable() }),
          ...errors,
        },
      },
    },
    async (req) => app.services.maps.detectCountry(req.query.q),
  );

  app.get(
    '/api/v2/map_projects/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security: TOKEN_SECURITY,
        summary: 'Map projects you own or that were shared with you (name, created_at, distance, portfolio_variable), newest first',
        response: { 200: z.array(MapProjectItem), ...errors },
      },
    },
    async (req) => maps.list(caller(req)),
  );
};
