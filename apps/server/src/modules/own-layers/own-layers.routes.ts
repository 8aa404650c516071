import { dbId, DetailBody, ErrorBody, HAZARD_KEYS, OwnLayer, OwnLayerList } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 413: ErrorBody };

/** The upload form as OpenAPI shows it; OwnLayerService checks each field (400 naming it). */
const UploadForm = z.object({
  file: z.unknown().optional().describe('the GeoTIFF, Cloud-Optimized GeoTIFF or NetCDF (classic or 64-bit offset, CF conventions) file (multipart file part)'),
  hazard: z
    .string()
    .optional()
    .describe(`one of ${HAZARD_KEYS.join(', ')}`),
  scenario: z.string().optional().describe('26, 45, 85 or any (default any)'),
  year: z.string().optional().describe('2020-2100 or any (default any); the layer of the nearest year is used'),
  return_period_years: z.string().optional().describe('required for river_flood, rainfall_flood, storm_surge and typhoon (e.g. 100); empty for the others'),
  unit: z.string().optional().describe("unit of the values; default the hazard's unit"),
  band: z
    .string()
    .optional()
    .describe("the band read, 1-based (default 1): a GeoTIFF's band, or the slice of a NetCDF variable along its leading dimension (e.g. time)"),
  variable: z.string().optional().describe('NetCDF: the variable read (default: the only one on a latitude/longitude grid)'),
  label: z.string().optional(),
  source: z.string().optional().describe('publisher, licence or citation of the data'),
});

export const ownLayerRoutes: FastifyPluginAsyncZod = async (app) => {
  const svc = app.services.ownLayers;
  app.get(
    '/api/v2/own_layers/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Hazards'],
        summary: "Your company's own hazard layers, with the upload limits, units and plausible ranges",
        security: TOKEN_SECURITY,
        response: { 200: OwnLayerList, ...errors },
      },
    },
    async (req) => svc.list(caller(req)),
  );

  app.post(
    '/api/v2/own_layers/',
    {
      onRequest: app.authenticate,
      bodyLimit: app.config.UPLOAD_LIMIT_BYTES,
      schema: {
        tags: ['Hazards'],
        summary: 'Upload an own hazard layer (GeoTIFF or NetCDF) for a hazard, scenario, year and return period (company administrators only)',
        description:
          'Multipart form. The raster is checked before anything is stored: a readable GeoTIFF (the band chosen by `band`) or CF NetCDF on a regular latitude/longitude grid (the variable chosen by `variable`, the slice by `band`), a projected or geographic CRS of the EPSG registry (from its GeoKeys; e.g. EPSG:4326, 3857, 2326, 27700 or a UTM zone), ' +
          'north-up, inside the world, within the size limits, at least one valid (non-nodata) pixel and every valid pixel within the plausible range of the hazard after the unit conversion. ' +
          "A refused layer answers 400 naming the field and the problem. The layer applies only to your company's analyses; your physical portfolios are re-analysed with it.",
        security: TOKEN_SECURITY,
        consumes: ['multipart/form-data'],
        body: UploadForm,
        response: { 201: z.object({ detail: z.string(), layer: OwnLayer, reanalysed: z.number().int() }), ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await svc.upload(caller(req), req.body as Record<string, unknown>)),
  );

  app.delete(
    '/api/v2/own_layers/:id/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Hazards'],
        summary: 'Delete an own hazard layer (company administrators only); your physical portfolios are re-analysed without it',
        security: TOKEN_SECURITY,
        params: z.object({ id: dbId('id', { coerce: true }) }),
        response: { 200: DetailBody.extend({ reanalysed: z.number().int() }), ...errors },
      },
    },
    async (req) => svc.remove(caller(req), req.params.id),
  );
};
