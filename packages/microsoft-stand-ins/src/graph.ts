import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GRAPH_APP_ID, GRAPH_RESOURCE, type StandInContext } from './stand-in-context.ts';
import type { StandIns, StandInPerson } from './types.ts';

/** The user properties the stand-in stores. */
const STORED = [
  'id',
  'displayName',
  'mail',
  'userPrincipalName',
  'department',
  'jobTitle',
  'officeLocation',
  'accountEnabled',
] as const;
/** Real user properties the stand-in does not store; Graph answers null for them when a user has none. */
const NOT_STORED = [
  'businessPhones',
  'givenName',
  'surname',
  'mobilePhone',
  'preferredLanguage',
  'employeeId',
  'companyName',
  'usageLocation',
  'userType',
] as const;
/** What Graph v1.0 returns without $select: department and accountEnabled are not among them. */
const DEFAULT_SELECT = [
  'businessPhones',
  'displayName',
  'givenName',
  'jobTitle',
  'mail',
  'mobilePhone',
  'officeLocation',
  'preferredLanguage',
  'surname',
  'userPrincipalName',
  'id',
];
const PROPERTY_BY_LOWER_NAME = new Map<string, string>(
  [...STORED, ...NOT_STORED].map((name) => [name.toLowerCase(), name]),
);
const SUPPORTED_OPTIONS = new Set(['$select', '$filter', '$top', '$skiptoken']);
const DEFAULT_TOP = 100;
const MAX_TOP = 999;
/** Delegated or application permissions that let a caller list users. */
const READ_USERS = ['User.Read.All', 'User.ReadBasic.All', 'Directory.Read.All', 'Directory.ReadWrite.All'];

type QueuedFailure =
  | { kind: 'throttle'; retryAfterSeconds: number }
  | { kind: 'fail'; status: number }
  /** Served normally: lets a failure start part-way through a paged read. */
  | { kind: 'pass' };

interface GraphError {
  status: number;
  code: string;
  message: string;
}

interface UsersQuery {
  select: string[] | null;
  selectText: string | undefined;
  filterText: string | undefined;
  enabledOnly: boolean;
  top: number;
  topText: string | undefined;
  offset: number;
}

function errorCodeFor(status: number): string {
  const codes: Record<number, string> = {
    400: 'BadRequest',
    401: 'InvalidAuthenticationToken',
    403: 'Authorization_RequestDenied',
    404: 'Request_ResourceNotFound',
    429: 'TooManyRequests',
    500: 'InternalServerError',
    502: 'BadGateway',
    503: 'ServiceUnavailable',
    504: 'GatewayTimeout',
  };
  return codes[status] ?? 'UnknownError';
}

function encodeSkipToken(offset: number, enabledOnly: boolean): string {
  return Buffer.from(JSON.stringify({ o: offset, e: enabledOnly })).toString('base64url');
}

function decodeSkipToken(token: string, enabledOnly: boolean): number | null {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown; e?: unknown };
    const offset = parsed.o;
    return typeof offset === 'number' && Number.isInteger(offset) && offset >= 0 && parsed.e === enabledOnly
      ? offset
      : null;
  } catch {
    return null;
  }
}

function parseUsersQuery(search: URLSearchParams): UsersQuery | GraphError {
  const bad = (code: string, message: string): GraphError => ({ status: 400, code, message });
  for (const name of new Set(search.keys())) {
    if (!name.startsWith('$')) continue;
    if (!SUPPORTED_OPTIONS.has(name))
      return bad('Request_UnsupportedQuery', `Query option '${name}' is not supported.`);
    if (search.getAll(name).length > 1)
      return bad('BadRequest', `Query option '${name}' was specified more than once.`);
  }

  const selectText = search.get('$select') ?? undefined;
  let select: string[] | null = null;
  if (selectText !== undefined) {
    select = [];
    for (const raw of selectText.split(',')) {
      const name = raw.trim();
      if (!name) continue;
      const property = PROPERTY_BY_LOWER_NAME.get(name.toLowerCase());
      if (!property) {
        return bad(
          'BadRequest',
          `Parsing OData Select and Expand failed: Could not find a property named '${name}' on type 'microsoft.graph.user'.`,
        );
      }
      if (!select.includes(property)) select.push(property);
    }
  }

  const filterText = search.get('$filter') ?? undefined;
  if (filterText !== undefined && !/^\s*accountEnabled\s+eq\s+true\s*$/i.test(filterText)) {
    return bad('Request_UnsupportedQuery', 'Unsupported Query.');
  }
  const enabledOnly = filterText !== undefined;

  const topText = search.get('$top') ?? undefined;
  const top = topText === undefined ? DEFAULT_TOP : Number(topText);
  if (!/^\d+$/.test(topText ?? '1') || top < 1 || top > MAX_TOP) {
    return bad(
      'Request_UnsupportedQuery',
      `Invalid page size specified: '${topText ?? ''}'. Must be between 1 and ${MAX_TOP} inclusive.`,
    );
  }

  const skipToken = search.get('$skiptoken') ?? undefined;
  const offset = skipToken === undefined ? 0 : decodeSkipToken(skipToken, enabledOnly);
  if (offset === null) return bad('Directory_ExpiredPageToken', 'The specified page token value has expired.');

  return { select, selectText, filterText, enabledOnly, top, topText, offset };
}

function userResource(person: StandInPerson, properties: string[]): Record<string, unknown> {
  const stored: Record<string, unknown> = {
    id: person.id,
    displayName: person.displayName,
    mail: person.mail,
    userPrincipalName: person.userPrincipalName,
    department: person.department ?? null,
    jobTitle: person.jobTitle ?? null,
    officeLocation: person.officeLocation ?? null,
    accountEnabled: person.accountEnabled ?? true,
    businessPhones: [],
  };
  return Object.fromEntries(properties.map((name) => [name, name in stored ? stored[name] : null]));
}

/** OData query values as Graph writes them in nextLink: percent-encoded, commas kept. */
function odataValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/gi, ',');
}

export function registerGraph(app: FastifyInstance, ctx: StandInContext): StandIns['graph'] {
  const queue: QueuedFailure[] = [];
  const requests: StandIns['graph']['requests'] = [];

  async function authorize(header: string | undefined): Promise<GraphError | null> {
    const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
    if (!token) return { status: 401, code: 'InvalidAuthenticationToken', message: 'Access token is empty.' };
    const claims = await ctx.keys.verify(token, ctx.issuer, [GRAPH_RESOURCE, GRAPH_APP_ID]);
    if (!claims) {
      return { status: 401, code: 'InvalidAuthenticationToken', message: 'Access token validation failure.' };
    }
    const roles: unknown[] = Array.isArray(claims.roles) ? (claims.roles as unknown[]) : [];
    const scopes = typeof claims.scp === 'string' ? claims.scp.split(' ') : [];
    if (![...roles, ...scopes].some((permission) => READ_USERS.includes(String(permission)))) {
      return {
        status: 403,
        code: 'Authorization_RequestDenied',
        message: 'Insufficient privileges to complete the operation.',
      };
    }
    return null;
  }

  app.get('/v1.0/users', async (request, reply) => {
    const url = `${ctx.authorityHost}${request.url}`;
    const requestId = randomUUID();
    const clientRequestId = request.headers['client-request-id'];
    reply.headers({
      'request-id': requestId,
      'client-request-id': typeof clientRequestId === 'string' ? clientRequestId : requestId,
      'content-type':
        'application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8',
      'cache-control': 'no-cache',
    });

    const denied = await authorize(request.headers.authorization);
    const authorized = denied === null || denied.status === 403;
    const send = (status: number, body: unknown): FastifyReply => {
      requests.push({ url, status, authorized });
      return reply.code(status).send(body);
    };
    const sendError = ({ status, code, message }: GraphError): FastifyReply =>
      send(status, {
        error: {
          code,
          message,
          innerError: {
            date: new Date().toISOString().slice(0, 19),
            'request-id': requestId,
            'client-request-id': typeof clientRequestId === 'string' ? clientRequestId : requestId,
          },
        },
      });

    if (denied) return sendError(denied);

    // Only callers Graph would have served see the queued failures, so a misconfigured client cannot use them up.
    const failure = queue.shift();
    if (failure?.kind === 'throttle') {
      reply.header('retry-after', String(failure.retryAfterSeconds));
      return sendError({
        status: 429,
        code: 'TooManyRequests',
        message: 'Too many requests are being sent. Wait before retrying (simulated throttling).',
      });
    }
    if (failure?.kind === 'fail') {
      return sendError({
        status: failure.status,
        code: errorCodeFor(failure.status),
        message: `The service answered ${failure.status} (simulated failure).`,
      });
    }

    const query = parseUsersQuery(new URL(request.url, ctx.authorityHost).searchParams);
    if ('code' in query) return sendError(query);

    const matching = query.enabledOnly ? ctx.people.filter((person) => person.accountEnabled !== false) : ctx.people;
    const properties = query.select ? ['id', ...query.select.filter((name) => name !== 'id')] : DEFAULT_SELECT;
    const page = matching.slice(query.offset, query.offset + query.top);
    const nextOffset = query.offset + page.length;

    const body: Record<string, unknown> = {
      '@odata.context': `${ctx.authorityHost}/v1.0/$metadata#users${query.select ? `(${properties.join(',')})` : ''}`,
    };
    if (nextOffset < matching.length) {
      const params = [
        ...(query.selectText !== undefined ? [`$select=${odataValue(query.selectText)}`] : []),
        ...(query.filterText !== undefined ? [`$filter=${odataValue(query.filterText)}`] : []),
        ...(query.topText !== undefined ? [`$top=${query.topText}`] : []),
        `$skiptoken=${encodeSkipToken(nextOffset, query.enabledOnly)}`,
      ];
      body['@odata.nextLink'] = `${ctx.authorityHost}/v1.0/users?${params.join('&')}`;
    }
    body.value = page.map((person) => userResource(person, properties));
    return send(200, body);
  });

  return {
    reset() {
      queue.length = 0;
      requests.length = 0;
    },
    setPeople(people) {
      ctx.people = [...people];
    },
    throttleNext(retryAfterSeconds, times = 1, afterRequests = 0) {
      if (!Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 0) {
        throw new RangeError('retryAfterSeconds must be a whole number of seconds, 0 or more');
      }
      for (let i = 0; i < afterRequests; i++) queue.push({ kind: 'pass' });
      for (let i = 0; i < times; i++) queue.push({ kind: 'throttle', retryAfterSeconds });
    },
    failNext(status, times = 1, afterRequests = 0) {
      if (!Number.isInteger(status) || status < 400 || status > 599) {
        throw new RangeError('status must be an HTTP error status (400–599)');
      }
      for (let i = 0; i < afterRequests; i++) queue.push({ kind: 'pass' });
      for (let i = 0; i < times; i++) queue.push({ kind: 'fail', status });
    },
    requests,
  };
}
