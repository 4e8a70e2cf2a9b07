import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config/env.ts';

/**
 * Keeps secrets out of the log: session tokens in addresses (`/login?token=`), authorization and cookie
 * headers, the sign-in's code and state, client secrets and the JWT secret. Three layers, each enough for
 * what it covers:
 * 1. serializers: `req` logs the address with every sensitive query parameter's value replaced, and never
 *    the headers; `err` is pino's error shape with every string scrubbed and every secret-named field replaced;
 * 2. redact paths (REDACT_PATHS): headers and secret-named fields of anything else logged as an object;
 * 3. a last pass over each finished line (`hooks.streamWrite`): any JWT, `Bearer` credential, sensitive query
 *    parameter or known secret value left anywhere, messages included, is replaced.
 */

export const REDACTED = '[Redacted]';

/** Query parameters whose value is a credential or a step of a sign-in (compared in lower case). */
export const SENSITIVE_QUERY_PARAMS = [
  'token',
  'code',
  'state',
  'session_state',
  'id_token',
  'access_token',
  'refresh_token',
  'client_secret',
  'client_assertion',
  'code_verifier',
  'assertion',
  'password',
  'api_key',
  'apikey',
  'sig',
  'signature',
] as const;
const sensitiveQueryParams = new Set<string>(SENSITIVE_QUERY_PARAMS);

/**
 * Paths replaced with [Redacted] in any object logged, in pino's notation. Those that start with a name are
 * pino's `redact` paths; those that start with `*.` (the same one level down, under any key) are replaced by
 * redactNested, in pino's log and bindings formatters: pino would apply its wildcard redactor to every value of
 * every line (a request's id, route and status included), which costs a request line ten times its writing.
 * (pino applies the bindings formatter to the root logger's bindings only: a child logger's bindings get the
 * top-level paths alone. The portal makes no child loggers but Fastify's, bound to the request id.)
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'headers["proxy-authorization"]',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
  '*.headers["proxy-authorization"]',
  ...[
    'authorization',
    'cookie',
    'password',
    'secret',
    'token',
    'accessToken',
    'access_token',
    'idToken',
    'id_token',
    'refreshToken',
    'refresh_token',
    'embedToken',
    'clientSecret',
    'client_secret',
  ].flatMap((key) => [key, `*.${key}`]),
];

const PINO_REDACT_PATHS = REDACT_PATHS.filter((p) => !p.startsWith('*.'));
/** The `*.` paths as keys: `*.headers["set-cookie"]` → ['headers', 'set-cookie']. */
const NESTED_PATHS = REDACT_PATHS.filter((p) => p.startsWith('*.')).map((p) => p.slice(2).match(/[^.[\]"]+/g)!);
/** Keys whose serializer decides what is written of them (it runs after the formatters). */
const SERIALIZED_KEYS = new Set(['req', 'res', 'err']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const present = (object: Record<string, unknown>, key: string) =>
  Object.hasOwn(object, key) && object[key] !== undefined;

/** `value` with NESTED_PATHS replaced (a copy where one is found; `value` itself otherwise). */
function redactPathsIn(value: Record<string, unknown>): Record<string, unknown> {
  let out = value;
  for (const path of NESTED_PATHS) {
    const [first, second] = path as [string, string | undefined];
    if (second === undefined) {
      if (!present(out, first)) continue;
      if (out === value) out = { ...value };
      out[first] = REDACTED;
    } else {
      const inner = out[first];
      if (!isObject(inner) || !present(inner, second)) continue;
      if (out === value) out = { ...value };
      out[first] = { ...inner, [second]: REDACTED };
    }
  }
  return out;
}

/**
 * pino's `*.` redact paths, done here: each key's value that is an object gets its paths replaced. The logged object
 * is not changed (the copies are shallow, made only where something is replaced), and a line whose values are all
 * plain (most of them) costs one loop over its keys.
 */
export function redactNested(object: Record<string, unknown>): Record<string, unknown> {
  let out = object;
  for (const key in object) {
    if (!Object.hasOwn(object, key) || SERIALIZED_KEYS.has(key)) continue;
    const value = object[key];
    if (!isObject(value)) continue;
    const redacted = redactPathsIn(value);
    if (redacted === value) continue;
    if (out === object) out = { ...object };
    out[key] = redacted;
  }
  return out;
}

/** Field names whose value is never logged inside an error (any depth). `code`, `status`... stay. */
const SENSITIVE_KEY = /authorization|cookie|secret|passw(or)?d|credential|assertion|verifier|api[-_]?key|tokens?$/i;

const JWT = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\bbearer\s+[A-Za-z0-9._~+/=-]+/gi;
const BEARER_WORD = /bearer/i;
const QUERY_PARAM = new RegExp(`(^|[?&])(${SENSITIVE_QUERY_PARAMS.join('|')})=[^&#\\s"'<>\\\\]*`, 'gi');

/** Secrets shorter than this are not searched for in text (too likely to match innocent words). */
const MIN_SECRET_LENGTH = 8;
const MAX_DEPTH = 6;

export interface LogRedaction {
  /** Replaces tokens, bearer credentials, sensitive query parameters and the known secrets in a text. */
  scrubText: (text: string) => string;
  /** A request address with the value of each sensitive query parameter replaced, and JWTs in the path. */
  redactUrl: (url: string) => string;
  /** pino's `req` serializer: method, address (redacted), host, remote address and port; never headers. */
  serializeRequest: (request: unknown) => Record<string, unknown>;
  /** pino's `err` serializer (type, message and stack with causes, own fields), scrubbed. */
  serializeError: (error: unknown) => unknown;
}

/**
 * @param secrets values that must never appear in a line (the JWT secret, the Microsoft client secret, the
 *   database password...); empty and short ones are ignored.
 */
export function createLogRedaction(secrets: readonly (string | null | undefined)[] = []): LogRedaction {
  const known = [
    ...new Set(
      secrets
        .filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH)
        // As written, as in an address or a form body, and as inside a JSON string.
        .flatMap((s) => [s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)]),
    ),
  ].sort((a, b) => b.length - a.length);

  /**
   * Whether a text may hold anything scrubText replaces: every replacement needs one of these substrings (a JWT
   * starts with `eyJ`, a query parameter has `=`, a credential says `bearer`, a secret is itself), and most lines
   * (a request's) hold none, so they are returned as they are after a few scans instead of three regex passes.
   */
  const mayHoldSecret = (text: string): boolean => {
    if (text.includes('=') || text.includes('eyJ') || BEARER_WORD.test(text)) return true;
    for (const secret of known) if (text.includes(secret)) return true;
    return false;
  };

  const scrubText = (text: string): string => {
    if (!mayHoldSecret(text)) return text;
    let out = text;
    for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out
      .replace(BEARER, REDACTED)
      .replace(JWT, REDACTED)
      .replace(QUERY_PARAM, (_match, lead: string, name: string) => `${lead}${name}=${REDACTED}`);
  };

  const redactUrl = (url: string): string => {
    const q = url.indexOf('?');
    if (q < 0) return scrubText(url);
    const query = url
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const rawName = eq < 0 ? pair : pair.slice(0, eq);
        let name = rawName;
        try {
          name = decodeURIComponent(rawName.replace(/\+/g, ' '));
        } catch {
          // malformed escapes: compare the name as sent
        }
        name = name.trim().toLowerCase().replace(/\[\]$/, '');
        return eq >= 0 && sensitiveQueryParams.has(name) ? `${rawName}=${REDACTED}` : scrubText(pair);
      })
      .join('&');
    return `${scrubText(url.slice(0, q))}?${query}`;
  };

  const serializeRequest = (request: unknown): Record<string, unknown> => {
    const req = (request ?? {}) as {
      method?: string;
      url?: string;
      host?: string;
      ip?: string;
      headers?: Record<string, unknown>;
      socket?: { remoteAddress?: string; remotePort?: number };
      remoteAddress?: string;
      remotePort?: number;
    };
    return {
      method: req.method,
      url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
      version: req.headers?.['accept-version'],
      host: req.host ?? req.headers?.host,
      remoteAddress: req.ip ?? req.remoteAddress ?? req.socket?.remoteAddress,
      remotePort: req.socket?.remotePort ?? req.remotePort,
    };
  };

  const isErrorLike = (value: unknown): value is Error =>
    typeof value === 'object' && value !== null && typeof (value as Error).message === 'string';

  const causeOf = (error: Error): Error | undefined => (isErrorLike(error.cause) ? error.cause : undefined);

  /** Like pino-std-serializers: the messages and stacks of the causes joined to the error's own. */
  const chain = (error: Error, part: (e: Error) => string, separator: string): string => {
    const parts: string[] = [];
    const seen = new Set<Error>();
    for (let e: Error | undefined = error; e && !seen.has(e); e = causeOf(e)) {
      seen.add(e);
      parts.push(part(e));
    }
    return parts.join(separator);
  };

  const scrubValue = (value: unknown, seen: WeakSet<object>, depth: number): unknown => {
    if (typeof value === 'string') return scrubText(value);
    if (typeof value === 'bigint') return String(value);
    if (typeof value === 'function' || typeof value === 'symbol') return undefined;
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return '[Circular]';
    if (depth >= MAX_DEPTH) return '[...]';
    if (isErrorLike(value)) return errorObject(value, seen, depth);
    if (value instanceof URL || value instanceof URLSearchParams) return scrubText(value.toString());
    if (ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
    seen.add(value);
    if (Array.isArray(value)) return value.map((item) => scrubValue(item, seen, depth + 1));
    const entries =
      value instanceof Map || (typeof Headers !== 'undefined' && value instanceof Headers)
        ? [...(value as Map<unknown, unknown>).entries()].map(([k, v]) => [String(k), v] as const)
        : Object.entries(value);
    return scrubObject(entries, seen, depth);
  };

  const scrubObject = (
    entries: Iterable<readonly [string, unknown]>,
    seen: WeakSet<object>,
    depth: number,
  ): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, val] of entries) {
      out[key] =
        SENSITIVE_KEY.test(key) && val !== undefined && val !== null ? REDACTED : scrubValue(val, seen, depth + 1);
    }
    return out;
  };

  const errorObject = (error: Error, seen: WeakSet<object>, depth: number): Record<string, unknown> => {
    seen.add(error);
    const ctor = (error as { constructor?: { name?: string } }).constructor;
    const out: Record<string, unknown> = {
      type: typeof ctor === 'function' && ctor.name ? ctor.name : error.name,
      message: scrubText(chain(error, (e) => e.message, ': ')),
      stack: scrubText(chain(error, (e) => e.stack ?? '', '\ncaused by: ')),
    };
    const errors = (error as { errors?: unknown }).errors;
    if (Array.isArray(errors)) out.aggregateErrors = errors.map((e) => scrubValue(e, seen, depth + 1));
    const own: [string, unknown][] = [];
    for (const key in error) {
      if (key in out || (key === 'cause' && isErrorLike(error.cause))) continue;
      own.push([key, (error as unknown as Record<string, unknown>)[key]]);
    }
    return Object.assign(out, scrubObject(own, seen, depth));
  };

  const serializeError = (error: unknown): unknown => scrubValue(error, new WeakSet(), 0);

  return { scrubText, redactUrl, serializeRequest, serializeError };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The configured secrets no log line may contain. */
export function logSecrets(config: Config): string[] {
  const secrets = [config.jwt.secret];
  if (config.microsoft) secrets.push(config.microsoft.clientSecret);
  if (config.bootstrapAdmin) secrets.push(config.bootstrapAdmin.password);
  // Database and SMTP credentials travel in their URLs.
  const urls = [config.database.kind === 'postgres' ? config.database.url : null];
  if (config.mail?.kind === 'smtp') urls.push(config.mail.url);
  for (const url of urls) {
    if (!url || !URL.canParse(url)) continue;
    const { password } = new URL(url);
    if (password) secrets.push(password, safeDecode(password));
  }
  return secrets;
}

/**
 * Fastify's logger options with every layer of redaction, for the given level. `overrides` (tests: a stream,
 * another level) are merged in, and cannot turn the redaction off.
 */
export function redactingLoggerOptions(
  level: string,
  secrets: readonly (string | null | undefined)[],
  overrides: Record<string, unknown> = {},
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  const redaction = createLogRedaction(secrets);
  return {
    level,
    ...overrides,
    redact: { paths: PINO_REDACT_PATHS, censor: REDACTED },
    formatters: { log: redactNested, bindings: redactNested },
    serializers: {
      req: redaction.serializeRequest,
      err: redaction.serializeError as (error: unknown) => { type: string; message: string; stack: string },
    },
    hooks: { streamWrite: redaction.scrubText },
  };
}
