import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { DatabaseHandle } from './infra/db/database.js';
import { registerAuth } from './plugins/auth.js';
import { registerCompression } from './plugins/compress.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandler } from './plugins/errors.js';
import { registerNulGuard } from './plugins/nul-guard.js';
import { registerOpenApi } from './plugins/openapi.js';
import { isApiPath, registerWeb } from './plugins/web.js';
import { createServices, type Services } from './compose.js';
import { registerRoutes } from './routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    services: Services;
  }
}

/** An incoming x-request-id is kept when it is a short token of safe characters (a proxy's or a client's id). */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * Query parameters whose value is a secret, by decoded, lower-cased name (`-` read as `_`): session and API tokens,
 * one-time and e-mail codes, passwords, keys, signatures.
 */
const SECRET_PARAM =
  /token|passw|secret|api_?key|access_?key|private_?key|signature|^(key|code|sig|auth|authorization|session|session_?id|otp|totp_code|current_code|mfa_code)$/;

/** Percent-decoding as a query parser does it (`+` is a space), repeated so that a doubly encoded name is seen too; a broken escape stays as it is. */
function decodedName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  for (let i = 0; i < 3 && name.includes('%'); i++) {
    const next = [...new URLSearchParams(`${name}=`).keys()][0] ?? name;
    if (next === name) break;
    name = next;
  }
  return name.trim().toLowerCase().replace(/-/g, '_');
}

function decodedSegment(raw: string): string {
  try {
    return decodeURIComponent(raw).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * A request URL as it may be logged: the secret segment of a download link (`/api/v2/files/<token>/...`,
 * `/api/v2/reports/<token>/...`, also when the path is percent-encoded) and the value of every query parameter whose
 * decoded name is a secret (SECRET_PARAM: `?%74oken=`, `?TOKEN=`, each of repeated keys) are replaced by `[redacted]`;
 * the rest is kept as sent. Every log line with a URL goes through this (the `req` serializer of the logger).
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const segments = path.split('/');
  for (let i = 3; i < segments.length; i++) {
    const [api, v2, kind] = segments.slice(i - 3, i).map(decodedSegment);
    if (api === 'api' && v2 === 'v2' && (kind === 'files' || kind === 'reports') && segments[i]) segments[i] = '[redacted]';
  }
  if (q < 0) return segments.join('/');
  const [query = '', ...fragment] = url.slice(q + 1).split('#');
  const params = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    return eq >= 0 && SECRET_PARAM.test(decodedName(part.slice(0, eq))) ? `${part.slice(0, eq)}=[redacted]` : part;
  });
  return `${segments.join('/')}?${params.join('&')}${fragment.length ? `#${fragment.join('#')}` : ''}`;
}

/**
 * Content-Security-Policy of every answer (docs/reliability.md "Operations" gives the reasons line by line):
 * scripts only from our origin (the built app, the MapLibre and pdf.js worker files, Swagger UI's files: no inline
 * script anywhere); workers from our files or blob: (MapLibre); images from us, data: and blob: (map sprites, canvas
 * exports, Swagger icons); styles from us plus inline, because antd and ECharts set style attributes and antd's
 * CSS-in-JS inserts <style> elements at run time (a nonce cannot reach those); everything fetched (API, tiles,
 * basemap, glyphs, PDFs) from our origin; no plugins, no framing, no foreign form targets.
 */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy([]);

/**
 * The policy with further origins the browser may fetch from: a configured basemap's (BASEMAP_STYLE_URL,
 * BASEMAP_PMTILES when URLs, and BASEMAP_ORIGINS for its tiles, glyphs and sprites). MapLibre fetches all of them
 * (connect-src), raster tiles included (it decodes images from fetched bytes).
 */
export function contentSecurityPolicy(extraOrigins: string[]): string {
  const extra = [...new Set(extraOrigins)].map((o) => ` ${o}`).join('');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${extra}`,
    "font-src 'self' data:",
    `connect-src 'self'${extra}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The Content-Security-Policy with the basemap's origins (the environment's or the operator's setting,
 * basemap.service.ts), which may change while the server runs: built again only when they change.
 */
function basemapPolicy(app: FastifyInstance): () => string {
  let cspFor = '';
  let csp = '';
  return () => {
    const origins = app.services.basemap.origins();
    const key = origins.join(' ');
    if (key !== cspFor || !csp) {
      cspFor = key;
      csp = contentSecurityPolicy(origins);
    }
    return csp;
  };
}

/** Browser features the app does not use are switched off; geolocation stays for the map's locate button. */
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(self), payment=(), usb=(), serial=(), bluetooth=(), midi=(), magnetometer=(), gyroscope=(), accelerometer=()';

export interface BuildOptions {
  /** Where the JSON log lines go (default stdout); tests read them from a stream. */
  logStream?: DestinationStream;
}

/** Builds the HTTP app on an open, migrated database. Tests call this; main.ts adds listen and shutdown. */
export async function buildApp(config: Config, database: DatabaseHandle, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Structured pino lines, each with the request id (reqId). Requests are logged as method, redacted URL, host and
    // client address only: no headers (Authorization), no bodies (password, TOTP code); redact is a second net.
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            ...(options.logStream ? { stream: options.logStream } : {}),
            redact: [
              'req.headers.authorization',
              'req.headers.cookie',
              'req.headers["x-api-key"]',
              'body.password',
              'body.confirm_password',
              'body.totp_code',
              'body.code',
              'body.current_code',
            ],
            serializers: { req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip }) },
          },
    bodyLimit: config.BODY_LIMIT_BYTES,
    // A plugin's registration (the API docs page reads its assets) may take more than Fastify's default 10 s on a
    // machine under load (seen at load 20 on 2 cores); failing the start for it helps nobody.
    pluginTimeout: 120_000,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    },
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('services', createServices(database, config, app.log));
  // a dashboard store being built stops at its next batch and is let go (built again when next needed)
  app.addHook('onClose', () => app.services.dashboard.large.close());
  // the children reading users' files stop with the server
  app.addHook('onClose', async () => app.services.parser.close());

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
  registerNulGuard(app);
  await registerOpenApi(app);

  const policy = basemapPolicy(app);
  app.addHook('onSend', async (req, reply) => {
    void reply.header('x-request-id', req.id);
    void reply.header('x-content-type-options', 'nosniff');
    void reply.header('referrer-policy', 'same-origin');
    void reply.header('x-frame-options', 'DENY');
    void reply.header('content-security-policy', policy());
    void reply.header('permissions-policy', PERMISSIONS_POLICY);
    void reply.header('cross-origin-opener-policy', 'same-origin');
    // Only over TLS: behind a TLS-terminating proxy (TRUST_PROXY=true, X-Forwarded-Proto: https) or TLS in Node.
    // Sent over plain HTTP it would be ignored at best, and would lock out a plain-HTTP install at worst.
    if (req.protocol === 'https') void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
  if (config.HTTP_COMPRESSION) registerCompression(app);

  await registerRoutes(app);

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
