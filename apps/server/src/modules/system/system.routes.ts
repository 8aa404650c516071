import { ClientConfigAnswer, RELEASES } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_VERSION } from '../../plugins/openapi.js';
import { basemapConfig } from '../maps/basemap.routes.js';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['System'],
        summary: 'Liveness and database check',
        response: { 200: z.object({ status: z.literal('ok'), database: z.string(), version: z.string() }) },
      },
    },
    async () => {
      const { database } = await app.services.system.health();
      return { status: 'ok' as const, database, version: API_VERSION };
    },
  );

  app.get(
    '/api/config/',
    {
      schema: {
        tags: ['System'],
        summary: 'What the web app needs of the server configuration before it draws: the basemap (docs/maps.md "Basemap")',
        response: { 200: ClientConfigAnswer },
      },
    },
    async () => ({ basemap: basemapConfig(app.config) }),
  );

  app.get(
    '/api/changelog/',
    {
      schema: {
        tags: ['Help'],
        summary: 'Release notes (change log), newest first',
        response: { 200: z.array(z.object({ version: z.string(), date: z.string(), title: z.string(), items: z.array(z.string()) })) },
      },
    },
    async () => [...RELEASES].reverse(),
  );
};
