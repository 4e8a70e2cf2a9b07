import { z } from 'zod';
import type { Exchange } from './exchange.ts';
import {
  always,
  documented,
  findingsOf,
  guid,
  queryOf,
  type AnswerSpec,
  type Finding,
  type Operation,
} from './operation.ts';

/*
 * The Microsoft Entra ID (identity platform v2.0) calls the portal makes, from Microsoft Learn's pages: OpenID
 * Connect (https://learn.microsoft.com/entra/identity-platform/v2-protocols-oidc), the authorization code flow
 * (…/v2-oauth2-auth-code-flow), the client credentials flow (…/v2-oauth2-client-creds-grant-flow) and the ID token
 * claims reference (…/id-token-claims-reference, …/optional-claims-reference).
 */

const learn = (page: string) => `https://learn.microsoft.com/entra/identity-platform/${page}`;

const texts = z.array(z.string());
/** A secret as the stand-ins record it (REDACTED): its presence and place can be checked, not its value. */
const secret = z.string().min(1);

/**
 * The error answer of the token endpoint (and of the discovery document's): the parameters both flows' pages list,
 * `error` to `correlation_id`. The timestamp is written `YYYY-MM-DD HH:MM:SSZ`.
 */
export const oauthError = documented({
  error: z.string().min(1),
  error_description: z.string(),
  error_codes: z.array(z.int()),
  timestamp: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/, "not 'YYYY-MM-DD HH:MM:SSZ'"),
  trace_id: guid,
  correlation_id: guid,
  error_uri: z.string().optional(),
  suberror: z.string().optional(),
  claims: z.string().optional(),
});

const errors: AnswerSpec = { content: 'json', body: oauthError };

/**
 * Every claim a v2.0 ID token may carry: the ID token claims reference's (less `unique_name`, v1.0 only) and the
 * optional claims reference's. `department`, `jobTitle` and `officeLocation` are none of them: an ID token never
 * carries them (Graph's user has them).
 */
export const ID_TOKEN_CLAIMS = [
  'aud',
  'iss',
  'iat',
  'idp',
  'nbf',
  'exp',
  'c_hash',
  'at_hash',
  'aio',
  'preferred_username',
  'email',
  'name',
  'nonce',
  'oid',
  'roles',
  'rh',
  'sub',
  'tid',
  'sid',
  'uti',
  'ver',
  'hasgroups',
  'groups',
  '_claim_names',
  '_claim_sources',
  // Optional claims (v1.0 and v2.0).
  'acct',
  'acrs',
  'auth_time',
  'ctry',
  'fwd',
  'idtyp',
  'login_hint',
  'tenant_ctry',
  'tenant_region_scope',
  'upn',
  'verified_primary_email',
  'verified_secondary_email',
  'vnet',
  'xms_cc',
  'xms_edov',
  'xms_pdl',
  'xms_pl',
  'xms_tpl',
  'ztdid',
  // Optional claims of v2.0 tokens.
  'ipaddr',
  'onprem_sid',
  'pwd_exp',
  'pwd_url',
  'in_corp',
  'family_name',
  'given_name',
] as const;

/** Claims an application adds from extension attributes or directory extensions (optional claims reference). */
const EXTENSION_CLAIM = /^(extn\.|extension_)/;

/** A v2.0 ID token's claims: the documented ones only (an application's extension claims aside). */
export const idTokenClaims = z
  .looseObject({
    aud: z.string().min(1),
    iss: z.url().refine((iss) => iss.endsWith('/v2.0'), 'a v2.0 issuer ends in /v2.0'),
    iat: z.int(),
    nbf: z.int(),
    exp: z.int(),
    sub: z.string().min(1),
    tid: guid,
    ver: z.literal('2.0'),
    oid: guid.optional(),
    name: z.string().optional(),
    preferred_username: z.string().optional(),
    email: z.string().optional(),
    nonce: z.string().optional(),
    roles: texts.optional(),
    uti: z.string().optional(),
    hasgroups: z.literal(true).optional(),
  })
  .superRefine((claims, ctx) => {
    const known = new Set<string>(ID_TOKEN_CLAIMS);
    for (const name of Object.keys(claims)) {
      if (!known.has(name) && !EXTENSION_CLAIM.test(name)) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'not a claim of Microsoft’s v2.0 ID tokens' });
      }
    }
  }, always);

/**
 * What Entra's own discovery documents list in `claims_supported` beyond the ID token's claims
 * (https://login.microsoftonline.com/common/v2.0/.well-known/openid-configuration, which the OpenID Connect page
 * points to).
 */
const DISCOVERY_CLAIMS = [
  'acr',
  'cloud_instance_name',
  'cloud_instance_host_name',
  'cloud_graph_host_name',
  'msgraph_host',
];

/**
 * The OpenID configuration document: the metadata OpenID Connect Discovery 1.0 §3 requires, and what Entra adds.
 * Its `claims_supported` names only claims Entra issues.
 */
export const openIdConfiguration = documented({
  issuer: z.url().refine((issuer) => issuer.endsWith('/v2.0'), 'the v2.0 issuer ends in /v2.0'),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  response_types_supported: texts,
  subject_types_supported: texts,
  id_token_signing_alg_values_supported: texts,
  response_modes_supported: texts.optional(),
  scopes_supported: texts.optional(),
  claims_supported: z
    .array(
      z
        .string()
        .refine(
          (claim) => (ID_TOKEN_CLAIMS as readonly string[]).includes(claim) || DISCOVERY_CLAIMS.includes(claim),
          'not a claim Entra issues',
        ),
    )
    .optional(),
  token_endpoint_auth_methods_supported: texts.optional(),
  end_session_endpoint: z.url().optional(),
  userinfo_endpoint: z.url().optional(),
  device_authorization_endpoint: z.url().optional(),
  kerberos_endpoint: z.url().optional(),
  request_uri_parameter_supported: z.boolean().optional(),
  http_logout_supported: z.boolean().optional(),
  frontchannel_logout_supported: z.boolean().optional(),
  tenant_region_scope: z.string().nullable().optional(),
  cloud_instance_name: z.string().optional(),
  cloud_graph_host_name: z.string().optional(),
  msgraph_host: z.string().optional(),
  rbac_url: z.string().optional(),
});

/** The key set at `jwks_uri` (RFC 7517), as Entra publishes its signing keys. */
export const jwks = documented({
  keys: z.array(
    documented({
      kty: z.string().min(1),
      use: z.string().optional(),
      kid: z.string().min(1),
      x5t: z.string().optional(),
      n: z.string().optional(),
      e: z.string().optional(),
      x5c: texts.optional(),
      alg: z.string().optional(),
      issuer: z.string().optional(),
    }),
  ),
});

/** The successful token answer of both flows; `ext_expires_in` is Entra's extended lifetime, in seconds too. */
export const tokenAnswer = documented({
  access_token: secret,
  token_type: z.string().regex(/^bearer$/i, "only 'Bearer'"),
  expires_in: z.int().min(0),
  ext_expires_in: z.int().min(0).optional(),
  scope: z.string().optional(),
  refresh_token: secret.optional(),
  id_token: secret.optional(),
});

const form = (exchange: Exchange): Record<string, unknown> =>
  typeof exchange.request.body === 'object' && exchange.request.body !== null
    ? (exchange.request.body as Record<string, unknown>)
    : {};

/**
 * A confidential client authenticates once: a client_secret in the body, the same in an Authorization: Basic
 * header (RFC 6749 §2.3.1, which both pages allow), or a client assertion; and names itself with client_id.
 */
function clientAuthentication(exchange: Exchange): Finding[] {
  const body = form(exchange);
  const basic = /^Basic /i.test(exchange.request.headers.authorization ?? '');
  const ways = [body.client_secret !== undefined, basic, body.client_assertion !== undefined].filter(Boolean).length;
  const findings: Finding[] = [];
  if (ways !== 1) {
    findings.push({
      at: 'body.client_secret',
      message: 'a confidential client authenticates in exactly one way (client_secret, Basic or client_assertion)',
    });
  }
  if (body.client_id === undefined && !basic) findings.push({ at: 'body.client_id', message: 'required' });
  return findings;
}

/** The ID token's claims (the recorder decodes them), against the claims reference. */
function idTokenChecks(exchange: Exchange): Finding[] {
  const body = exchange.answer.body as { id_token?: unknown } | undefined;
  if (body?.id_token === undefined) return [];
  if (!exchange.answer.idTokenClaims) return [{ at: 'body.id_token', message: 'not a readable JWT' }];
  return findingsOf(idTokenClaims, exchange.answer.idTokenClaims, 'id_token');
}

/** A redirect back to the application: to its redirect_uri, with code or error, and the state it sent. */
function redirectBack(exchange: Exchange): Finding[] {
  const { query } = queryOf(exchange.url);
  const location = exchange.answer.headers.location;
  if (!location || !URL.canParse(location)) return [{ at: 'header location', message: 'missing or not a URL' }];
  const target = new URL(location);
  const findings: Finding[] = [];
  if (query.redirect_uri && `${target.origin}${target.pathname}` !== query.redirect_uri.split('?')[0]) {
    findings.push({ at: 'header location', message: 'not the redirect_uri the request gave' });
  }
  const params = target.searchParams;
  if (!params.has('code') && !params.has('error')) {
    findings.push({ at: 'header location', message: 'neither code nor error' });
  }
  if (query.state !== undefined && params.get('state') !== query.state) {
    findings.push({ at: 'header location.state', message: 'not the state the request sent' });
  }
  return findings;
}

const formBody = {
  client_id: guid.optional(),
  client_secret: secret.optional(),
  client_assertion_type: z.literal('urn:ietf:params:oauth:client-assertion-type:jwt-bearer').optional(),
  client_assertion: secret.optional(),
};
const grant = (type: string) => (exchange: Exchange) => form(exchange).grant_type === type;
const tokenPath = ['/{tenant}/oauth2/v2.0/token'];
const tenant = { tenant: z.string().min(1) };

export const ENTRA_OPERATIONS: Operation[] = [
  {
    service: 'entra',
    id: 'OpenID configuration document',
    source: `${learn('v2-protocols-oidc')} (Fetch the OpenID configuration document); OpenID Connect Discovery 1.0 §3`,
    method: 'GET',
    paths: ['/{tenant}/v2.0/.well-known/openid-configuration'],
    pathParams: tenant,
    answers: { 200: { content: 'json', body: openIdConfiguration } },
    errors,
  },
  {
    service: 'entra',
    id: 'Signing keys (jwks_uri)',
    source: `${learn('signing-key-rollover')}; RFC 7517`,
    method: 'GET',
    paths: ['/{tenant}/discovery/v2.0/keys'],
    pathParams: tenant,
    answers: { 200: { content: 'json', body: jwks } },
    errors,
  },
  {
    service: 'entra',
    id: 'Request an authorization code',
    source: `${learn('v2-oauth2-auth-code-flow')} (Request an authorization code)`,
    method: 'GET',
    paths: ['/{tenant}/oauth2/v2.0/authorize'],
    pathParams: tenant,
    query: z
      .strictObject({
        // The Application (client) ID Entra assigned: a GUID.
        client_id: guid,
        response_type: z
          .string()
          .refine((type) => type.split(' ').includes('code'), "the code flow's response_type includes 'code'"),
        redirect_uri: z.url(),
        scope: z.string().min(1),
        response_mode: z.enum(['query', 'fragment', 'form_post']).optional(),
        state: z.string().optional(),
        nonce: z.string().optional(),
        prompt: z.enum(['login', 'none', 'consent', 'select_account']).optional(),
        login_hint: z.string().optional(),
        domain_hint: z.string().optional(),
        // RFC 7636: 43 to 128 characters; the code flow page recommends S256.
        code_challenge: z
          .string()
          .regex(/^[A-Za-z0-9._~-]{43,128}$/, 'not a PKCE code challenge')
          .optional(),
        code_challenge_method: z.enum(['S256', 'plain']).optional(),
      })
      .refine((query) => !(query.login_hint !== undefined && query.prompt === 'select_account'), {
        message: 'login_hint and prompt=select_account cannot be used together',
      }),
    answers: {
      // The sign-in page the person answers, and the redirect back with a code or an error.
      200: { content: 'html' },
      302: { content: 'none', check: redirectBack },
    },
    // A request Entra cannot send back to the application is answered with its own error page.
    errors: { content: 'html' },
  },
  {
    service: 'entra',
    id: 'Redeem a code for an access token',
    source: `${learn('v2-oauth2-auth-code-flow')} (Redeem a code for an access token)`,
    method: 'POST',
    paths: tokenPath,
    pathParams: tenant,
    when: grant('authorization_code'),
    body: {
      content: 'form',
      schema: z.strictObject({
        ...formBody,
        grant_type: z.literal('authorization_code'),
        scope: z.string().optional(),
        code: secret,
        redirect_uri: z.url(),
        // Needed when the code was asked for with PKCE, as the portal always does.
        code_verifier: secret,
      }),
    },
    check: clientAuthentication,
    answers: { 200: { content: 'json', body: tokenAnswer, check: idTokenChecks } },
    errors,
  },
  {
    service: 'entra',
    id: 'Get a token (client credentials)',
    source: `${learn('v2-oauth2-client-creds-grant-flow')} (Get a token)`,
    method: 'POST',
    paths: tokenPath,
    pathParams: tenant,
    when: grant('client_credentials'),
    body: {
      content: 'form',
      schema: z.strictObject({
        ...formBody,
        grant_type: z.literal('client_credentials'),
        // One resource's application ID URI with /.default.
        scope: z.string().regex(/^\S+\/\.default$/, "one resource's '{resource}/.default'"),
      }),
    },
    check: clientAuthentication,
    answers: { 200: { content: 'json', body: tokenAnswer } },
    errors,
  },
];
