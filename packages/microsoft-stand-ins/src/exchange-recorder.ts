import type { FastifyReply, FastifyRequest } from 'fastify';
import { REDACTED, type MicrosoftApi } from '@paineis/microsoft-api/exchange';
import type { StandInExchange } from './types.ts';

/*
 * Records every call to the stand-ins' Microsoft APIs, request and answer, for the contract tests to check against
 * Microsoft's descriptions (docs/decisions/016-microsoft-contract-tests.md). Secrets never enter a record: client
 * secrets, codes, code verifiers and tokens are replaced by REDACTED, an Authorization header keeps only its
 * scheme, and of an ID token only its claims are kept.
 */

const REQUEST_HEADERS = ['authorization', 'content-type', 'accept', 'consistencylevel', 'client-request-id'];
const ANSWER_HEADERS = [
  'content-type',
  'retry-after',
  'requestid',
  'request-id',
  'x-ms-request-id',
  'client-request-id',
  'location',
];
/** Token endpoint form fields that are credentials or grants. */
const FORM_SECRETS = new Set([
  'client_secret',
  'client_assertion',
  'code',
  'code_verifier',
  'refresh_token',
  'password',
]);
/** Answer fields that are tokens: Entra's, and Power BI's embed token. */
const ANSWER_SECRETS: Record<MicrosoftApi, Set<string>> = {
  entra: new Set(['access_token', 'id_token', 'refresh_token']),
  graph: new Set(),
  'power-bi': new Set(['token']),
  arm: new Set(),
};
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;

/**
 * The Microsoft API a request is a call of, by its path; null for what only a browser sees of the stand-ins and no
 * API describes: the sign-in page's form (POST …/authorize) and the embed host page (/reportEmbed).
 */
export function apiOf(method: string, url: string): MicrosoftApi | null {
  const path = url.split('?')[0] ?? url;
  if (path === '/reportEmbed' || path.startsWith('/reportEmbed/')) return null;
  if (method === 'POST' && /^\/[^/]+\/oauth2\/v2\.0\/authorize$/.test(path)) return null;
  if (path === '/v1.0/myorg' || path.startsWith('/v1.0/myorg/')) return 'power-bi';
  if (path.startsWith('/subscriptions/')) return 'arm';
  if (/^\/(v1\.0|beta)(\/|$)/.test(path)) return 'graph';
  return 'entra';
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function withoutSecrets(value: unknown, secrets: ReadonlySet<string>): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [name, secrets.has(name) && field !== undefined ? REDACTED : field]),
  );
}

/** A JWT's claims (its payload), or undefined when it is not one. */
function claimsOf(token: unknown): Record<string, unknown> | undefined {
  if (typeof token !== 'string') return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return isRecord(claims) ? claims : undefined;
  } catch {
    return undefined;
  }
}

function headersOf(names: string[], read: (name: string) => unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = read(name);
    if (typeof value === 'string' || typeof value === 'number') headers[name] = String(value);
    else if (Array.isArray(value)) headers[name] = value.join(', ');
  }
  return headers;
}

/** A redirect's address without the authorization code it may carry. */
function withoutCode(location: string): string {
  if (!URL.canParse(location)) return location;
  const url = new URL(location);
  if (!url.searchParams.has('code')) return location;
  url.searchParams.set('code', REDACTED);
  return url.href;
}

/** The exchange of a request and the answer about to be sent (an onSend hook's view); null for a stand-in page. */
export function exchangeOf(request: FastifyRequest, reply: FastifyReply, payload: unknown): StandInExchange | null {
  const service = apiOf(request.method, request.url);
  if (!service) return null;

  const requestHeaders = headersOf(REQUEST_HEADERS, (name) => request.headers[name]);
  if (requestHeaders.authorization !== undefined) {
    requestHeaders.authorization = `${requestHeaders.authorization.split(' ')[0]} ${REDACTED}`;
  }
  const answerHeaders = headersOf(ANSWER_HEADERS, (name) => reply.getHeader(name));
  if (answerHeaders.location !== undefined) answerHeaders.location = withoutCode(answerHeaders.location);

  const raw = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : undefined;
  let body: unknown;
  if (raw !== undefined && JSON_TYPE.test(answerHeaders['content-type'] ?? '')) {
    try {
      body = JSON.parse(raw.toString()) as unknown;
    } catch {
      body = undefined;
    }
  }
  const idTokenClaims = service === 'entra' && isRecord(body) ? claimsOf(body.id_token) : undefined;

  return {
    service,
    method: request.method,
    url: request.url,
    request: {
      headers: requestHeaders,
      ...(request.body === undefined
        ? {}
        : { body: service === 'entra' ? withoutSecrets(request.body, FORM_SECRETS) : request.body }),
    },
    answer: {
      status: reply.statusCode,
      headers: answerHeaders,
      ...(body === undefined ? {} : { body: withoutSecrets(body, ANSWER_SECRETS[service]) }),
      bytes: raw === undefined ? 0 : Buffer.byteLength(raw),
      ...(idTokenClaims ? { idTokenClaims } : {}),
    },
  };
}
