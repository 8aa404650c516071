import { createReadStream, statSync } from 'node:fs';
import { BasemapConfig, BinaryBody, ErrorBody } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { AppError, notFound } from '../../lib/errors.js';
import { parseRange } from '../../lib/byte-range.js';

/** Where the web app finds the served PMTiles archive (a configured local file). */
export const PMTILES_PATH = '/api/basemap/tiles.pmtiles';

/** The basemap the web app should draw (docs/maps.md "Basemap"): null fields mean the offline Natural Earth basemap. */
export function basemapConfig(config: Config): BasemapConfig {
  const pm = config.BASEMAP_PMTILES;
  return { style_url: config.BASEMAP_STYLE_URL ?? null, pmtiles_url: pm ? (/^https?:/.test(pm) ? pm : PMTILES_PATH) : null };
}

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
      const file = app.config.BASEMAP_PMTILES;
      if (!file || /^https?:/.test(file)) throw notFound('No PMTiles basemap file is configured (BASEMAP_PMTILES).');
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
