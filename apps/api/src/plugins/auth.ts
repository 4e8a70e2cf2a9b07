import fp from 'fastify-plugin';

import { HttpError } from '../lib/http-error.ts';
import { authenticatedNow, authenticateSession, type SessionPrincipal } from '../modules/auth/sessions.ts';

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
    // Callback-style, not async: a signed-in person's session is nearly always answered from memory at once
    // (authenticatedNow), and then the request goes on without a promise of its own.
    app.addHook('onRequest', (request, _reply, done) => {
      const config = request.routeOptions.config;
      if (!request.routeOptions.url || config.public) return done();
      const admitted = (user: AuthUser | null) => {
        if (!user) return done(new HttpError(401, SESSION_INVALID));
        request.user = user;
        if (config.admin && user.role !== 'Admin') return done(new HttpError(403, ADMIN_ONLY));
        done();
      };
      const known = authenticatedNow(app.db, app.config.jwt, request.headers.authorization);
      if (known !== undefined) return admitted(known);
      authenticateSession(app.db, app.config.jwt, request.headers.authorization).then(admitted, done);
    });
  },
  { name: 'auth', dependencies: ['database'] },
);
