import { createHmac } from 'node:crypto';
import cookie from '@fastify/cookie';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { LOGIN_ERROR_MICROSOFT, loginBody, loginResponse } from '@paineis/contract/auth';
import { errorResponse } from '@paineis/contract/fields';
import { signInLocally } from './local-sign-in.ts';
import { signOut } from './sessions.ts';
import { completeMicrosoftSignIn, startMicrosoftSignIn } from './microsoft-sign-in.ts';

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
  /** The state cookie's value when its signature holds; null otherwise. */
  const stateCookie = (request: FastifyRequest) => {
    const raw = request.cookies[STATE_COOKIE];
    const unsigned = raw ? request.unsignCookie(raw) : null;
    return unsigned?.valid && unsigned.value ? unsigned.value : null;
  };

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
      const started = await startMicrosoftSignIn(entra, publicBase(request) + CALLBACK_PATH, request.log);
      if (!started) return reply.redirect(loginPage(request, { erro: LOGIN_ERROR_MICROSOFT }));
      void reply.setCookie(STATE_COOKIE, started.checks, {
        signed: true,
        httpOnly: true,
        // Lax: the cookie must come back on the top-level redirect from Microsoft, and on nothing else.
        sameSite: 'lax',
        secure: publicBase(request).startsWith('https:'),
        path: '/api/auth',
        maxAge: 600,
      });
      return reply.redirect(started.url);
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
      const token = await completeMicrosoftSignIn(app, {
        checks: stateCookie(request),
        callbackUrl: new URL(publicBase(request) + request.url),
        ip: request.ip,
        log: request.log,
      });
      void reply.clearCookie(STATE_COOKIE, { path: '/api/auth' });
      return reply.redirect(loginPage(request, token ? { token } : { erro: LOGIN_ERROR_MICROSOFT }));
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
    async (request) => signInLocally(app.db, app.config, request.body, request.ip),
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
      await signOut(app.db, app.config.jwt, request.headers.authorization, request.ip);
      return reply.code(204).send(null);
    },
  );
};
