import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { AuthUser } from '../lib/auth-context.js';
import { forbidden, unauthorized } from '../lib/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST route that only reads (a query too large for a URL): personal API tokens, which are read-only, may call it. */
    readOnlyPost?: boolean;
  }
  interface FastifyRequest {
    /** Set by `app.authenticate`; routes that use it can rely on it being present. */
    authUser: AuthUser | null;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Like `authenticate`, for calls the browser makes by itself: they do not keep an idle session alive. */
    authenticateBackground: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /**
     * Like `authenticate`, but also takes the token from a `?token=` query parameter when no Authorization header is
     * sent: only for GET routes desktop GIS clients call (QGIS and GDAL XYZ layers cannot set headers). The header wins.
     */
    authenticateHeaderOrQuery: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** OpenAPI security requirement for routes that need a token. */
export const TOKEN_SECURITY = [{ TokenAuth: [] as string[] }];
/** Either the header or the `token` query parameter (routes guarded by `authenticateHeaderOrQuery`). */
export const TOKEN_OR_QUERY_SECURITY: Record<string, string[]>[] = [{ TokenAuth: [] }, { TokenQuery: [] }];

export function registerAuth(app: FastifyInstance) {
  app.decorateRequest('authUser', null);
  const check =
    (activity: boolean, fromQuery = false) =>
    async (request: FastifyRequest) => {
      const q = fromQuery ? (request.query as { token?: unknown } | undefined)?.token : undefined;
      const header = request.headers.authorization ?? (typeof q === 'string' && q ? `Token ${q}` : undefined);
      const r = await app.services.auth.resolveSession(header, { activity });
      if (r && 'ended' in r) throw unauthorized(sessionEndedMessage(r.ended, app.config));
      if (!r) throw unauthorized('Authentication credentials were not provided or are invalid. Send Authorization: Token <token>.');
      if (r.user.apiTokenId && !readOnlyRequest(request)) throw forbidden(API_TOKEN_READ_ONLY);
      request.authUser = r.user;
    };
  app.decorate('authenticate', check(true));
  app.decorate('authenticateBackground', check(false));
  app.decorate('authenticateHeaderOrQuery', check(true, true));
}

export const API_TOKEN_READ_ONLY =
  'This request was sent with a personal API token, which is read-only: it may only read (GET and HEAD requests, and the results query POST /api/v2/asset_results/). Sign in to change data.';

/** GET and HEAD, and the POST routes marked `readOnlyPost` (queries that change nothing). */
function readOnlyRequest(request: FastifyRequest): boolean {
  return request.method === 'GET' || request.method === 'HEAD' || request.routeOptions.config?.readOnlyPost === true;
}

/** Why a session token stopped working, in the user's words. */
export function sessionEndedMessage(why: 'idle' | 'lifetime', config: Pick<Config, 'SESSION_IDLE_MINUTES' | 'SESSION_MAX_HOURS'>): string {
  return why === 'idle'
    ? `Your session ended after ${config.SESSION_IDLE_MINUTES} minutes without activity. Log in again.`
    : `Your session ended ${config.SESSION_MAX_HOURS} hours after you signed in. Log in again.`;
}

/** The caller of a route guarded by `app.authenticate`. */
export function caller(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw unauthorized();
  return request.authUser;
}
