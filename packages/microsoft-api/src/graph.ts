import { z, type ZodType } from 'zod';
import type { Exchange } from './exchange.ts';
import { USER_DEFAULT_PROPERTIES } from './graph-user-defaults.ts';
import {
  bearer,
  dateTime,
  documented,
  guid,
  queryOf,
  retryAfter,
  selected,
  type AnswerSpec,
  type Finding,
  type Operation,
} from './operation.ts';

/*
 * The Microsoft Graph v1.0 calls the portal makes, from Microsoft Learn's pages (named with each operation), the
 * resource types they answer, and Graph's shared rules: OData query parameters
 * (https://learn.microsoft.com/graph/query-parameters), paging (https://learn.microsoft.com/graph/paging),
 * throttling (https://learn.microsoft.com/graph/throttling) and errors (https://learn.microsoft.com/graph/errors).
 */

const learn = (page: string) => `https://learn.microsoft.com/graph/api/${page}?view=graph-rest-1.0`;

const text = z.string().nullable();
/** A text property with the maximum length the resource type gives. */
const textOf = (maximum: number) => z.string().max(maximum).nullable();
const texts = z.array(z.string());

/** The innerError Graph names the request in (its `date` is written without a time zone). */
const innerError = documented({
  code: z.string().optional(),
  date: z.union([z.iso.datetime({ local: true }), dateTime]).optional(),
  'request-id': guid.optional(),
  'client-request-id': z.string().optional(),
});

/**
 * Graph's error answer (odata.error): `code` and `message` always, `innerError` with the date and the request's ids.
 * The errors page spells it `innererror` in its table and `innerError` in its example: both are accepted.
 */
export const graphError = documented({
  error: documented({
    code: z.string().min(1),
    message: z.string(),
    target: z.string().optional(),
    details: z.array(documented({ code: z.string().optional(), message: z.string().optional() })).optional(),
    innerError: innerError.optional(),
    innererror: innerError.optional(),
  }),
});

const errors: AnswerSpec = {
  content: 'json',
  body: graphError,
  // A 429 (and a 503) may say how long to wait; without it a client backs off on its own (throttling page).
  headers: { 'retry-after': { required: false, value: retryAfter } },
};
/** Graph's error answer, for the descriptions of Graph calls kept in other files (graph-mail.ts). */
export const GRAPH_ERRORS = errors;

/**
 * The user resource type's properties (resources/user). Those the portal reads are typed, with the maximum lengths
 * the page gives; every other documented one is named, so that a misspelling of it is caught.
 */
const userShape = {
  id: z.string().min(1),
  accountEnabled: z.boolean().nullable().optional(),
  businessPhones: texts.optional(),
  city: textOf(128).optional(),
  companyName: textOf(64).optional(),
  country: textOf(128).optional(),
  createdDateTime: dateTime.nullable().optional(),
  deletedDateTime: dateTime.nullable().optional(),
  department: textOf(64).optional(),
  displayName: textOf(256).optional(),
  employeeHireDate: dateTime.nullable().optional(),
  employeeId: text.optional(),
  employeeType: text.optional(),
  givenName: textOf(64).optional(),
  imAddresses: texts.optional(),
  jobTitle: textOf(128).optional(),
  mail: text.optional(),
  mailNickname: textOf(64).optional(),
  mobilePhone: textOf(64).optional(),
  officeLocation: text.optional(),
  otherMails: texts.optional(),
  postalCode: textOf(40).optional(),
  preferredLanguage: text.optional(),
  proxyAddresses: texts.optional(),
  state: textOf(128).optional(),
  streetAddress: textOf(1024).optional(),
  surname: textOf(64).optional(),
  usageLocation: text.optional(),
  userPrincipalName: text.optional(),
  // "such as Member and Guest": an open list.
  userType: text.optional(),
  ...Object.fromEntries(
    [
      'aboutMe',
      'ageGroup',
      'assignedLicenses',
      'assignedPlans',
      'birthday',
      'consentProvidedForMinor',
      'creationType',
      'customSecurityAttributes',
      'employeeLeaveDateTime',
      'employeeOrgData',
      'externalUserState',
      'externalUserStateChangeDateTime',
      'faxNumber',
      'hireDate',
      'identities',
      'interests',
      'isResourceAccount',
      'lastPasswordChangeDateTime',
      'legalAgeGroupClassification',
      'licenseAssignmentStates',
      'mailboxSettings',
      'mySite',
      'onPremisesDistinguishedName',
      'onPremisesDomainName',
      'onPremisesExtensionAttributes',
      'onPremisesImmutableId',
      'onPremisesLastSyncDateTime',
      'onPremisesProvisioningErrors',
      'onPremisesSamAccountName',
      'onPremisesSecurityIdentifier',
      'onPremisesSyncEnabled',
      'onPremisesUserPrincipalName',
      'passwordPolicies',
      'passwordProfile',
      'pastProjects',
      'preferredDataLocation',
      'preferredName',
      'provisionedPlans',
      'refreshTokensValidFromDateTime',
      'responsibilities',
      'schools',
      'showInAddressList',
      'signInActivity',
      'signInSessionsValidFromDateTime',
      'skills',
    ].map((name) => [name, z.unknown().optional()]),
  ),
};
export const USER_PROPERTIES = Object.keys(userShape);
export const user = documented(userShape);

/** appRole: `value` at most 120 characters of those the page allows (no spaces). */
export const appRole = documented({
  allowedMemberTypes: z.array(z.enum(['User', 'Application'])),
  description: text.optional(),
  displayName: text.optional(),
  id: guid,
  isEnabled: z.boolean(),
  origin: z.string().optional(),
  value: z
    .string()
    .max(120)
    .regex(/^[A-Za-z0-9:!#$%&'()*+,\-./;<=>?@[\]^_`{|}~]*$/, 'a character the page does not allow in an app role value')
    .nullable(),
});

/** servicePrincipal: the properties the portal reads are typed, the others open. */
const servicePrincipalShape = {
  id: guid,
  appId: z.string().optional(),
  appDisplayName: text.optional(),
  appRoles: z.array(appRole).optional(),
  displayName: text.optional(),
  accountEnabled: z.boolean().nullable().optional(),
  appOwnerOrganizationId: guid.nullable().optional(),
  appRoleAssignmentRequired: z.boolean().optional(),
  servicePrincipalNames: texts.optional(),
  servicePrincipalType: text.optional(),
  signInAudience: text.optional(),
  tags: texts.optional(),
  deletedDateTime: dateTime.nullable().optional(),
  ...Object.fromEntries(
    [
      'addIns',
      'alternativeNames',
      'appDescription',
      'applicationTemplateId',
      'customSecurityAttributes',
      'description',
      'disabledByMicrosoftStatus',
      'homepage',
      'info',
      'keyCredentials',
      'loginUrl',
      'logoutUrl',
      'notes',
      'notificationEmailAddresses',
      'oauth2PermissionScopes',
      'passwordCredentials',
      'preferredSingleSignOnMode',
      'preferredTokenSigningKeyThumbprint',
      'replyUrls',
      'resourceSpecificApplicationPermissions',
      'samlSingleSignOnSettings',
      'tokenEncryptionKeyId',
      'verifiedPublisher',
    ].map((name) => [name, z.unknown().optional()]),
  ),
};
export const SERVICE_PRINCIPAL_PROPERTIES = Object.keys(servicePrincipalShape);
export const servicePrincipal = documented(servicePrincipalShape);

/** appRoleAssignment. */
const appRoleAssignmentShape = {
  id: z.string().min(1),
  appRoleId: guid,
  createdDateTime: dateTime.nullable().optional(),
  deletedDateTime: dateTime.nullable().optional(),
  principalDisplayName: text.optional(),
  principalId: guid,
  principalType: z.enum(['User', 'Group', 'ServicePrincipal']),
  resourceDisplayName: text.optional(),
  resourceId: guid,
};
export const APP_ROLE_ASSIGNMENT_PROPERTIES = Object.keys(appRoleAssignmentShape);
export const appRoleAssignment = documented(appRoleAssignmentShape);

/**
 * The group resource type's properties (resources/group). Those the portal reads are typed; every other documented
 * one is named, so that a misspelling of it is caught. Nullable where the page does not say "Not nullable", since a
 * delta round gives a property set to null as null.
 */
const groupShape = {
  id: z.string().min(1),
  createdDateTime: dateTime.nullable().optional(),
  description: text.optional(),
  displayName: textOf(256).optional(),
  // "Unified" for a Microsoft 365 group, "DynamicMembership" for dynamic membership: an open list.
  groupTypes: texts.optional(),
  mail: text.optional(),
  mailEnabled: z.boolean().nullable().optional(),
  securityEnabled: z.boolean().nullable().optional(),
  // "Private, Public, or HiddenMembership": who may join a Microsoft 365 group unapproved (Public: anyone).
  visibility: z.enum(['Private', 'Public', 'HiddenMembership']).nullable().optional(),
  ...Object.fromEntries(
    [
      'deletedDateTime',
      'classification',
      'creationOptions',
      'expirationDateTime',
      'isAssignableToRole',
      'mailNickname',
      'membershipRule',
      'membershipRuleProcessingState',
      'onPremisesDomainName',
      'onPremisesLastSyncDateTime',
      'onPremisesNetBiosName',
      'onPremisesProvisioningErrors',
      'onPremisesSamAccountName',
      'onPremisesSecurityIdentifier',
      'onPremisesSyncEnabled',
      'preferredDataLocation',
      'preferredLanguage',
      'proxyAddresses',
      'renewedDateTime',
      'resourceBehaviorOptions',
      'resourceProvisioningOptions',
      'securityIdentifier',
      'serviceProvisioningErrors',
      'theme',
      // Returned only on $select (some only by Get group).
      'allowExternalSenders',
      'assignedLabels',
      'assignedLicenses',
      'autoSubscribeNewMembers',
      'hasMembersWithLicenseErrors',
      'hideFromAddressLists',
      'hideFromOutlookClients',
      'isArchived',
      'isSubscribedByMail',
      'licenseProcessingState',
      'unseenCount',
    ].map((name) => [name, z.unknown().optional()]),
  ),
};
export const GROUP_PROPERTIES = Object.keys(groupShape);
export const group = documented(groupShape);

/**
 * What Get group and List groups answer without $select: the properties the group page marks "Returned by default"
 * (Get group's first example answers exactly these).
 */
export const GROUP_DEFAULT_PROPERTIES: readonly string[] = [
  'id',
  'deletedDateTime',
  'classification',
  'createdDateTime',
  'creationOptions',
  'description',
  'displayName',
  'expirationDateTime',
  'groupTypes',
  'isAssignableToRole',
  'mail',
  'mailEnabled',
  'mailNickname',
  'membershipRule',
  'membershipRuleProcessingState',
  'onPremisesDomainName',
  'onPremisesLastSyncDateTime',
  'onPremisesNetBiosName',
  'onPremisesSamAccountName',
  'onPremisesSecurityIdentifier',
  'onPremisesSyncEnabled',
  'preferredDataLocation',
  'preferredLanguage',
  'proxyAddresses',
  'renewedDateTime',
  'resourceBehaviorOptions',
  'resourceProvisioningOptions',
  'securityEnabled',
  'securityIdentifier',
  'theme',
  'visibility',
  'onPremisesProvisioningErrors',
  'serviceProvisioningErrors',
];

const USER_TYPE = '#microsoft.graph.user';
const GROUP_TYPE = '#microsoft.graph.group';
const odataType = z.string().regex(/^#microsoft\.graph\.\w+$/, "not '#microsoft.graph.{type}'");

/**
 * A directory object in a collection of several types (a group's members: users, groups, devices, service
 * principals, organizational contacts), named by its `@odata.type`; users and groups are held to their own types.
 */
export const directoryObject = z
  .looseObject({ '@odata.type': odataType, id: z.string().min(1) })
  .superRefine((value, ctx) => {
    const type = value['@odata.type'];
    const schema = type === USER_TYPE ? user : type === GROUP_TYPE ? group : null;
    const result = schema?.safeParse(value);
    for (const issue of result?.error?.issues ?? []) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  });

/**
 * `@removed` (delta query overview): the object (or the member) is gone; `reason` may say why, `changed` when it can
 * still be restored from deletedItems, `deleted` when it cannot.
 */
const removed = documented({ reason: z.enum(['changed', 'deleted']).optional() });

/** An entry of `members@delta`: only the id of the related object (group: delta), its type, and `@removed` when it left. */
const memberChange = documented({
  '@odata.type': odataType.optional(),
  id: z.string().min(1),
  '@removed': removed.optional(),
});

/**
 * A group in a delta page: the group's properties, membership changes in `members@delta`, or, for a group removed,
 * its id and `@removed`. Every property is optional: a property never set is left out, and with `Prefer:
 * return=minimal` a later round gives only the properties that changed (group: delta).
 */
export const groupChange = documented({
  ...groupShape,
  'members@delta': z.array(memberChange).optional(),
  'owners@delta': z.array(memberChange).optional(),
  '@removed': removed.optional(),
});

/** A page of a collection: `value`, and `@odata.nextLink` to the next page while there is one (paging). */
function page(item: ZodType) {
  return documented({
    '@odata.context': z.string().optional(),
    '@odata.nextLink': z.url().optional(),
    '@odata.count': z.int().min(0).optional(),
    value: z.array(item),
  });
}

/** A $select naming only properties of the type (any casing, as Graph reads them). */
function selectOf(properties: readonly string[]) {
  const known = new Set(properties.map((name) => name.toLowerCase()));
  return z
    .string()
    .min(1)
    .refine(
      (select) =>
        select
          .split(',')
          .map((name) => name.trim())
          .every((name) => known.has(name.toLowerCase())),
      { message: 'names a property the resource type does not have' },
    );
}

/**
 * $top: "1 and 999 inclusive" for users (List users), the page size limit of directory objects, which the portal's
 * other lists (app role assignments, group members) are too.
 */
const top = z.string().regex(/^\d+$/, 'not a whole number').transform(Number).pipe(z.int().min(1).max(999));
const count = z.enum(['true', 'false']);

/** OData query parameters of a list of directory objects. */
function listQuery(properties: readonly string[]) {
  return z.strictObject({
    $select: selectOf(properties).optional(),
    $filter: z.string().min(1).optional(),
    $top: top.optional(),
    $count: count.optional(),
    $orderby: z.string().min(1).optional(),
    $search: z.string().min(1).optional(),
    $expand: z.string().min(1).optional(),
    // Graph's own, in the @odata.nextLink a client follows as given (paging).
    $skiptoken: z.string().min(1).optional(),
  });
}

function entityQuery(properties: readonly string[]) {
  return z.strictObject({ $select: selectOf(properties).optional(), $expand: z.string().min(1).optional() });
}

/**
 * ConsistencyLevel: eventual, which $search and $count need (advanced query capabilities,
 * https://learn.microsoft.com/graph/aad-advanced-queries).
 */
function consistency(exchange: Exchange): Finding[] {
  const { query } = queryOf(exchange.url);
  const eventual = exchange.request.headers.consistencylevel?.toLowerCase() === 'eventual';
  if ((query.$search !== undefined || query.$count === 'true') && !eventual) {
    return [{ at: 'header consistencylevel', message: "$search and $count need 'ConsistencyLevel: eventual'" }];
  }
  return [];
}

/**
 * The properties an entity answers: exactly those of $select (Graph answers a selected property even when empty,
 * as null), or, without it, no more than the type's default set. OData annotations (`@odata.…`) aside. In a
 * collection of several types, `ofType` names the entity's own type's properties: a selected property of another
 * type is neither expected nor allowed on it (null for a type the schemas do not describe: any selected one may be).
 */
function honoursSelect(
  entity: unknown,
  at: string,
  exchange: Exchange,
  defaults: readonly string[] | null,
  ofType?: readonly string[] | null,
): Finding[] {
  if (typeof entity !== 'object' || entity === null) return [];
  const names = Object.keys(entity).filter((name) => !name.includes('@'));
  const all = selected(exchange.url);
  const own = ofType ? new Set(ofType.map((name) => name.toLowerCase())) : null;
  const chosen = all && own ? all.filter((name) => own.has(name.toLowerCase())) : all;
  const allowed = chosen ?? defaults;
  if (!allowed) return [];
  const lower = new Set(allowed.map((name) => name.toLowerCase()));
  const findings: Finding[] = names
    .filter((name) => !lower.has(name.toLowerCase()))
    .map((name) => ({
      at: `${at}.${name}`,
      message: chosen ? 'answered though $select did not name it' : 'not among the properties answered by default',
    }));
  if (chosen && ofType !== null) {
    const present = new Set(names.map((name) => name.toLowerCase()));
    for (const name of chosen) {
      if (!present.has(name.toLowerCase()))
        findings.push({ at: `${at}.${name}`, message: 'named in $select, missing' });
    }
  }
  return findings;
}

function eachItem(defaults: readonly string[] | null) {
  return (exchange: Exchange): Finding[] => {
    const items = (exchange.answer.body as { value?: unknown } | undefined)?.value;
    return Array.isArray(items)
      ? items.flatMap((item, index) => honoursSelect(item, `body.value[${index}]`, exchange, defaults))
      : [];
  };
}

function theEntity(defaults: readonly string[] | null) {
  return (exchange: Exchange): Finding[] => honoursSelect(exchange.answer.body, 'body', exchange, defaults);
}

const bodyItems = (exchange: Exchange): unknown[] => {
  const items = (exchange.answer.body as { value?: unknown } | undefined)?.value;
  return Array.isArray(items) ? items : [];
};

/** Each member as its own type answers: a user's and a group's own $select or default properties. */
function eachMember(exchange: Exchange): Finding[] {
  return bodyItems(exchange).flatMap((item, index) => {
    const type = (item as Record<string, unknown> | null)?.['@odata.type'];
    const at = `body.value[${index}]`;
    if (type === USER_TYPE) return honoursSelect(item, at, exchange, USER_DEFAULT_PROPERTIES, USER_PROPERTIES);
    if (type === GROUP_TYPE) return honoursSelect(item, at, exchange, GROUP_DEFAULT_PROPERTIES, GROUP_PROPERTIES);
    return honoursSelect(item, at, exchange, null, null);
  });
}

/*
 * group: delta (https://learn.microsoft.com/graph/api/group-delta), "Use delta query to track changes in groups"
 * (https://learn.microsoft.com/graph/delta-query-groups) and the delta query overview
 * (https://learn.microsoft.com/graph/delta-query-overview).
 */

/**
 * The group relationships of type directoryObject collection whose changes $select can track, as
 * `{relationship}@delta` (only the related objects' ids): members, and "ownership and more".
 */
const TRACKED_RELATIONSHIPS = ['members', 'owners'];

/**
 * The one $filter delta takes: `id eq '{value}'`, several joined with `or`, at most 50 objects.
 */
const idFilter = z
  .string()
  .regex(/^\s*id\s+eq\s+'[^']+'(\s+or\s+id\s+eq\s+'[^']+')*\s*$/, "delta's $filter is only id eq '{value}' (or …)")
  .refine((filter) => (filter.match(/\bid\s+eq\b/g) ?? []).length <= 50, {
    message: 'more than the 50 objects delta can filter',
  });

/**
 * The state tokens as Graph writes them in its links: the group: delta page spells them `$deltatoken` and
 * `$skiptoken`, the delta query overview `$deltaToken` and `$skipToken`.
 */
const DELTA_TOKENS = ['$deltatoken', '$deltaToken'];
const SKIP_TOKENS = ['$skiptoken', '$skipToken'];
const stateToken = z.string().min(1);

/**
 * What delta takes: $select (group properties and tracked relationships; `id` is always answered), $filter by id,
 * $expand of members ("Use delta query to track changes in groups" shows `$expand=members`), and the state tokens.
 * $top and $orderby are not supported for groups (delta query overview: "For the user and group resources … `$top`
 * is not supported"; Graph was seen to ignore $top silently, microsoftgraph/microsoft-graph-docs#17516), $search
 * and $count not documented. A client sending $top is in disagreement either way: its page size is not honoured.
 */
const deltaQuery = z.strictObject({
  $select: selectOf([...GROUP_PROPERTIES, ...TRACKED_RELATIONSHIPS]).optional(),
  $filter: idFilter.optional(),
  $expand: z
    .string()
    .regex(/^members$/i, 'delta expands only members')
    .optional(),
  ...Object.fromEntries([...DELTA_TOKENS, ...SKIP_TOKENS].map((name) => [name, stateToken.optional()])),
});

/**
 * A delta request carries at most one state token (a deltatoken or a skiptoken), and a skiptoken alone: query
 * parameters are given in the initial request and encoded in the tokens ("Delta queries with both $select and
 * $skipToken" are not supported). A deltaLink may be given another $select.
 */
function deltaRequest(exchange: Exchange): Finding[] {
  const { query } = queryOf(exchange.url);
  const names = Object.keys(query);
  const tokens = names.filter((name) => [...DELTA_TOKENS, ...SKIP_TOKENS].includes(name));
  if (tokens.length > 1) return [{ at: 'query', message: `more than one state token (${tokens.join(', ')})` }];
  if (tokens.some((name) => SKIP_TOKENS.includes(name))) {
    return names
      .filter((name) => !tokens.includes(name))
      .map((name) => ({ at: `query.${name}`, message: 'given with a $skiptoken: it is encoded in the token' }));
  }
  return [];
}

/** Whether a link has one of the query parameters named, in any casing (false when it is not a URL). */
function linkHas(link: unknown, names: readonly string[]): boolean {
  if (typeof link !== 'string' || !URL.canParse(link)) return false;
  const lower = new Set(names.map((name) => name.toLowerCase()));
  return [...new URL(link).searchParams.keys()].some((name) => lower.has(name.toLowerCase()));
}

/**
 * Each page ends with exactly one state link: `@odata.nextLink` (with a $skiptoken) while the round has more pages,
 * `@odata.deltaLink` (with a $deltatoken) on its last page; "a page can't contain both".
 */
function stateLinks(exchange: Exchange): Finding[] {
  const body = exchange.answer.body as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null) return [];
  const next = body['@odata.nextLink'];
  const delta = body['@odata.deltaLink'];
  if (next !== undefined && delta !== undefined) {
    return [{ at: 'body', message: 'both @odata.nextLink and @odata.deltaLink: a page carries one' }];
  }
  if (next === undefined && delta === undefined) {
    return [{ at: 'body', message: 'neither @odata.nextLink nor @odata.deltaLink: a delta page carries one' }];
  }
  if (next !== undefined && !linkHas(next, SKIP_TOKENS)) {
    return [{ at: 'body.@odata.nextLink', message: 'no $skiptoken in it' }];
  }
  if (delta !== undefined && !linkHas(delta, DELTA_TOKENS)) {
    return [{ at: 'body.@odata.deltaLink', message: 'no $deltatoken in it' }];
  }
  return [];
}

/**
 * The properties of each group in a delta page: `id` always, the others among those $select named (the tracked
 * relationships as `{relationship}@delta`), or, on an initial request without $select, among the default ones
 * (members tracked too). Nothing is required beyond `id`: a property never set is left out, on every page, and with
 * `Prefer: return=minimal` an unchanged one too. On a page asked for with a state token and no $select, what is
 * tracked was encoded in the token: the properties are left unchecked.
 */
function deltaItems(exchange: Exchange): Finding[] {
  const { query } = queryOf(exchange.url);
  const chosen = selected(exchange.url);
  const withToken = Object.keys(query).some((name) => [...DELTA_TOKENS, ...SKIP_TOKENS].includes(name));
  if (!chosen && withToken) return [];
  const allowed = new Set(
    [...(chosen ?? [...GROUP_DEFAULT_PROPERTIES, 'members']), 'id'].map((name) => name.toLowerCase()),
  );
  if (query.$expand) allowed.add('members');
  return bodyItems(exchange).flatMap((item, index) => {
    if (typeof item !== 'object' || item === null) return [];
    return Object.keys(item).flatMap((name) => {
      const tracked = name.endsWith('@delta') ? name.slice(0, -'@delta'.length) : name.includes('@') ? null : name;
      if (tracked === null || allowed.has(tracked.toLowerCase())) return [];
      return [
        {
          at: `body.value[${index}].${name}`,
          message: chosen ? 'answered though $select did not name it' : 'not among the properties tracked by default',
        },
      ];
    });
  });
}

/**
 * "Synchronization reset" (delta query overview): "a response code of 410 (gone) and a Location header containing a
 * request URL with an empty $deltaToken (same as the initial query)". An expired token may get another 4xx ("a
 * 40X-series error with error codes such as syncStateNotFound"), described by Graph's error answer alone.
 */
const syncReset: AnswerSpec = {
  content: 'json',
  body: graphError,
  headers: {
    location: {
      required: true,
      value: z
        .string()
        .refine(
          (link) =>
            linkHas(link, DELTA_TOKENS) &&
            [...new URL(link).searchParams].every(([name, value]) => !DELTA_TOKENS.includes(name) || value === ''),
          'not a request URL with an empty $deltaToken (the initial query)',
        ),
    },
  },
};

/** A page of a delta round: the groups that changed, and the next page's link or the next round's. */
const deltaPage = documented({
  '@odata.context': z.string().optional(),
  '@odata.nextLink': z.url().optional(),
  '@odata.deltaLink': z.url().optional(),
  value: z.array(groupChange),
});

const headers = { authorization: bearer, consistencylevel: { required: false, value: z.literal('eventual') } };
const servicePrincipalPaths = ['/v1.0/servicePrincipals/{id}', "/v1.0/servicePrincipals(appId='{appId}')"];
const servicePrincipalParams = { id: guid, appId: guid };

export const GRAPH_OPERATIONS: Operation[] = [
  {
    service: 'graph',
    id: 'List users',
    source: learn('user-list'),
    method: 'GET',
    paths: ['/v1.0/users'],
    query: listQuery(USER_PROPERTIES),
    headers,
    check: consistency,
    answers: { 200: { content: 'json', body: page(user), check: eachItem(USER_DEFAULT_PROPERTIES) } },
    errors,
  },
  {
    service: 'graph',
    id: 'Get user',
    source: learn('user-get'),
    method: 'GET',
    // GET /users/{id | userPrincipalName}
    paths: ['/v1.0/users/{id}'],
    pathParams: { id: z.string().min(1) },
    query: entityQuery(USER_PROPERTIES),
    headers,
    answers: {
      200: { content: 'json', body: user, check: theEntity(USER_DEFAULT_PROPERTIES) },
      // Graph may answer 202 when it still has background work to finish for the request.
      202: { content: 'json', body: user, check: theEntity(USER_DEFAULT_PROPERTIES) },
    },
    errors,
  },
  {
    service: 'graph',
    id: 'Get servicePrincipal',
    source: learn('serviceprincipal-get'),
    method: 'GET',
    paths: servicePrincipalPaths,
    pathParams: servicePrincipalParams,
    query: entityQuery(SERVICE_PRINCIPAL_PROPERTIES),
    headers,
    answers: { 200: { content: 'json', body: servicePrincipal, check: theEntity(null) } },
    errors,
  },
  {
    service: 'graph',
    id: 'List appRoleAssignments granted for a service principal',
    source: learn('serviceprincipal-list-approleassignedto'),
    method: 'GET',
    paths: servicePrincipalPaths.map((path) => `${path}/appRoleAssignedTo`),
    pathParams: servicePrincipalParams,
    query: listQuery(APP_ROLE_ASSIGNMENT_PROPERTIES),
    headers,
    check: consistency,
    answers: { 200: { content: 'json', body: page(appRoleAssignment), check: eachItem(null) } },
    errors,
  },
  {
    service: 'graph',
    id: 'List groups',
    source: learn('group-list'),
    method: 'GET',
    paths: ['/v1.0/groups'],
    query: listQuery(GROUP_PROPERTIES),
    headers,
    check: consistency,
    answers: { 200: { content: 'json', body: page(group), check: eachItem(GROUP_DEFAULT_PROPERTIES) } },
    errors,
  },
  {
    service: 'graph',
    id: 'group: delta',
    source: learn('group-delta'),
    method: 'GET',
    // "/delta is a shortcut for the fully qualified name /microsoft.graph.delta" (before Get group: not a group id).
    paths: ['/v1.0/groups/delta', '/v1.0/groups/microsoft.graph.delta'],
    query: deltaQuery,
    headers: {
      authorization: bearer,
      'content-type': { required: false, value: z.string().regex(/^application\/json\b/i, 'not application/json') },
      // Optional: on a deltaLink, only the properties that changed since the last round.
      prefer: { required: false, value: z.string().regex(/\breturn=minimal\b/i, "not 'return=minimal'") },
    },
    check: deltaRequest,
    answers: {
      200: {
        content: 'json',
        body: deltaPage,
        check: (exchange) => [...stateLinks(exchange), ...deltaItems(exchange)],
      },
      410: syncReset,
    },
    errors,
  },
  {
    service: 'graph',
    id: 'Get group',
    source: learn('group-get'),
    method: 'GET',
    paths: ['/v1.0/groups/{id}'],
    pathParams: { id: guid },
    query: entityQuery(GROUP_PROPERTIES),
    headers,
    answers: { 200: { content: 'json', body: group, check: theEntity(GROUP_DEFAULT_PROPERTIES) } },
    errors,
  },
  {
    service: 'graph',
    id: 'List group members',
    source: learn('group-list-members'),
    method: 'GET',
    // Direct members of every type (users, groups, devices, service principals, contacts), each with @odata.type.
    paths: ['/v1.0/groups/{id}/members'],
    pathParams: { id: guid },
    query: listQuery([...new Set([...USER_PROPERTIES, ...GROUP_PROPERTIES])]),
    headers,
    check: consistency,
    answers: { 200: { content: 'json', body: page(directoryObject), check: eachMember } },
    errors,
  },
  {
    service: 'graph',
    id: 'List group transitive members',
    source: learn('group-list-transitivemembers'),
    method: 'GET',
    // Members at any depth, the nested groups themselves among them.
    paths: ['/v1.0/groups/{id}/transitiveMembers'],
    pathParams: { id: guid },
    query: listQuery([...new Set([...USER_PROPERTIES, ...GROUP_PROPERTIES])]),
    headers,
    check: consistency,
    answers: { 200: { content: 'json', body: page(directoryObject), check: eachMember } },
    errors,
  },
  {
    service: 'graph',
    id: 'List group members (microsoft.graph.user)',
    source: learn('group-list-members'),
    method: 'GET',
    // The cast to microsoft.graph.user lists the members that are users, as users.
    paths: ['/v1.0/groups/{id}/members/microsoft.graph.user'],
    pathParams: { id: guid },
    query: listQuery(USER_PROPERTIES),
    headers,
    check: consistency,
    answers: { 200: { content: 'json', body: page(user), check: eachItem(USER_DEFAULT_PROPERTIES) } },
    errors,
  },
];
