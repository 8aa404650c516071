import formbody from '@fastify/formbody';
import { carbonRoutes } from './routes/carbon.routes.js';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { DatabaseHandle, DB } from './db/database.js';
import { registerAuth } from './plugins/auth.js';
import { registerCompression } from './plugins/compress.js';
import { registerErrorHandler } from './plugins/errors.js';
import { registerOpenApi } from './plugins/openapi.js';
import { isApiPath, registerWeb } from './plugins/web.js';
import { accountRoutes } from './routes/accounts.routes.js';
import { systemRoutes } from './routes/system.routes.js';
import { projectRoutes } from './routes/projects.routes.js';
import { hazardRoutes } from './routes/hazards.routes.js';
import { projectListRoutes } from './routes/project-list.routes.js';
import { exportRoutes } from './routes/exports.routes.js';
import { buildingDamageRoutes } from './routes/building-damage.routes.js';
import { dashboardRoutes } from './routes/dashboard.routes.js';
import { assetRoutes } from './routes/assets.routes.js';
import { geoRoutes } from './routes/geo.routes.js';
import { portfolioAssetRoutes } from './routes/portfolio-assets.routes.js';
import { faqRoutes } from './routes/faq.routes.js';
import { realEstateRoutes } from './routes/realestate.routes.js';
import { mapRoutes } from './routes/maps.routes.js';
import { tileRoutes } from './routes/tiles.routes.js';
import { typhoonTrackRoutes } from './routes/typhoon-track.routes.js';
import { createServices, type Services } from './services/container.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: DB;
    dbKind: DatabaseHandle['kind'];
    services: Services;
  }
}

/** Builds the HTTP app on an open, migrated database. Tests call this; main.ts adds listen and shutdown. */
export async function buildApp(config: Config, database: DatabaseHandle): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : { level: config.LOG_LEVEL, redact: ['req.headers.authorization', 'req.headers.cookie', 'body.password', 'body.totp_code'] },
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    genReqId: () => crypto.randomUUID(),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('dbKind', database.kind);
  app.decorate('services', createServices(database.db, config, app.log));

  registerErrorHandler(app);
  await app.register(formbody, { bodyLimit: config.BODY_LIMIT_BYTES });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    // Keep the file name with the bytes: the importer reports it in errors.
    async onFile(part) {
      (part as unknown as { value: unknown }).value = { filename: part.filename, data: await part.toBuffer() };
    },
    limits: { fileSize: config.UPLOAD_LIMIT_BYTES, files: 1, fields: 100, fieldSize: config.BODY_LIMIT_BYTES },
  });
  registerAuth(app);
  await registerOpenApi(app);

  app.addHook('onSend', async (_req, reply) => {
    void reply.header('x-content-type-options', 'nosniff');
    void reply.header('referrer-policy', 'same-origin');
    void reply.header('x-frame-options', 'DENY');
  });
  if (config.HTTP_COMPRESSION) registerCompression(app);

  await app.register(systemRoutes);
  await app.register(accountRoutes);
  await app.register(projectRoutes);
  await app.register(hazardRoutes);
  await app.register(projectListRoutes);
  await app.register(exportRoutes);
  await app.register(buildingDamageRoutes);
  await app.register(dashboardRoutes);
  await app.register(assetRoutes);
  await app.register(geoRoutes);
  await app.register(portfolioAssetRoutes);
  await app.register(faqRoutes);
  await app.register(carbonRoutes);
  await app.register(realEstateRoutes);
  await app.register(mapRoutes);
  await app.register(tileRoutes);
  await app.register(typhoonTrackRoutes);

  const web = await registerWeb(app, config.WEB_DIST);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (request.method === 'GET' && !isApiPath(path) && !/\.[a-z0-9]+$/i.test(path)) {
      return reply.status(200).type('text/html; charset=utf-8').send(web.fallback());
    }
    return reply.status(404).send({ detail: `No route ${request.method} ${path}.` });
  });

  return app;
}
