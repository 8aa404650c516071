import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The app a route plugin receives (zod type provider): route groups are registered by functions taking it. */
export type RouteApp = Parameters<FastifyPluginAsyncZod>[0];
