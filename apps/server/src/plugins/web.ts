import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const API_PREFIXES = ['/api/', '/accounts/', '/user/', '/docs', '/openapi.json'];

export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((p) => url.startsWith(p));
}

/**
 * Serves the built web app (apps/web/dist) and answers index.html for client-side routes,
 * so /project or /unknown load the app, which shows its own pages and its 404.
 */
export async function registerWeb(app: FastifyInstance, distDir: string) {
  const index = join(distDir, 'index.html');
  const built = existsSync(index);
  /** index.html of the built app (read per request, so a rebuild is served at once), or a hint to build it. */
  const fallback = (): string =>
    existsSync(index)
      ? readFileSync(index, 'utf8')
      : '<!doctype html><title>Climate Risk Platform</title><p>The web app is not built. Run <code>npm start</code> (or <code>npm run build -w @crp/web</code>).</p>';
  if (built) {
    // wildcard: files are looked up per request, so a rebuilt app is served without a restart.
    await app.register(fastifyStatic, { root: distDir, wildcard: true, index: false, maxAge: '1h', immutable: false });
  }
  // The app's own entry: a directory listing would be refused (403) by the static plugin.
  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.type('text/html; charset=utf-8').send(fallback()));
  return { fallback };
}
