import { createReadStream, statSync } from 'node:fs';
import { BasemapSettingsAnswer, BasemapSettingsInput, BinaryBody, ErrorBody } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, notFound } from '../../lib/errors.js';
import { parseRange } from '../../lib/byte-range.js';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';
import { PMTILES_PATH } from './basemap.service.js';

export { PMTILES_PATH };

/** Re-exported from lib/byte-range.ts (the file links use it too). */
export { parseRange };

export const basemapRoutes: FastifyPluginAsyncZod = async (app) => {
  // Public like the offline basemap files under /basemap/: OpenStreetMap tiles hold no customer data, and MapLibre's
  // PMTiles reader fetches them without our Authorization header.
  app.get(
    PMTILES_PATH,
    {
      schema: {
        tags: ['System'],
        summary: 'The configured OpenStreetMap vector-tile archive (BASEMAP_PMTILES, a local .pmtiles file), with HTTP Range requests',
        headers: z.object({ range: z.string().max(200).optional() }),
        response: { 200: BinaryBody('The whole archive'), 206: BinaryBody('The requested byte range'), 404: ErrorBody, 416: ErrorBody },
        produces: ['application/octet-stream'],
      },
    },
    async (req, reply) => {
      const file = await app.services.basemap.localArchive();
      if (!file) throw notFound('No PMTiles basemap file is configured (BASEMAP_PMTILES or the operator setting).');
      const size = statSync(file).size;
      void reply.header('accept-ranges', 'bytes').header('content-type', 'application/octet-stream').header('cache-control', 'public, max-age=3600');
      const range = req.headers.range ? parseRange(req.headers.range, size) : 'ignore';
      if (range === null) {
        void reply.header('content-range', `bytes */${size}`);
        throw new AppError(416, `range: '${req.headers.range}' is outside the file (${size} bytes).`, [{ field: 'range', message: 'not satisfiable' }]);
      }
      if (range === 'ignore') return reply.header('content-length', size).send(createReadStream(file) as never);
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .header('content-length', range.end - range.start + 1)
        .send(createReadStream(file, { start: range.start, end: range.end }) as never);
    },
  );
};

/** The street basemap set by operators in the app (docs/maps.md "Street basemap"). */
export const basemapSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };
  app.get(
    '/api/v2/basemap_settings/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['System'],
        summary: 'The street basemap of every map (operators only): the setting made in the app, the environment default and what is in force',
        security: TOKEN_SECURITY,
        response: { 200: BasemapSettingsAnswer, ...errors },
      },
    },
    async (req) => {
      await app.services.basemap.assertOperator(caller(req));
      return app.services.basemap.answer();
    },
  );
  app.put(
    '/api/v2/basemap_settings/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['System'],
        summary: 'Set the street basemap of every map (operators only); it replaces BASEMAP_STYLE_URL and BASEMAP_PMTILES until removed',
        description:
          'A style URL (MapLibre style JSON) replaces the street style; a PMTiles archive (an http(s) URL, or a .pmtiles file on the server, served at /api/basemap/tiles.pmtiles) ' +
          'is drawn over the offline basemap, with street and place names when labels is true (glyphs served by this server). A local file must exist and be a PMTiles v3 archive (400 naming pmtiles otherwise).',
        security: TOKEN_SECURITY,
        body: BasemapSettingsInput,
        response: { 200: BasemapSettingsAnswer, ...errors },
      },
    },
    async (req) => {
      const who = caller(req);
      await app.services.basemap.assertOperator(who);
      return app.services.basemap.set(req.body, who.username);
    },
  );
  app.delete(
    '/api/v2/basemap_settings/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['System'],
        summary: 'Remove the street basemap set in the app (operators only): the environment default applies again',
        security: TOKEN_SECURITY,
        response: { 200: BasemapSettingsAnswer, ...errors },
      },
    },
    async (req) => {
      await app.services.basemap.assertOperator(caller(req));
      return app.services.basemap.clear();
    },
  );
};
