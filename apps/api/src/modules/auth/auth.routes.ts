import { createHmac } from 'node:crypto';
import cookie from '@fastify/cookie';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { LOGIN_ERROR_MICROSOFT, loginBody, loginResponse } from '@paineis/contract/auth';
import { errorResponse } from '@paineis/contract/fields';
import { EntraClient, type SignInChecks } from '../../integrations/microsoft-identity/entra-client.ts';
import { recordMicrosoftSignIn } from '../users/users.service.ts';
import { recordAudit, recordRefusedSignIn, recordSignIn } from '../audit/audit.ts';
import { HttpError } from '../../lib/http-error.ts';
import { signInLocally } from './local-sign-in.ts';
import { revokeSession } from './sessions.ts';
import { signSessionToken } from './tokens.ts';

const tags = ['Autenticação'];
const config = { public: true };
const STATE_COOKIE = 'paineis_oidc';
const CALLBACK_PATH = '/api/auth/microsoft-callback';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  // Signs the short-lived cookie that carries a Microsoft sign-in's state, nonce and PKCE verifier. Registered in
  // this module only, the one that uses a cookie: its hooks then run on these routes, not on every request.
  await app.register(cookie, { secret: createHmac('sha256', app.config.jwt.secret).update('cookies').digest('hex') });
  const entra = app.entra;
  /** Where people reach the portal: PUBLIC_URL, else this request's own scheme and host. */
  const publicBase = (request: FastifyRequest) => app.config.publicUrl ?? `${request.protocol}://${request.host}`;
  const loginPage = (request: FastifyRequest, query: Record<string, string>) =>
    `${publicBase(request)}/login?${new URLSearchParams(query).toString()}`;

  app.get(
    '/auth/microsoft-login',
    {
      config,
      schema: {
        tags,
        summary: 'Começa o login com a conta Microsoft (OIDC, código com PKCE) e redireciona ao Entra ID',
        response: { 302: z.null() },
      },
    },
    async (request, reply) => {
      if (!entra) return reply.redirect(loginPage(request, { erro: LOGIN_ERROR_MICROSOFT }));
      const checks = EntraClient.newChecks();
      let url: URL;
      try {
        url = await entra.authorizationUrl(publicBase(request) + CALLBACK_PATH, checks);
      } catch (error) {
        request.log.error({ err: error }, 'Entra ID indisponível para iniciar o login');
        return reply.redirect(loginPage(request, { erro: LOGIN_ERROR_MICROSOFT }));
      }
      void reply.setCookie(STATE_COOKIE, JSON.stringify(checks), {
        signed: true,
        httpOnly: true,
        // Lax: the cookie must come back on the top-level redirect from Microsoft, and on nothing else.
        sameSite: 'lax',
        secure: publicBase(request).startsWith('https:'),
        path: '/api/auth',
        maxAge: 600,
      });
      return reply.redirect(url.href);
    },
  );

  app.get(
    '/auth/microsoft-callback',
    {
      config,
      schema: {
        tags,
        summary: 'Volta do Entra ID: valida o token de identidade e redireciona a /login?token=...',
        response: { 302: z.null() },
      },
    },
    async (request, reply) => {
      /** `usuarioId`: the token's oid, once Entra's answer was accepted. */
      const fail = async (reason: string, error?: unknown, usuarioId: string | null = null) => {
        request.log.warn({ err: error, reason, userId: usuarioId ?? undefined }, 'login Microsoft recusado');
        await recordRefusedSignIn(
          app.db,
          { usuarioId, usuario: null, endereco: request.ip },
          'Microsoft',
          'login_recusado',
          reason,
        );
        void reply.clearCookie(STATE_COOKIE, { path: '/api/auth' });
        return reply.redirect(loginPage(request, { erro: LOGIN_ERROR_MICROSOFT }));
      };
      const graph = app.graph;
      if (!entra || !graph) return fail('Microsoft não configurado');
      const raw = request.cookies[STATE_COOKIE];
      const unsigned = raw ? request.unsignCookie(raw) : null;
      if (!unsigned?.valid || !unsigned.value) return fail('sem cookie de estado válido');
      let checks: SignInChecks;
      try {
        checks = JSON.parse(unsigned.value) as SignInChecks;
      } catch (error) {
        return fail('cookie de estado ilegível', error);
      }
      const callbackUrl = new URL(publicBase(request) + request.url);
      let identity;
      try {
        identity = await entra.completeSignIn(callbackUrl, checks);
      } catch (error) {
        return fail('resposta do Entra ID recusada', error);
      }
      // Who signed in is the token's oid; what the portal keeps of them comes from the directory.
      const signedIn = await recordMicrosoftSignIn(app.db, graph, identity, app.config.adminUsers, request.log);
      if ('refused' in signedIn) return fail(signedIn.refused, undefined, identity.oid);
      const { user } = signedIn;
      const { token } = await signSessionToken(app.config.jwt, {
        id: user.id,
        email: user.email,
        displayName: user.displayName,
        role: user.role,
        department: user.department,
        jobTitle: user.jobTitle,
        officeLocation: user.officeLocation,
      });
      void reply.clearCookie(STATE_COOKIE, { path: '/api/auth' });
      await recordSignIn(app.db, { usuarioId: user.id, usuario: user.email, endereco: request.ip }, 'Microsoft');
      request.log.info({ userId: user.id, role: user.role }, 'login Microsoft');
      return reply.redirect(loginPage(request, { token }));
    },
  );

  app.post(
    '/auth/login',
    {
      config,
      schema: {
        tags,
        summary: 'Login com usuário e senha (contas locais)',
        body: loginBody,
        response: { 200: loginResponse, 400: errorResponse, 401: errorResponse, 429: errorResponse },
      },
    },
    async (request) => {
      try {
        const answer = await signInLocally(app.db, app.config, request.body, request.ip);
        const { id, email } = answer.user;
        await recordSignIn(app.db, { usuarioId: id, usuario: email, endereco: request.ip }, 'Conta local');
        return answer;
      } catch (error) {
        if (error instanceof HttpError && (error.statusCode === 401 || error.statusCode === 429)) {
          // Who tried: the username as typed (there may be no such account).
          await recordRefusedSignIn(
            app.db,
            { usuarioId: null, usuario: request.body.username, endereco: request.ip },
            'Conta local',
            error.statusCode === 401 ? 'login_recusado' : 'limitado',
            error.message,
          );
        }
        throw error;
      }
    },
  );

  app.post(
    '/auth/logout-complete',
    {
      config,
      schema: {
        tags,
        summary: 'Encerra a sessão: o token deixa de valer em todas as instâncias até expirar',
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      // Always 204: signing out must work even with a token that is already invalid.
      const signedOut = await revokeSession(app.db, app.config.jwt, request.headers.authorization);
      if (signedOut) {
        await recordAudit(
          app.db,
          { usuarioId: signedOut.sub, usuario: signedOut.email ?? null, endereco: request.ip },
          { objeto: 'sessao', acao: 'logout', objetoId: signedOut.sub },
        );
      }
      return reply.code(204).send(null);
    },
  );
};
