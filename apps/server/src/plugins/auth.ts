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
  }
}

/** OpenAPI security requirement for routes that need a token. */
export const TOKEN_SECURITY = [{ TokenAuth: [] as string[] }];

export function registerAuth(app: FastifyInstance) {
  app.decorateRequest('authUser', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const user = await app.services.auth.authenticate(request.headers.authorization);
    if (!user) throw unauthorized('Authentication credentials were not provided or are invalid. Send Authorization: Token <token>.');
    request.authUser = user;
  });
}

/** The caller of a route guarded by `app.authenticate`. */
export function caller(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw unauthorized();
  return request.authUser;
}
