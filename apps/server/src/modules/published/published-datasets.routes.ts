import { DetailBody, ErrorBody, PublishedDataset, PublishedDatasetList, PublishedDatasetRegister } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { caller, TOKEN_SECURITY } from '../../plugins/auth.js';
import { RegistrationError } from './published-datasets.service.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Operator-only: the installation's published flood datasets (issue 34 item 2). */
export const publishedDatasetRoutes: FastifyPluginAsyncZod = async (app) => {
  const svc = app.services.published;
  app.get(
    '/api/v2/published_datasets/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Hazards'],
        summary: 'Published flood datasets registered on this installation (operators only)',
        security: TOKEN_SECURITY,
        response: { 200: PublishedDatasetList, ...errors },
      },
    },
    async (req) => {
      await svc.assertOperator(caller(req));
      return { datasets: await svc.list() };
    },
  );

  app.post(
    '/api/v2/published_datasets/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Hazards'],
        summary: 'Register a server-side directory of WRI Aqueduct Floods or JRC flood maps (operators only)',
        description:
          'Every .tif file of the directory is checked before anything is stored: its name as Aqueduct Floods or JRC publish it (hazard, scenario, model, year, return period), ' +
          'a readable GeoTIFF/BigTIFF header, one band, EPSG:4326, tiles or strips of at most 16 MiB decoded, none/LZW/DEFLATE/PackBits compression. A refused directory answers 400 ' +
          'listing each refused file. Only the registration is stored; the files are read by window where assets fall. The same name replaces the registration. ' +
          'Every physical portfolio is re-analysed.',
        security: TOKEN_SECURITY,
        body: PublishedDatasetRegister,
        response: { 201: z.object({ detail: z.string(), dataset: PublishedDataset, reanalysed: z.number().int(), replaced: z.boolean() }), ...errors },
      },
    },
    async (req, reply) => {
      const who = caller(req);
      await svc.assertOperator(who);
      try {
        const r = await svc.register(req.body.directory, req.body.name, who.username);
        return reply
          .status(201)
          .send({
            detail: `Dataset '${r.dataset.name}' ${r.replaced ? 're-registered' : 'registered'}: ${r.dataset.file_count} file(s); ${r.reanalysed} portfolio(s) are being re-analysed with it.`,
            ...r,
          });
      } catch (err) {
        if (err instanceof RegistrationError)
          throw new AppError(
            400,
            `${err.field}: ${err.problems.length} problem(s): ${err.problems.slice(0, 20).join('; ')}`,
            err.problems.slice(0, 50).map((message) => ({ field: err.field, message })),
          );
        throw err;
      }
    },
  );

  app.delete(
    '/api/v2/published_datasets/:name/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Hazards'],
        summary: 'Remove a published dataset registration (operators only); the files stay where they are',
        security: TOKEN_SECURITY,
        params: z.object({ name: z.string().min(1).max(100) }),
        response: { 200: DetailBody.extend({ reanalysed: z.number().int() }), ...errors },
      },
    },
    async (req) => {
      await svc.assertOperator(caller(req));
      const r = await svc.remove(req.params.name);
      return { detail: `Dataset '${req.params.name}' removed; ${r.reanalysed} portfolio(s) are being re-analysed without it.`, ...r };
    },
  );
};
