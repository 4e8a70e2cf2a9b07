import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { JWTPayload } from 'jose';
import { USER_DEFAULT_PROPERTIES } from '@paineis/microsoft-api/graph-user-defaults';
import { simulatedFailure } from './error-codes.ts';
import { FaultQueue, sendGarbage } from './faults.ts';
import { MailOutbox, MailRefusal, MAX_BODY_BYTES, type MailLimits } from './graph-mail.ts';
import {
  GROUP_DEFAULT_PROPERTIES,
  GROUP_PROPERTIES,
  DirectoryError,
  GroupDirectory,
  groupValues,
  memberObjects,
} from './graph-groups.ts';
import {
  applicationAppRoles,
  appRoleId,
  GRAPH_APP_ID,
  GRAPH_RESOURCE,
  servicePrincipalId,
  type StandInContext,
} from './stand-in-context.ts';
import type { StandIns, StandInPerson } from './types.ts';

/** The user properties the stand-in stores. */
const STORED = [
  'id',
  'displayName',
  'mail',
  'userPrincipalName',
  'userType',
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
] as const;
const USER_PROPERTIES = [...STORED, ...NOT_STORED];
/** What $select may name on a list of directory objects (users and groups): a property of either type. */
const MEMBER_PROPERTIES = [...new Set([...USER_PROPERTIES, ...GROUP_PROPERTIES])];
/** The servicePrincipal properties the stand-in serves (all of them without $select). */
const SERVICE_PRINCIPAL_PROPERTIES = [
  'id',
  'deletedDateTime',
  'accountEnabled',
  'alternativeNames',
  'appDisplayName',
  'appDescription',
  'appId',
  'appOwnerOrganizationId',
  'appRoleAssignmentRequired',
  'appRoles',
  'description',
  'displayName',
  'homepage',
  'notes',
  'oauth2PermissionScopes',
  'replyUrls',
  'servicePrincipalNames',
  'servicePrincipalType',
  'signInAudience',
  'tags',
];
const APP_ROLE_ASSIGNMENT_PROPERTIES = [
  'id',
  'deletedDateTime',
  'appRoleId',
  'createdDateTime',
  'principalDisplayName',
  'principalId',
  'principalType',
  'resourceDisplayName',
  'resourceId',
];
/** When the stand-in's app role assignments were made (fixed, like their ids). */
const ASSIGNED_AT = '2024-01-02T12:00:00Z';

const LIST_OPTIONS = new Set(['$select', '$top', '$skiptoken', '$count']);
const USERS_OPTIONS = new Set([...LIST_OPTIONS, '$filter']);
const ENTITY_OPTIONS = new Set(['$select']);
/**
 * What /groups/delta takes. Not $top: "For the user and group resources, there are restrictions on using some query
 * parameters: … `$top` is not supported" (learn.microsoft.com/graph/delta-query-overview, "Optional query
 * parameters"; group: delta lists only $select, $filter by id and the state tokens). Graph itself has been seen to
 * ignore it silently (Microsoft's answer in microsoftgraph/microsoft-graph-docs#17516; Q&A 1090464): the stand-in
 * refuses it (400 Request_UnsupportedQuery, as for any option it does not take) so that a client relying on a page
 * size Graph does not honour is caught in the tests, instead of working here and not there.
 */
const DELTA_OPTIONS = new Set(['$select', '$deltatoken', '$skiptoken']);
const DEFAULT_TOP = 100;
const MAX_TOP = 999;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/*
 * Delegated (scp) or application (roles) permissions that let a caller make each request, from the permission
 * tables of Graph v1.0's reference ("least privileged" and "higher privileged" together).
 */
/** GET /users. */
const READ_USERS = [
  'User.Read.All',
  'User.ReadWrite.All',
  'User.ReadBasic.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
];
/** GET /servicePrincipals/{id}; an application may also read its own service principal without any. */
const READ_SERVICE_PRINCIPAL = [
  'Application.Read.All',
  'Application.ReadWrite.All',
  'Application.ReadWrite.OwnedBy',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
];
/** GET /servicePrincipals/{id}/appRoleAssignedTo. */
const READ_APP_ROLE_ASSIGNED_TO = READ_SERVICE_PRINCIPAL;
/** GET /groups/{id}/members and /groups/{id}/transitiveMembers. */
const READ_GROUP_MEMBERS = [
  'GroupMember.Read.All',
  'GroupMember.ReadWrite.All',
  'Group.Read.All',
  'Group.ReadWrite.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
];

/** GET /groups, /groups/{id} and /groups/delta (the permission tables of List groups, Get group and group: delta). */
const READ_GROUPS = [
  'GroupMember.Read.All',
  'Group.Read.All',
  'Group.ReadWrite.All',
  'Directory.Read.All',
  'Directory.ReadWrite.All',
];

/** An answer in Graph's error shape. */
class GraphError {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly headers: Record<string, string> = {},
  ) {}

  static of({ status, code, message, headers }: DirectoryError): GraphError {
    return new GraphError(status, code, message, headers);
  }
}

type Body = Record<string, unknown>;
/** A request Graph accepted to do later (sendMail): 202, with no body. */
const ACCEPTED = Symbol('accepted');
type Answer = Body | typeof ACCEPTED | GraphError;
/** What an error answer is made of (a GraphError, or a simulated failure). */
type ErrorAnswer = Pick<GraphError, 'status' | 'code' | 'message'> & { headers?: Record<string, string> };

/** Who is calling, from a valid stand-in access token for Graph. */
interface Caller {
  claims: JWTPayload;
  /** Delegated scopes (scp) and application permissions (roles) together. */
  permissions: ReadonlySet<string>;
}

/** One Graph request the stand-in serves. */
interface Route {
  /** Whether the caller's permissions allow the request (Graph answers 403 `denied` otherwise). */
  permitted(caller: Caller): boolean;
  /** The 403 without the permission: Authorization_RequestDenied unless the request's service says otherwise. */
  denied?: GraphError;
  /** The 200 body, ACCEPTED for a 202 without one, or the error Graph would answer (sendMail's takes its time). */
  respond(caller: Caller, search: URLSearchParams): Answer | Promise<Answer>;
  /** Whether it answers a collection (a page with `value`) rather than one entity: garbage looks like one or the other. */
  collection: boolean;
}

/** A 200 of the wrong shape: a page of mistyped items (and no more pages); an entity of mistyped fields. */
function wrongShape(authorityHost: string, collection: boolean): Body {
  return collection
    ? {
        '@odata.context': `${authorityHost}/v1.0/$metadata#users`,
        value: [{ id: 7, displayName: ['Ana'], mail: {}, accountEnabled: 'sim' }, null, 'x'],
      }
    : { '@odata.context': `${authorityHost}/v1.0/$metadata#servicePrincipals/$entity`, id: null, appRoles: 'Admin' };
}

/** A plausible whole answer, for the faults that send only part of one. */
function sample(authorityHost: string, collection: boolean): string {
  const user = (i: number) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    displayName: `Pessoa ${i}`,
    mail: `pessoa${i}@empresa.com.br`,
    userPrincipalName: `pessoa${i}@empresa.com.br`,
    department: null,
    accountEnabled: true,
  });
  return JSON.stringify(
    collection
      ? {
          '@odata.context': `${authorityHost}/v1.0/$metadata#users`,
          value: Array.from({ length: 20 }, (_, i) => user(i)),
        }
      : {
          '@odata.context': `${authorityHost}/v1.0/$metadata#servicePrincipals/$entity`,
          id: randomUUID(),
          appRoles: [],
        },
  );
}

const badRequest = (code: string, message: string) => new GraphError(400, code, message);
const notFound = (id: string) =>
  new GraphError(
    404,
    'Request_ResourceNotFound',
    `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`,
  );
const invalidId = (id: string) => badRequest('Request_BadRequest', `Invalid object identifier '${id}'.`);
const noSegment = (segment: string) => badRequest('BadRequest', `Resource not found for the segment '${segment}'.`);
/** Requests Graph serves but the stand-in does not (listing every service principal, members of any type…). */
const notServed = () =>
  badRequest('Request_UnsupportedQuery', 'The Microsoft Graph stand-in does not serve this request.');

function hasAny(caller: Caller, permissions: readonly string[]): boolean {
  return permissions.some((permission) => caller.permissions.has(permission));
}

function sameId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Query options must be known to the request and given once each. */
function checkOptions(search: URLSearchParams, supported: ReadonlySet<string>): GraphError | null {
  for (const name of new Set(search.keys())) {
    if (!name.startsWith('$')) continue;
    if (!supported.has(name)) return badRequest('Request_UnsupportedQuery', `Query option '${name}' is not supported.`);
    if (search.getAll(name).length > 1) {
      return badRequest('BadRequest', `Query option '${name}' was specified more than once.`);
    }
  }
  return null;
}

/** The properties named in $select (spelled as the type spells them), or null without $select. */
function parseSelect(
  search: URLSearchParams,
  properties: readonly string[],
  type: string,
): string[] | null | GraphError {
  const text = search.get('$select');
  if (text === null) return null;
  const byLowerName = new Map(properties.map((name) => [name.toLowerCase(), name]));
  const selected: string[] = [];
  for (const raw of text.split(',')) {
    const name = raw.trim();
    if (!name) continue;
    const property = byLowerName.get(name.toLowerCase());
    if (!property) {
      return badRequest(
        'BadRequest',
        `Parsing OData Select and Expand failed: Could not find a property named '${name}' on type '${type}'.`,
      );
    }
    if (!selected.includes(property)) selected.push(property);
  }
  return selected;
}

/** The properties a response carries: the selected ones, id always first among them, or the type's defaults. */
function propertiesFor(select: string[] | null, defaults: readonly string[]): string[] {
  return select ? ['id', ...select.filter((name) => name !== 'id')] : [...defaults];
}

function pick(resource: Body, properties: string[]): Body {
  return Object.fromEntries(properties.map((name) => [name, name in resource ? resource[name] : null]));
}

function encodeSkipToken(offset: number, key: string): string {
  return Buffer.from(JSON.stringify({ o: offset, k: key })).toString('base64url');
}

/** The offset a $skiptoken stands for, when it was made for this very list. */
function decodeSkipToken(token: string, key: string): number | null {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown; k?: unknown };
    const offset = parsed.o;
    return typeof offset === 'number' && Number.isInteger(offset) && offset >= 0 && parsed.k === key ? offset : null;
  } catch {
    return null;
  }
}

/** OData query values as Graph writes them in nextLink: percent-encoded, commas kept. */
function odataValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/gi, ',');
}

function userResource(person: StandInPerson, properties: string[]): Body {
  return pick(
    {
      id: person.id,
      displayName: person.displayName,
      mail: person.mail,
      userPrincipalName: person.userPrincipalName,
      userType: person.userType ?? 'Member',
      department: person.department ?? null,
      jobTitle: person.jobTitle ?? null,
      officeLocation: person.officeLocation ?? null,
      accountEnabled: person.accountEnabled ?? true,
      businessPhones: [],
    },
    properties,
  );
}

/** A GUID's bytes in the order .NET's Guid.ToByteArray writes them (the first three groups little-endian). */
function guidBytes(guid: string): Buffer {
  if (!GUID.test(guid)) return createHash('sha256').update(guid).digest().subarray(0, 16);
  const bytes = Buffer.from(guid.replace(/-/g, ''), 'hex');
  return Buffer.concat([
    Buffer.from(bytes.subarray(0, 4)).reverse(),
    Buffer.from(bytes.subarray(4, 6)).reverse(),
    Buffer.from(bytes.subarray(6, 8)).reverse(),
    bytes.subarray(8),
  ]);
}

/** Graph's app role assignment ids: base64url of the principal's id bytes and 16 more (43 characters). */
function assignmentId(principalId: string, resourceId: string, roleId: string): string {
  const rest = createHash('sha256').update(`app-role-assignment|${resourceId}|${principalId}|${roleId}`).digest();
  return Buffer.concat([guidBytes(principalId), rest.subarray(0, 16)]).toString('base64url');
}

function servicePrincipalResource(ctx: StandInContext): Body {
  return {
    id: servicePrincipalId(ctx),
    deletedDateTime: null,
    accountEnabled: true,
    alternativeNames: [],
    appDisplayName: ctx.appDisplayName,
    appDescription: null,
    appId: ctx.clientId,
    appOwnerOrganizationId: ctx.tenantId,
    appRoleAssignmentRequired: false,
    appRoles: applicationAppRoles(ctx),
    description: null,
    displayName: ctx.appDisplayName,
    homepage: null,
    notes: null,
    oauth2PermissionScopes: [],
    replyUrls: [],
    servicePrincipalNames: [ctx.clientId],
    servicePrincipalType: 'Application',
    signInAudience: 'AzureADMyOrg',
    tags: ['WindowsAzureActiveDirectoryIntegratedApp'],
  };
}

/** The app role assignments to the portal's service principal: one per (person, role), then per (group, role). */
function appRoleAssignments(ctx: StandInContext): Body[] {
  const resourceId = servicePrincipalId(ctx);
  const principals = [
    ...ctx.people.map((person) => ({ ...person, type: 'User' })),
    ...ctx.groups.map((group) => ({ ...group, type: 'Group' })),
  ];
  return principals.flatMap((principal) =>
    [...new Set(principal.appRoles ?? [])].map((value) => {
      const roleId = appRoleId(ctx, value);
      return {
        id: assignmentId(principal.id, resourceId, roleId),
        deletedDateTime: null,
        appRoleId: roleId,
        createdDateTime: ASSIGNED_AT,
        principalDisplayName: principal.displayName,
        principalId: principal.id,
        principalType: principal.type,
        resourceDisplayName: ctx.appDisplayName,
        resourceId,
      };
    }),
  );
}

interface ListSpec<T> {
  search: URLSearchParams;
  /** The path as requested, for @odata.nextLink. */
  path: string;
  /** Names the list (and its filter): a $skiptoken is only good for the list that made it. */
  key: string;
  /** The items' OData type, for $select errors. */
  type: string;
  properties: readonly string[];
  defaultProperties: readonly string[];
  /** @odata.context without the selected properties, e.g. `…/$metadata#users`. */
  context: string;
  /** Whether the request said ConsistencyLevel: eventual, without which Graph ignores $count=true. */
  eventual: boolean;
  items: T[];
  resource(item: T, properties: string[]): Body;
}

/** One page of a collection, paged as Graph pages directory objects ($top, @odata.nextLink with $skiptoken). */
function listPage<T>(authorityHost: string, spec: ListSpec<T>): Body | GraphError {
  const { search } = spec;
  const select = parseSelect(search, spec.properties, spec.type);
  if (select instanceof GraphError) return select;

  const topText = search.get('$top') ?? undefined;
  const top = topText === undefined ? DEFAULT_TOP : Number(topText);
  if (!/^\d+$/.test(topText ?? '1') || top < 1 || top > MAX_TOP) {
    return badRequest(
      'Request_UnsupportedQuery',
      `Invalid page size specified: '${topText ?? ''}'. Must be between 1 and ${MAX_TOP} inclusive.`,
    );
  }

  const countText = search.get('$count');
  if (countText !== null && !/^(true|false)$/i.test(countText)) {
    return badRequest('BadRequest', `Invalid value '${countText}' for the $count query option.`);
  }

  const skipToken = search.get('$skiptoken');
  const offset = skipToken === null ? 0 : decodeSkipToken(skipToken, spec.key);
  if (offset === null) return badRequest('Directory_ExpiredPageToken', 'The specified page token value has expired.');

  const properties = propertiesFor(select, spec.defaultProperties);
  const page = spec.items.slice(offset, offset + top);
  const nextOffset = offset + page.length;
  const body: Body = { '@odata.context': `${spec.context}${select ? `(${properties.join(',')})` : ''}` };
  if (countText?.toLowerCase() === 'true' && spec.eventual) body['@odata.count'] = spec.items.length;
  if (nextOffset < spec.items.length) {
    const params = ['$select', '$filter', '$count', '$top']
      .filter((name) => search.has(name))
      .map((name) => `${name}=${odataValue(search.get(name) ?? '')}`);
    params.push(`$skiptoken=${encodeSkipToken(nextOffset, spec.key)}`);
    body['@odata.nextLink'] = `${authorityHost}${spec.path}?${params.join('&')}`;
  }
  body.value = page.map((item) => spec.resource(item, properties));
  return body;
}

/** The part of the path a wildcard route matched (already percent-decoded). */
function wildcard(request: FastifyRequest): string {
  return (request.params as { '*'?: string })['*'] ?? '';
}

function requestPath(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? request.url;
}

function isEventual(request: FastifyRequest): boolean {
  const header = request.headers.consistencylevel;
  return typeof header === 'string' && header.trim().toLowerCase() === 'eventual';
}

export function registerGraph(
  app: FastifyInstance,
  ctx: StandInContext,
  mailLimits: Partial<MailLimits> = {},
): StandIns['graph'] {
  const faults = new FaultQueue();
  const requests: StandIns['graph']['requests'] = [];
  const groups = new GroupDirectory(ctx);
  const outbox = new MailOutbox(ctx, () => servicePrincipalId(ctx), mailLimits);

  async function authenticate(header: string | undefined): Promise<Caller | GraphError> {
    const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
    if (!token) return new GraphError(401, 'InvalidAuthenticationToken', 'Access token is empty.');
    const claims = await ctx.keys.verify(token, ctx.issuer, [GRAPH_RESOURCE, GRAPH_APP_ID]);
    if (!claims) return new GraphError(401, 'InvalidAuthenticationToken', 'Access token validation failure.');
    const roles: unknown[] = Array.isArray(claims.roles) ? (claims.roles as unknown[]) : [];
    const scopes = typeof claims.scp === 'string' ? claims.scp.split(' ') : [];
    return { claims, permissions: new Set([...roles.map(String), ...scopes]) };
  }

  /**
   * Answers one Graph request: 401 without a valid token, the route's own 400 for a malformed address, 403
   * without the permission, then a queued failure if any, then the route's answer. Every request is logged.
   */
  async function serve(request: FastifyRequest, reply: FastifyReply, route: Route | GraphError): Promise<FastifyReply> {
    const url = `${ctx.authorityHost}${request.url}`;
    const requestId = randomUUID();
    const clientRequestHeader = request.headers['client-request-id'];
    const clientRequestId = typeof clientRequestHeader === 'string' ? clientRequestHeader : requestId;
    reply.headers({
      'request-id': requestId,
      'client-request-id': clientRequestId,
      'content-type':
        'application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8',
      'cache-control': 'no-cache',
    });

    const caller = await authenticate(request.headers.authorization);
    const authorized = !(caller instanceof GraphError);
    const send = (status: number, body: unknown): FastifyReply => {
      requests.push({ url, status, authorized });
      return reply.code(status).send(body);
    };
    const sendError = ({ status, code, message, headers }: ErrorAnswer): FastifyReply => {
      reply.headers(headers ?? {});
      return send(status, {
        error: {
          code,
          message,
          innerError: {
            date: new Date().toISOString().slice(0, 19),
            'request-id': requestId,
            'client-request-id': clientRequestId,
          },
        },
      });
    };

    if (caller instanceof GraphError) return sendError(caller);
    if (route instanceof GraphError) return sendError(route);
    if (!route.permitted(caller)) {
      return sendError(
        route.denied ??
          new GraphError(403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.'),
      );
    }

    // Only callers Graph would have served see the queued faults, so a misconfigured client cannot use them up.
    const fault = faults.take();
    switch (fault?.kind) {
      case 'throttle':
        if (fault.retryAfter !== null) reply.header('retry-after', fault.retryAfter);
        return sendError(
          new GraphError(
            429,
            'TooManyRequests',
            'Too many requests are being sent. Wait before retrying (simulated throttling).',
          ),
        );
      case 'fail':
        return sendError(simulatedFailure('graph', fault.status));
      case 'hang':
        requests.push({ url, status: fault.stage === 'body' ? 200 : 0, authorized, fault: `hang:${fault.stage}` });
        faults.hang(reply, fault.stage, sample(ctx.authorityHost, route.collection));
        return reply;
      case 'garbage':
        requests.push({ url, status: 200, authorized, fault: `garbage:${fault.garbage}` });
        sendGarbage(
          reply,
          fault.garbage,
          wrongShape(ctx.authorityHost, route.collection),
          sample(ctx.authorityHost, route.collection),
        );
        return reply;
      case undefined:
        break;
    }

    const answer = await route.respond(caller, new URL(request.url, ctx.authorityHost).searchParams);
    if (answer === ACCEPTED) {
      reply.removeHeader('content-type');
      return send(202, undefined);
    }
    return answer instanceof GraphError ? sendError(answer) : send(200, answer);
  }

  /** POST /v1.0/users/{id | userPrincipalName}/sendMail (graph-mail.ts): the body arrives as its bytes. */
  function sendMailRoute(request: FastifyRequest<{ Params: { id: string } }>): Route {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    // The exchange recorder reads the body as JSON, as it does any other call's, faults played instead included.
    try {
      request.body = JSON.parse(raw.toString('utf8')) as unknown;
    } catch {
      request.body = raw.toString('utf8');
    }
    const callerOf = ({ claims, permissions }: Caller) => {
      const appId = claims.appid ?? claims.azp;
      return {
        oid: typeof claims.oid === 'string' ? claims.oid : null,
        appId: typeof appId === 'string' ? appId : null,
        isApp: claims.idtyp === 'app',
        permissions,
      };
    };
    return {
      collection: false,
      permitted: (caller) => outbox.permitted(callerOf(caller)),
      denied: new GraphError(403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.'),
      respond: async (caller) => {
        const sent = await outbox.send(callerOf(caller), request.params.id, raw, request.headers['content-type'] ?? '');
        return sent instanceof MailRefusal
          ? new GraphError(sent.status, sent.code, sent.message, sent.headers)
          : ACCEPTED;
      },
    };
  }

  app.get('/v1.0/users', (request, reply) =>
    serve(request, reply, {
      collection: true,
      permitted: (caller) => hasAny(caller, READ_USERS),
      respond: (_caller, search) => {
        const invalid = checkOptions(search, USERS_OPTIONS);
        if (invalid) return invalid;
        const filterText = search.get('$filter');
        if (filterText !== null && !/^\s*accountEnabled\s+eq\s+true\s*$/i.test(filterText)) {
          return badRequest('Request_UnsupportedQuery', 'Unsupported Query.');
        }
        const enabledOnly = filterText !== null;
        return listPage(ctx.authorityHost, {
          search,
          path: '/v1.0/users',
          key: enabledOnly ? 'users|enabled' : 'users',
          type: 'microsoft.graph.user',
          properties: USER_PROPERTIES,
          defaultProperties: USER_DEFAULT_PROPERTIES,
          context: `${ctx.authorityHost}/v1.0/$metadata#users`,
          eventual: isEventual(request),
          items: enabledOnly ? ctx.people.filter((person) => person.accountEnabled !== false) : ctx.people,
          resource: userResource,
        });
      },
    }),
  );

  /**
   * /v1.0/users/{id | userPrincipalName} (Graph's "Get user"): one user, enabled or not, with $select; 404
   * Request_ResourceNotFound for anyone else. The stand-in's own ids need not be GUIDs (the demo's are not).
   */
  function userRoute(id: string): Route {
    return {
      collection: false,
      permitted: (caller) => hasAny(caller, READ_USERS),
      respond: (_caller, search) => {
        const invalid = checkOptions(search, ENTITY_OPTIONS);
        if (invalid) return invalid;
        const person =
          ctx.people.find((each) => sameId(each.id, id)) ??
          ctx.people.find((each) => sameId(each.userPrincipalName, id));
        if (!person) return notFound(id);
        const select = parseSelect(search, USER_PROPERTIES, 'microsoft.graph.user');
        if (select instanceof GraphError) return select;
        const properties = propertiesFor(select, USER_DEFAULT_PROPERTIES);
        return {
          '@odata.context': `${ctx.authorityHost}/v1.0/$metadata#users${select ? `(${properties.join(',')})` : ''}/$entity`,
          ...userResource(person, properties),
        };
      },
    };
  }

  app.get<{ Params: { id: string } }>('/v1.0/users/:id', (request, reply) =>
    serve(request, reply, userRoute(request.params.id)),
  );

  /** /v1.0/servicePrincipals/{id}[/appRoleAssignedTo] and /v1.0/servicePrincipals(appId='{appId}')[/appRoleAssignedTo]. */
  function servicePrincipalRoute(request: FastifyRequest): Route | GraphError {
    const rest = wildcard(request);
    if (rest === '' || rest === '/') return notServed();
    const address = /^(?:\/([^/()]+)|\(appId='([^'/]*)'\))(?:\/([^/]+))?\/?$/i.exec(rest);
    if (!address) return noSegment(`servicePrincipals${rest.split('/')[0] ?? ''}`);
    const [, id, appId, navigation] = address;
    if (id !== undefined && !GUID.test(id)) return invalidId(id);
    const ownId = servicePrincipalId(ctx);
    const own = id !== undefined ? sameId(id, ownId) : appId === ctx.clientId;
    const missing = () => notFound(id ?? appId ?? '');

    if (navigation === undefined) {
      return {
        collection: false,
        // A service principal may read itself without any permission.
        permitted: (caller) =>
          hasAny(caller, READ_SERVICE_PRINCIPAL) ||
          (own && caller.claims.idtyp === 'app' && caller.claims.oid === ownId),
        respond: (_caller, search) => {
          const invalid = checkOptions(search, ENTITY_OPTIONS);
          if (invalid) return invalid;
          if (!own) return missing();
          const select = parseSelect(search, SERVICE_PRINCIPAL_PROPERTIES, 'microsoft.graph.servicePrincipal');
          if (select instanceof GraphError) return select;
          const properties = propertiesFor(select, SERVICE_PRINCIPAL_PROPERTIES);
          return {
            '@odata.context': `${ctx.authorityHost}/v1.0/$metadata#servicePrincipals${select ? `(${properties.join(',')})` : ''}/$entity`,
            ...pick(servicePrincipalResource(ctx), properties),
          };
        },
      };
    }
    if (navigation.toLowerCase() !== 'approleassignedto') return noSegment(navigation);
    return {
      collection: true,
      permitted: (caller) => hasAny(caller, READ_APP_ROLE_ASSIGNED_TO),
      respond: (_caller, search) => {
        const invalid = checkOptions(search, LIST_OPTIONS);
        if (invalid) return invalid;
        if (!own) return missing();
        return listPage(ctx.authorityHost, {
          search,
          path: requestPath(request),
          key: `appRoleAssignedTo|${ownId}`,
          type: 'microsoft.graph.appRoleAssignment',
          properties: APP_ROLE_ASSIGNMENT_PROPERTIES,
          defaultProperties: APP_ROLE_ASSIGNMENT_PROPERTIES,
          context: `${ctx.authorityHost}/v1.0/$metadata#servicePrincipals('${ownId}')/appRoleAssignedTo`,
          eventual: isEventual(request),
          items: appRoleAssignments(ctx),
          resource: pick,
        });
      },
    };
  }

  /**
   * /v1.0/groups/{id}/members and /v1.0/groups/{id}/transitiveMembers: users and groups, each with its @odata.type;
   * with the cast /microsoft.graph.user, users only.
   */
  function groupMembersRoute(
    request: FastifyRequest,
    id: string,
    navigation: string,
    rest: string[],
  ): Route | GraphError {
    const relation = navigation.toLowerCase();
    if (relation !== 'members' && relation !== 'transitivemembers') return noSegment(navigation);
    const [cast, ...more] = rest;
    if (more.some(Boolean)) return notServed();
    const usersOnly = cast !== undefined && cast !== '';
    if (usersOnly && cast.toLowerCase() !== 'microsoft.graph.user') return notServed();
    return {
      collection: true,
      permitted: (caller) => hasAny(caller, READ_GROUP_MEMBERS),
      respond: (caller, search) => {
        const invalid = checkOptions(search, LIST_OPTIONS);
        if (invalid) return invalid;
        const group = ctx.groups.find((each) => sameId(each.id, id));
        if (!group) return notFound(id);
        // Without permission to read users, Graph still lists them, with nothing but their id (and type).
        const limited = !hasAny(caller, READ_USERS);
        const userFields = (person: StandInPerson, properties: string[]) =>
          limited
            ? Object.fromEntries(properties.map((name) => [name, name === 'id' ? person.id : null]))
            : userResource(person, properties);
        const members = memberObjects(ctx, group, relation === 'transitivemembers');
        const common = {
          search,
          path: requestPath(request),
          key: `${relation}|${usersOnly ? 'users|' : ''}${group.id.toLowerCase()}`,
          eventual: isEventual(request),
        };
        if (usersOnly) {
          return listPage(ctx.authorityHost, {
            ...common,
            type: 'microsoft.graph.user',
            properties: USER_PROPERTIES,
            defaultProperties: USER_DEFAULT_PROPERTIES,
            context: `${ctx.authorityHost}/v1.0/$metadata#users`,
            items: members.flatMap((member) => (member.kind === 'user' ? [member.person] : [])),
            resource: userFields,
          });
        }
        const select = parseSelect(search, MEMBER_PROPERTIES, 'microsoft.graph.directoryObject');
        if (select instanceof GraphError) return select;
        // Each item carries the properties of its own type: the selected ones it has, or its type's defaults.
        const own = (properties: string[], all: readonly string[], defaults: readonly string[]) =>
          select ? properties.filter((name) => all.includes(name)) : [...defaults];
        return listPage(ctx.authorityHost, {
          ...common,
          type: 'microsoft.graph.directoryObject',
          properties: MEMBER_PROPERTIES,
          defaultProperties: USER_DEFAULT_PROPERTIES,
          context: `${ctx.authorityHost}/v1.0/$metadata#directoryObjects`,
          items: members,
          resource: (member, properties) =>
            member.kind === 'user'
              ? {
                  '@odata.type': '#microsoft.graph.user',
                  ...userFields(member.person, own(properties, USER_PROPERTIES, USER_DEFAULT_PROPERTIES)),
                }
              : {
                  '@odata.type': '#microsoft.graph.group',
                  ...pick(groupValues(member.group), own(properties, GROUP_PROPERTIES, GROUP_DEFAULT_PROPERTIES)),
                },
        });
      },
    };
  }

  /** /v1.0/groups/{id} (Graph's "Get group"). */
  function groupRoute(id: string): Route {
    return {
      collection: false,
      permitted: (caller) => hasAny(caller, READ_GROUPS),
      respond: (_caller, search) => {
        const invalid = checkOptions(search, ENTITY_OPTIONS);
        if (invalid) return invalid;
        const group = ctx.groups.find((each) => sameId(each.id, id));
        if (!group) return notFound(id);
        const select = parseSelect(search, GROUP_PROPERTIES, 'microsoft.graph.group');
        if (select instanceof GraphError) return select;
        const properties = propertiesFor(select, GROUP_DEFAULT_PROPERTIES);
        return {
          '@odata.context': `${ctx.authorityHost}/v1.0/$metadata#groups${select ? `(${properties.join(',')})` : ''}/$entity`,
          ...pick(groupValues(group), properties),
        };
      },
    };
  }

  /** /v1.0/groups/delta (or /microsoft.graph.delta): Graph's delta query for groups, from the change log. */
  function groupsDeltaRoute(request: FastifyRequest): Route {
    return {
      collection: true,
      permitted: (caller) => hasAny(caller, READ_GROUPS),
      respond: (_caller, given) => {
        // Query option names are case-insensitive in OData; Microsoft's own pages write $deltaToken and $deltatoken.
        const search = new URLSearchParams(
          [...given].map(([name, value]): [string, string] => [
            name.startsWith('$') ? name.toLowerCase() : name,
            value,
          ]),
        );
        const invalid = checkOptions(search, DELTA_OPTIONS);
        if (invalid) return invalid;
        const select = parseSelect(search, [...GROUP_PROPERTIES, 'members'], 'microsoft.graph.group');
        if (select instanceof GraphError) return select;
        const prefer = request.headers.prefer;
        const answer = groups.delta({
          host: ctx.authorityHost,
          path: requestPath(request),
          select,
          deltaToken: search.get('$deltatoken'),
          skipToken: search.get('$skiptoken'),
          minimal: /(^|[,;\s])return=minimal\b/i.test(Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '')),
        });
        return answer instanceof DirectoryError ? GraphError.of(answer) : answer;
      },
    };
  }

  /** Everything under /v1.0/groups/: delta, one group, its members. */
  function groupsRoute(request: FastifyRequest): Route | GraphError {
    const segments = wildcard(request).split('/');
    if (segments.length > 1 && segments.at(-1) === '') segments.pop();
    const [id = '', navigation, ...rest] = segments;
    if (/^(microsoft\.graph\.)?delta(\(\))?$/i.test(id) && navigation === undefined) return groupsDeltaRoute(request);
    if (!id) return notServed();
    if (!GUID.test(id)) return invalidId(id);
    return navigation === undefined ? groupRoute(id) : groupMembersRoute(request, id, navigation, rest);
  }

  app.get('/v1.0/groups', (request, reply) =>
    serve(request, reply, {
      collection: true,
      permitted: (caller) => hasAny(caller, READ_GROUPS),
      respond: (_caller, search) => {
        const invalid = checkOptions(search, LIST_OPTIONS);
        if (invalid) return invalid;
        return listPage(ctx.authorityHost, {
          search,
          path: '/v1.0/groups',
          key: 'groups',
          type: 'microsoft.graph.group',
          properties: GROUP_PROPERTIES,
          defaultProperties: GROUP_DEFAULT_PROPERTIES,
          context: `${ctx.authorityHost}/v1.0/$metadata#groups`,
          eventual: isEventual(request),
          items: ctx.groups,
          resource: (group, properties) => pick(groupValues(group), properties),
        });
      },
    }),
  );
  app.get('/v1.0/servicePrincipals*', (request, reply) => serve(request, reply, servicePrincipalRoute(request)));
  app.get('/v1.0/groups/*', (request, reply) => serve(request, reply, groupsRoute(request)));
  // sendMail reads its body itself, as bytes of any type: Graph's own answers for a body too large or unreadable.
  void app.register(async (mail) => {
    mail.removeAllContentTypeParsers();
    mail.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    mail.post<{ Params: { id: string } }>('/v1.0/users/:id/sendMail', (request, reply) =>
      serve(request, reply, sendMailRoute(request)),
    );
  });

  return {
    ...faults.controls,
    reset() {
      faults.reset();
      requests.length = 0;
      outbox.clear();
      outbox.restrictSenders(null);
      outbox.resetLimits();
    },
    sentMail: () => outbox.list(),
    clearSentMail: () => outbox.clear(),
    restrictMailSenders: (addresses) => outbox.restrictSenders(addresses),
    setMailLimits: (limits) => outbox.setLimits(limits),
    mailStats: () => outbox.statsNow(),
    resetMailStats: () => outbox.resetStats(),
    setPeople(people) {
      ctx.people = [...people];
    },
    setGroups: (list) => groups.setGroups(list),
    upsertGroup: (group) => groups.upsertGroup(group),
    deleteGroup: (groupId) => groups.deleteGroup(groupId),
    addGroupMember: (groupId, memberId) => groups.addGroupMember(groupId, memberId),
    removeGroupMember: (groupId, memberId) => groups.removeGroupMember(groupId, memberId),
    expireDeltaTokens: (options) => groups.expireDeltaTokens(options),
    setDeltaPaging: (paging) => groups.setDeltaPaging(paging),
    requests,
  };
}
