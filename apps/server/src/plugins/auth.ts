import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../lib/auth-context.js';
import { unauthorized } from '../lib/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate`; routes that use it can rely on it being present. */
    authUser: AuthUser | null;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Like `authenticate`, for calls the browser makes by itself: they do not keep an idle session alive. */
    authenticateBackground: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** OpenAPI security requirement for routes that need a token. */
export const TOKEN_SECURITY = [{ TokenAuth: [] as string[] }];

export function registerAuth(app: FastifyInstance) {
  app.decorateRequest('authUser', null);
  const check = (activity: boolean) => async (request: FastifyRequest) => {
    const r = await app.services.auth.resolveSession(request.headers.authorization, { activity });
    if (r && 'ended' in r) throw unauthorized(`Your session ended after ${app.config.SESSION_IDLE_MINUTES} minutes without activity. Log in again.`);
    if (!r) throw unauthorized('Authentication credentials were not provided or are invalid. Send Authorization: Token <token>.');
    request.authUser = r.user;
  };
  app.decorate('authenticate', check(true));
  app.decorate('authenticateBackground', check(false));
}

/** The caller of a route guarded by `app.authenticate`. */
export function caller(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw unauthorized();
  return request.authUser;
}
