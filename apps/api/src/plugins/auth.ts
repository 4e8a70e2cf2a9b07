import fp from 'fastify-plugin';

import { HttpError } from '../lib/http-error.ts';
import { authenticateSession, type SessionPrincipal } from '../modules/auth/sessions.ts';

export type AuthUser = SessionPrincipal;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a session token (sign-in, health). */
    public?: boolean;
    /** Only for users whose stored role is Admin. */
    admin?: boolean;
  }
  interface FastifyRequest {
    user: AuthUser;
  }
}

export const SESSION_INVALID = 'Sessão inválida ou expirada. Faça login novamente.';
export const ADMIN_ONLY = 'Acesso restrito a administradores.';

/**
 * Every route needs a valid, unexpired, unrevoked session token unless its config says `public`;
 * routes whose config says `admin` also need the Admin role. The role and the active flag come from the
 * database, not from the token, so a demotion or deactivation takes effect at once.
 */
export default fp(
  async (app) => {
    app.decorateRequest('user', null as unknown as AuthUser);
    app.addHook('onRequest', async (request) => {
      const config = request.routeOptions.config;
      if (!request.routeOptions.url || config.public) return;
      const user = await authenticateSession(app.db, app.config.jwt, request.headers.authorization);
      if (!user) throw new HttpError(401, SESSION_INVALID);
      request.user = user;
      if (config.admin && request.user.role !== 'Admin') throw new HttpError(403, ADMIN_ONLY);
    });
  },
  { name: 'auth', dependencies: ['database'] },
);
