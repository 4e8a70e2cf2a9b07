import type { FastifyContextConfig, FastifyRequest } from 'fastify';
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
    // Callback-style, not async, and with no closure of its own: a signed-in person's session is nearly always
    // answered from memory at once (authenticatedNow), and then the request goes on without a promise.
    app.addHook('onRequest', (request, _reply, done) => {
      const { url, config } = request.routeOptions;
      if (!url || config.public) return done();
      const known = authenticatedNow(app.db, app.config.jwt, request.headers.authorization);
      if (known !== undefined) return done(refusal(request, config, known));
      authenticateSession(app.db, app.config.jwt, request.headers.authorization).then(
        (user) => done(refusal(request, config, user)),
        done,
      );
    });
  },
  { name: 'auth', dependencies: ['database'] },
);

/** Sets the request's person, or answers why it is refused. */
function refusal(request: FastifyRequest, config: FastifyContextConfig, user: AuthUser | null): HttpError | undefined {
  if (!user) return new HttpError(401, SESSION_INVALID);
  request.user = user;
  if (config.admin && user.role !== 'Admin') return new HttpError(403, ADMIN_ONLY);
  return undefined;
}
