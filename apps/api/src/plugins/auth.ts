import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../lib/http-error.ts';
import { verifySessionToken } from '../modules/auth/tokens.ts';
import { findSessionUser } from '../modules/auth/auth.repository.ts';

export interface AuthUser {
  id: string;
  email: string;
  displayName: string;
  role: 'Admin' | 'User';
  jti: string;
  expiresAt: Date;
}

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
      request.user = await authenticate(request);
      if (config.admin && request.user.role !== 'Admin') throw new HttpError(403, ADMIN_ONLY);
    });

    async function authenticate(request: FastifyRequest): Promise<AuthUser> {
      const header = request.headers.authorization;
      const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
      if (!match?.[1]) throw new HttpError(401, SESSION_INVALID);
      let claims;
      try {
        claims = await verifySessionToken(app.config.jwt, match[1]);
      } catch {
        throw new HttpError(401, SESSION_INVALID);
      }
      const user = await findSessionUser(app.db, claims.sub, claims.jti);
      if (!user || !user.active || user.revoked) throw new HttpError(401, SESSION_INVALID);
      return {
        id: user.id,
        email: user.email,
        displayName: user.displayName,
        role: user.role,
        jti: claims.jti,
        expiresAt: new Date(claims.exp * 1000),
      };
    }
  },
  { name: 'auth', dependencies: ['database'] },
);
