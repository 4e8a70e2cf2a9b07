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
 * as null), or, without it, no more than the type's default set. OData annotations (`@odata.…`) aside.
 */
function honoursSelect(entity: unknown, at: string, exchange: Exchange, defaults: readonly string[] | null): Finding[] {
  if (typeof entity !== 'object' || entity === null) return [];
  const names = Object.keys(entity).filter((name) => !name.includes('@'));
  const chosen = selected(exchange.url);
  const allowed = chosen ?? defaults;
  if (!allowed) return [];
  const lower = new Set(allowed.map((name) => name.toLowerCase()));
  const findings: Finding[] = names
    .filter((name) => !lower.has(name.toLowerCase()))
    .map((name) => ({
      at: `${at}.${name}`,
      message: chosen ? 'answered though $select did not name it' : 'not among the properties answered by default',
    }));
  if (chosen) {
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
