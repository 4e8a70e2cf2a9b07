import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { JWTPayload } from 'jose';
import { type Fault, FaultQueue, sendGarbage } from './faults.ts';
import { pageHeaders, renderErrorPage, renderSignedOutPage, renderSignInPage } from './sign-in-pages.ts';
import {
  GRAPH_APP_ID,
  GRAPH_APPLICATION_PERMISSIONS,
  GRAPH_RESOURCE,
  nowSeconds,
  randomToken,
  servicePrincipalId,
  signInAppRoles,
  single,
  type StandInContext,
} from './stand-in-context.ts';
import type { IdentityFailure, StandInPerson, StandIns } from './types.ts';

const PENDING_SIGN_IN_MS = 10 * 60 * 1000;
const CODE_MS = 5 * 60 * 1000;
const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'];
const TOKEN_FAILURES: readonly IdentityFailure[] = [
  'invalid_grant',
  'bad_signature',
  'wrong_audience',
  'wrong_nonce',
  'expired_id_token',
];

/** A sign-in page that was served and awaits the person's choice; the form only refers to it by id. */
interface PendingSignIn {
  redirectUri: string;
  state: string | undefined;
  nonce: string | undefined;
  codeChallenge: string;
  scope: string;
  expiresAt: number;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string | undefined;
  personId: string;
  scope: string;
  expiresAt: number;
  used: boolean;
}

interface TokenResponse {
  token_type: 'Bearer';
  scope?: string;
  expires_in: number;
  ext_expires_in: number;
  access_token: string;
  id_token?: string;
}

type TenantRoute = { Params: { tenant: string } };
type Form = Record<string, unknown>;

interface OAuthError {
  status: number;
  error: string;
  description: string;
}

export type IdentityProvider = StandIns['identity'];

function oauthError(status: number, error: string, description: string): OAuthError {
  return { status, error, description };
}

/**
 * Entra's OAuth error answer: the error, its description and AADSTS codes, the moment (`YYYY-MM-DD HH:MM:SSZ`) and
 * the ids support asks for (`trace_id`, `correlation_id`), as Microsoft's auth-code and client-credentials pages show.
 */
function sendOAuthError(reply: FastifyReply, { status, error, description }: OAuthError): FastifyReply {
  const code = /^AADSTS(\d+)/.exec(description)?.[1];
  return reply.code(status).send({
    error,
    error_description: description,
    error_codes: code ? [Number(code)] : [],
    timestamp: new Date()
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d{3}Z$/, 'Z'),
    trace_id: randomUUID(),
    correlation_id: randomUUID(),
  });
}

function sendPage(reply: FastifyReply, status: number, html: string, formTargets?: string[]): FastifyReply {
  return reply.code(status).headers(pageHeaders(formTargets)).send(html);
}

function sendErrorPage(reply: FastifyReply, message: string, detail: string): FastifyReply {
  return sendPage(reply, 400, renderErrorPage(message, detail));
}

function redirectTo(reply: FastifyReply, target: string, params: Record<string, string | undefined>): FastifyReply {
  const url = new URL(target);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return reply.header('cache-control', 'no-store').redirect(url.href, 302);
}

/** Absolute http(s) URLs only, without a fragment, as RFC 6749 asks of redirection endpoints. */
function parseRedirectUri(value: string | undefined): URL | null {
  if (!value || !URL.canParse(value)) return null;
  const url = new URL(value);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hash) return null;
  return url;
}

function isForm(request: FastifyRequest): boolean {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/x-www-form-urlencoded' && typeof request.body === 'object' && request.body !== null;
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** RFC 6749 §2.3.1: Basic credentials are form-encoded before base64. */
function formDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

function withoutEmpty(claims: Record<string, unknown>): JWTPayload {
  return Object.fromEntries(
    Object.entries(claims).filter(
      ([, value]) => value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0),
    ),
  );
}

/** Entra's OAuth error for a simulated failure status. */
function simulatedError(status: number): OAuthError {
  if (status === 429) {
    return oauthError(429, 'temporarily_unavailable', 'AADSTS90055: Too many requests (simulated throttling).');
  }
  if (status >= 500) {
    return oauthError(status, 'temporarily_unavailable', 'AADSTS90033: A transient error has occurred (simulated).');
  }
  return oauthError(status, 'invalid_request', `AADSTS90014: The request failed with ${status} (simulated).`);
}

export function registerIdentityProvider(app: FastifyInstance, ctx: StandInContext): IdentityProvider {
  const failures: IdentityFailure[] = [];
  const discoveryFaults = new FaultQueue();
  const tokenFaults = new FaultQueue();

  /**
   * Plays a queued fault instead of the answer; false when none is due. Errors in Entra's OAuth shape; garbage of
   * the wrong shape is `wrongShape`; a truncated or unfinished body starts like `sample`.
   */
  function playFault(reply: FastifyReply, queue: FaultQueue, wrongShape: object, sample: object): boolean {
    const fault: Fault | undefined = queue.take();
    switch (fault?.kind) {
      case undefined:
        return false;
      case 'fail':
        sendOAuthError(reply, simulatedError(fault.status));
        return true;
      case 'throttle':
        if (fault.retryAfter !== null) reply.header('retry-after', fault.retryAfter);
        sendOAuthError(reply, simulatedError(429));
        return true;
      case 'hang':
        queue.hang(reply, fault.stage, JSON.stringify(sample));
        return true;
      case 'garbage':
        sendGarbage(reply, fault.garbage, wrongShape, JSON.stringify(sample));
        return true;
    }
  }
  const pendingSignIns = new Map<string, PendingSignIn>();
  const codes = new Map<string, IssuedCode>();
  // Where sign-out may send the browser back to: only to origins the portal already used as redirect_uri.
  const knownOrigins = new Set<string>();

  const tenantBase = () => `${ctx.authorityHost}/${ctx.tenantId}`;
  const unknownTenant = (tenant: string) =>
    `AADSTS90002: Tenant '${tenant}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`;

  /** Each stage takes the oldest failure meant for it, so a queued token failure is not lost at authorize. */
  function takeFailure(kinds: readonly IdentityFailure[]): IdentityFailure | undefined {
    const index = failures.findIndex((failure) => kinds.includes(failure));
    return index < 0 ? undefined : failures.splice(index, 1)[0];
  }

  function prune(entries: Map<string, { expiresAt: number }>): void {
    const now = Date.now();
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
  }

  function findPerson(id: string): StandInPerson | undefined {
    return ctx.people.find((person) => person.id === id);
  }

  /** The name a person signs in with: a member's UPN; a guest's address in their home tenant. */
  function signInName(person: StandInPerson): string {
    return person.userType === 'Guest'
      ? (person.emailClaim ?? person.mail ?? person.userPrincipalName)
      : person.userPrincipalName;
  }

  function pairwiseSubject(person: StandInPerson): string {
    return createHash('sha256').update(`${ctx.tenantId}|${ctx.clientId}|${person.id}`).digest('base64url');
  }

  app.get<TenantRoute>('/:tenant/v2.0/.well-known/openid-configuration', async (request, reply) => {
    if (request.params.tenant !== ctx.tenantId) {
      return sendOAuthError(reply, oauthError(400, 'invalid_tenant', unknownTenant(request.params.tenant)));
    }
    const base = tenantBase();
    const wrongShape = { issuer: 'https://sts.windows.net/outro-diretorio/', token_endpoint: 42, jwks_uri: null };
    const sample = { issuer: ctx.issuer, token_endpoint: `${base}/oauth2/v2.0/token`, jwks_uri: `${base}/keys` };
    if (playFault(reply, discoveryFaults, wrongShape, sample)) return reply;
    return {
      issuer: ctx.issuer,
      authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
      token_endpoint: `${base}/oauth2/v2.0/token`,
      jwks_uri: `${base}/discovery/v2.0/keys`,
      end_session_endpoint: `${base}/oauth2/v2.0/logout`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      id_token_signing_alg_values_supported: ['RS256'],
      subject_types_supported: ['pairwise'],
      scopes_supported: OIDC_SCOPES,
      claims_supported: [
        'iss',
        'aud',
        'sub',
        'oid',
        'tid',
        'nonce',
        'name',
        'preferred_username',
        'email',
        'roles',
        'iat',
        'nbf',
        'exp',
        'ver',
      ],
      request_uri_parameter_supported: false,
      cloud_instance_name: 'microsoftonline.com',
    };
  });

  app.get<TenantRoute>('/:tenant/discovery/v2.0/keys', async (request, reply) => {
    if (request.params.tenant !== ctx.tenantId) {
      return sendOAuthError(reply, oauthError(400, 'invalid_tenant', unknownTenant(request.params.tenant)));
    }
    return ctx.keys.jwks;
  });

  app.get<TenantRoute & { Querystring: Form }>('/:tenant/oauth2/v2.0/authorize', async (request, reply) => {
    const query = request.query;
    if (request.params.tenant !== ctx.tenantId) {
      return sendErrorPage(reply, 'Este diretório não existe na simulação.', unknownTenant(request.params.tenant));
    }
    const clientId = single(query.client_id);
    if (clientId !== ctx.clientId) {
      return sendErrorPage(
        reply,
        `O aplicativo "${clientId ?? ''}" não está registrado neste diretório simulado.`,
        `AADSTS700016: Application with identifier '${clientId ?? ''}' was not found in the directory '${ctx.tenantId}'.`,
      );
    }
    const redirectUrl = parseRedirectUri(single(query.redirect_uri));
    if (!redirectUrl) {
      return sendErrorPage(
        reply,
        'O endereço de retorno (redirect_uri) falta ou não é um URL http(s) válido.',
        'AADSTS50011: The redirect URI specified in the request does not match the redirect URIs configured for the application.',
      );
    }
    const redirectUri = redirectUrl.href;
    const state = single(query.state);
    const fail = (error: string, description: string) =>
      redirectTo(reply, redirectUri, { error, error_description: description, state });

    if (single(query.response_type) !== 'code') {
      return fail('unsupported_response_type', "AADSTS700054: The only response_type supported here is 'code'.");
    }
    const responseMode = single(query.response_mode);
    if (query.response_mode !== undefined && responseMode !== 'query') {
      return fail('invalid_request', "AADSTS900144: The only response_mode supported here is 'query'.");
    }
    const scope = single(query.scope);
    if (!scope?.trim()) {
      return fail('invalid_request', "AADSTS900144: The request body must contain the following parameter: 'scope'.");
    }
    const codeChallenge = single(query.code_challenge);
    if (!codeChallenge || single(query.code_challenge_method) !== 'S256') {
      return fail(
        'invalid_request',
        'AADSTS9002325: Proof Key for Code Exchange is required: send code_challenge with code_challenge_method=S256.',
      );
    }
    if (!/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
      return fail('invalid_request', 'AADSTS501491: Invalid size of Code_Challenge parameter.');
    }
    if (takeFailure(['access_denied'])) {
      return fail('access_denied', 'AADSTS65004: User declined to consent to access the app.');
    }
    if (single(query.prompt) === 'none') {
      return fail('login_required', 'AADSTS50058: A silent sign-in request was sent but no user is signed in.');
    }

    prune(pendingSignIns);
    const requestId = randomToken();
    pendingSignIns.set(requestId, {
      redirectUri,
      state,
      nonce: single(query.nonce),
      codeChallenge,
      scope: scope.trim(),
      expiresAt: Date.now() + PENDING_SIGN_IN_MS,
    });
    knownOrigins.add(redirectUrl.origin);
    const html = renderSignInPage({
      formAction: `/${ctx.tenantId}/oauth2/v2.0/authorize`,
      requestId,
      appName: ctx.appDisplayName,
      returnsTo: redirectUrl.origin,
      // Labelled with the roles their token will carry, group-assigned ones included.
      people: ctx.people
        .filter((person) => person.showOnSignIn)
        .map((person) => ({ ...person, appRoles: signInAppRoles(ctx, person) })),
    });
    return sendPage(reply, 200, html, [redirectUrl.origin]);
  });

  app.post<TenantRoute>('/:tenant/oauth2/v2.0/authorize', async (request, reply) => {
    if (request.params.tenant !== ctx.tenantId || !isForm(request)) {
      return sendErrorPage(reply, 'Pedido de entrada inválido.', 'AADSTS90014: The request is malformed.');
    }
    const form = request.body as Form;
    const requestId = single(form.request);
    const pending = requestId === undefined ? undefined : pendingSignIns.get(requestId);
    if (!requestId || !pending || pending.expiresAt <= Date.now()) {
      return sendErrorPage(
        reply,
        'Este pedido de entrada expirou ou já foi usado. Volte ao portal e tente entrar de novo.',
        'AADSTS900561: The sign-in request was not found or has expired.',
      );
    }
    const finish = (params: Record<string, string | undefined>) => {
      pendingSignIns.delete(requestId);
      return redirectTo(reply, pending.redirectUri, { ...params, state: pending.state });
    };

    if (single(form.action) === 'cancel') {
      return finish({
        error: 'access_denied',
        error_description: 'AADSTS65004: User declined to consent to access the app.',
      });
    }
    const personId = single(form.person);
    const person = personId === undefined ? undefined : findPerson(personId);
    if (!person) {
      return sendErrorPage(
        reply,
        'Essa pessoa não existe no diretório simulado.',
        'AADSTS50034: The user account does not exist in the directory.',
      );
    }
    if (person.accountEnabled === false) {
      return finish({ error: 'access_denied', error_description: 'AADSTS50057: The user account is disabled.' });
    }

    prune(codes);
    const code = randomToken();
    codes.set(code, {
      clientId: ctx.clientId,
      redirectUri: pending.redirectUri,
      codeChallenge: pending.codeChallenge,
      nonce: pending.nonce,
      personId: person.id,
      scope: pending.scope,
      expiresAt: Date.now() + CODE_MS,
      used: false,
    });
    return finish({ code });
  });

  app.get<TenantRoute & { Querystring: Form }>('/:tenant/oauth2/v2.0/logout', async (request, reply) => {
    const target = parseRedirectUri(single(request.query.post_logout_redirect_uri));
    if (request.params.tenant === ctx.tenantId && target && knownOrigins.has(target.origin)) {
      return redirectTo(reply, target.href, { state: single(request.query.state) });
    }
    return sendPage(reply, 200, renderSignedOutPage());
  });

  /** The client id, or why the client may not use the token endpoint. */
  function authenticateClient(request: FastifyRequest, form: Form): string | OAuthError {
    const header = request.headers.authorization;
    let clientId = single(form.client_id);
    let clientSecret = single(form.client_secret);
    if (header !== undefined) {
      const encoded = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header)?.[1];
      const decoded = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const basicId = colon < 0 ? null : formDecode(decoded.slice(0, colon));
      const basicSecret = colon < 0 ? null : formDecode(decoded.slice(colon + 1));
      if (basicId === null || basicSecret === null) {
        return oauthError(
          401,
          'invalid_client',
          'AADSTS7000216: The Authorization header is not valid Basic authentication.',
        );
      }
      if (clientSecret !== undefined || (clientId !== undefined && clientId !== basicId)) {
        return oauthError(400, 'invalid_request', 'AADSTS90014: Use only one client authentication method.');
      }
      clientId = basicId;
      clientSecret = basicSecret;
    }
    if (!clientId) {
      return oauthError(
        400,
        'invalid_request',
        "AADSTS900144: The request body must contain the following parameter: 'client_id'.",
      );
    }
    if (clientId !== ctx.clientId) {
      return oauthError(
        401,
        'invalid_client',
        `AADSTS700016: Application with identifier '${clientId}' was not found in the directory '${ctx.tenantId}'.`,
      );
    }
    if (clientSecret === undefined) {
      return oauthError(
        401,
        'invalid_client',
        "AADSTS7000218: The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
      );
    }
    if (!sameSecret(clientSecret, ctx.clientSecret)) {
      return oauthError(
        401,
        'invalid_client',
        `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`,
      );
    }
    return clientId;
  }

  function redeemCode(form: Form, clientId: string): { issued: IssuedCode; person: StandInPerson } | OAuthError {
    const code = single(form.code);
    if (!code) {
      return oauthError(
        400,
        'invalid_request',
        "AADSTS900144: The request body must contain the following parameter: 'code'.",
      );
    }
    const issued = codes.get(code);
    if (!issued) {
      return oauthError(400, 'invalid_grant', 'AADSTS70000: The provided authorization code is invalid.');
    }
    if (issued.used) {
      return oauthError(
        400,
        'invalid_grant',
        'AADSTS54005: OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.',
      );
    }
    // Any attempt spends the code, so a failed PKCE check cannot be retried with another guess.
    issued.used = true;
    if (issued.expiresAt <= Date.now()) {
      return oauthError(400, 'invalid_grant', 'AADSTS70008: The provided authorization code has expired.');
    }
    if (issued.clientId !== clientId) {
      return oauthError(400, 'invalid_grant', 'AADSTS70000: The authorization code was issued to another client.');
    }
    if (single(form.redirect_uri) !== issued.redirectUri) {
      return oauthError(
        400,
        'invalid_grant',
        'AADSTS500117: The redirect_uri does not match the one used to request the authorization code.',
      );
    }
    const verifier = single(form.code_verifier);
    if (!verifier || pkceChallenge(verifier) !== issued.codeChallenge) {
      return oauthError(
        400,
        'invalid_grant',
        'AADSTS501481: The Code_Verifier does not match the code_challenge supplied in the authorization request.',
      );
    }
    const person = findPerson(issued.personId);
    if (!person) {
      return oauthError(400, 'invalid_grant', 'AADSTS50034: The user account does not exist in the directory.');
    }
    if (person.accountEnabled === false) {
      return oauthError(400, 'invalid_grant', 'AADSTS50057: The user account is disabled.');
    }
    return { issued, person };
  }

  async function authorizationCodeTokens(form: Form, clientId: string): Promise<TokenResponse | OAuthError> {
    const redeemed = redeemCode(form, clientId);
    if ('error' in redeemed) return redeemed;
    const { issued, person } = redeemed;
    const failure = takeFailure(TOKEN_FAILURES);
    if (failure === 'invalid_grant') {
      return oauthError(400, 'invalid_grant', 'AADSTS70000: The provided grant was rejected (simulated failure).');
    }

    const lifetime = ctx.tokenLifetimeSeconds;
    const now = nowSeconds();
    const requested = issued.scope.split(/\s+/);
    const graphScopes = requested
      .filter((scope) => !OIDC_SCOPES.includes(scope))
      .map((scope) => scope.replace(`${GRAPH_RESOURCE}/`, ''));
    const grantedScope = [
      ...requested.filter((scope) => scope !== 'offline_access' && OIDC_SCOPES.includes(scope)),
      ...(graphScopes.length ? graphScopes : ['User.Read']),
    ].join(' ');

    const accessToken = await ctx.keys.sign(
      withoutEmpty({
        aud: GRAPH_RESOURCE,
        iss: ctx.issuer,
        iat: now,
        nbf: now,
        exp: now + lifetime,
        oid: person.id,
        sub: pairwiseSubject(person),
        tid: ctx.tenantId,
        name: person.displayName,
        preferred_username: signInName(person),
        scp: grantedScope,
        appid: clientId,
        azp: clientId,
        idtyp: 'user',
        ver: '2.0',
        uti: randomToken(16),
      }),
    );

    let idToken: string | undefined;
    if (requested.includes('openid')) {
      const issuedAt = failure === 'expired_id_token' ? now - 3600 - lifetime : now;
      const nonce = failure === 'wrong_nonce' ? randomToken(16) : issued.nonce;
      idToken = await ctx.keys.sign(
        withoutEmpty({
          iss: ctx.issuer,
          aud: failure === 'wrong_audience' ? randomUUID() : clientId,
          sub: pairwiseSubject(person),
          oid: person.id,
          tid: ctx.tenantId,
          nonce,
          name: person.displayName,
          preferred_username: signInName(person),
          // The optional claim `email`: a guest's comes from their home tenant, unverified by this one.
          email: person.emailClaim ?? person.mail,
          roles: signInAppRoles(ctx, person),
          iat: issuedAt,
          nbf: issuedAt,
          exp: issuedAt + lifetime,
          ver: '2.0',
          uti: randomToken(16),
        }),
        { forged: failure === 'bad_signature' },
      );
    }

    return {
      token_type: 'Bearer',
      scope: grantedScope,
      expires_in: lifetime,
      ext_expires_in: lifetime,
      access_token: accessToken,
      ...(idToken ? { id_token: idToken } : {}),
    };
  }

  async function clientCredentialsTokens(form: Form, clientId: string): Promise<TokenResponse | OAuthError> {
    const scope = single(form.scope)?.trim();
    if (!scope) {
      return oauthError(
        400,
        'invalid_request',
        "AADSTS900144: The request body must contain the following parameter: 'scope'.",
      );
    }
    if (!/^\S+\/\.default$/.test(scope)) {
      return oauthError(
        400,
        'invalid_scope',
        `AADSTS1002012: The provided value for scope ${scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`,
      );
    }
    const resource = scope.slice(0, -'/.default'.length);
    const isGraph = resource === GRAPH_RESOURCE || resource === GRAPH_APP_ID;
    const servicePrincipal = servicePrincipalId({ tenantId: ctx.tenantId, clientId });
    const now = nowSeconds();
    const accessToken = await ctx.keys.sign(
      withoutEmpty({
        aud: resource,
        iss: ctx.issuer,
        iat: now,
        nbf: now,
        exp: now + ctx.tokenLifetimeSeconds,
        appid: clientId,
        azp: clientId,
        appidacr: '1',
        azpacr: '1',
        idtyp: 'app',
        oid: servicePrincipal,
        sub: servicePrincipal,
        tid: ctx.tenantId,
        roles: isGraph ? GRAPH_APPLICATION_PERMISSIONS : undefined,
        ver: '2.0',
        uti: randomToken(16),
      }),
    );
    return {
      token_type: 'Bearer',
      expires_in: ctx.tokenLifetimeSeconds,
      ext_expires_in: ctx.tokenLifetimeSeconds,
      access_token: accessToken,
    };
  }

  app.post<TenantRoute>('/:tenant/oauth2/v2.0/token', async (request, reply) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    if (request.params.tenant !== ctx.tenantId) {
      return sendOAuthError(reply, oauthError(400, 'invalid_request', unknownTenant(request.params.tenant)));
    }
    if (!isForm(request)) {
      return sendOAuthError(
        reply,
        oauthError(
          400,
          'invalid_request',
          'AADSTS900561: The token endpoint only accepts application/x-www-form-urlencoded POST bodies.',
        ),
      );
    }
    const form = request.body as Form;
    const clientId = authenticateClient(request, form);
    if (typeof clientId !== 'string') return sendOAuthError(reply, clientId);
    // Only a client Entra would serve uses up the queued faults.
    const wrongShape = { token_type: 'Bearer', expires_in: 'logo', access_token: 42 };
    const sample = { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: randomToken(600) };
    if (playFault(reply, tokenFaults, wrongShape, sample)) return reply;

    const grantType = single(form.grant_type);
    let result: TokenResponse | OAuthError;
    if (grantType === 'authorization_code') {
      result = await authorizationCodeTokens(form, clientId);
    } else if (grantType === 'client_credentials') {
      result = await clientCredentialsTokens(form, clientId);
    } else if (grantType === undefined) {
      result = oauthError(
        400,
        'invalid_request',
        "AADSTS900144: The request body must contain the following parameter: 'grant_type'.",
      );
    } else {
      result = oauthError(
        400,
        'unsupported_grant_type',
        `AADSTS70003: The app requested an unsupported grant type '${grantType}'.`,
      );
    }
    return 'error' in result ? sendOAuthError(reply, result) : result;
  });

  return {
    failNext(failure) {
      failures.push(failure);
    },
    discovery: discoveryFaults.controls,
    token: tokenFaults.controls,
    reset() {
      failures.length = 0;
      discoveryFaults.reset();
      tokenFaults.reset();
    },
  };
}
