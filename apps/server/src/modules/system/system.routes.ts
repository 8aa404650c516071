import { ClientConfigAnswer, RELEASES } from '@crp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_VERSION } from '../../plugins/openapi.js';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['System'],
        summary: 'Liveness and database check; restarts of the process after a crash (docs/reliability.md "Restarts after a crash")',
        response: {
          200: z.object({
            status: z.literal('ok'),
            database: z.string(),
            version: z.string(),
            pid: z.number().int().describe('the server process (restarted by the supervisor of `npm start` after a crash)'),
            uptime_seconds: z.number().int(),
            restarts: z.number().int().describe('restarts after a crash since `npm start` began; 0 when run without the supervisor'),
            last_restart: z
              .object({
                reason: z.string().describe('how the previous process ended, e.g. "signal SIGKILL (killed: out of memory or kill -9)"'),
                at: z.string().nullable(),
              })
              .nullable(),
          }),
        },
      },
    },
    async () => ({ status: 'ok' as const, version: API_VERSION, ...(await app.services.system.health()) }),
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
    async () => ({ basemap: await app.services.basemap.clientConfig() }),
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
