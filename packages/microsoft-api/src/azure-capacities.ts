import { z, type ZodType } from 'zod';
import { bearer, documented, guid, type AnswerSpec, type HeaderRule, type Operation } from './operation.ts';

/*
 * The Azure Resource Manager calls the portal makes on its Power BI capacity (issue 40), from Microsoft's swaggers in
 * Azure/azure-rest-api-specs, which the pages under https://learn.microsoft.com/rest/api/power-bi-embedded/ and
 * https://learn.microsoft.com/rest/api/microsoftfabric/ are made from:
 * - Power BI Embedded (A SKU): Microsoft.PowerBIDedicated, api-version 2021-01-01;
 * - Fabric (F SKU): Microsoft.Fabric, api-version 2023-11-01;
 * and the Location poll of ARM's asynchronous operations. Each operation carries its operationId.
 */

const EMBEDDED_SWAGGER =
  'Azure/azure-rest-api-specs specification/powerbidedicated/resource-manager/Microsoft.PowerBIdedicated/stable/2021-01-01/powerbidedicated.json';
const FABRIC_SWAGGER =
  'Azure/azure-rest-api-specs specification/fabric/resource-manager/Microsoft.Fabric/stable/2023-11-01/fabric.json';
const ASYNC_OPERATIONS =
  'https://learn.microsoft.com/azure/azure-resource-manager/management/async-operations (ARM: track asynchronous operations)';

/** ErrorResponse (the A SKU's own, and common-types v5's): `{ "error": { "code", "message", … } }`. */
const errorDetail: ZodType = z.lazy(() =>
  documented({
    code: z.string().optional(),
    message: z.string().optional(),
    target: z.string().optional(),
    details: z.array(errorDetail).optional(),
    additionalInfo: z.array(documented({ type: z.string().optional(), info: z.unknown().optional() })).optional(),
  }),
);

/** ARM's error answer; a code is how anyone tells one error from another (AuthorizationFailed, ResourceNotFound…). */
export const armError = documented({
  error: documented({
    code: z.string().min(1),
    message: z.string().optional(),
    target: z.string().optional(),
    details: z.array(errorDetail).optional(),
    additionalInfo: z.array(z.unknown()).optional(),
  }),
});

/** Retry-After as the swaggers type it: an integer number of seconds. */
const seconds = z.string().regex(/^\d+$/, 'not a whole number of seconds');
/** Location: an absolute URL to poll (ARM's asynchronous pattern). */
const absoluteUrl = z.string().regex(/^https?:\/\/\S+$/, 'not an absolute URL');

const errors: AnswerSpec = {
  content: 'json',
  body: armError,
  headers: {
    'x-ms-request-id': { required: false, value: z.string().min(1) },
    'retry-after': { required: false, value: seconds },
  },
};

const asyncHeaders = (required: boolean): Record<string, HeaderRule> => ({
  location: { required, value: absoluteUrl },
  'retry-after': { required, value: seconds },
});

/** The states the A SKU's DedicatedCapacityProperties give both `state` and `provisioningState`. */
export const EMBEDDED_STATES = [
  'Deleting',
  'Succeeded',
  'Failed',
  'Paused',
  'Suspended',
  'Provisioning',
  'Updating',
  'Suspending',
  'Pausing',
  'Resuming',
  'Preparing',
  'Scaling',
] as const;

/** Fabric's ResourceState (`state`). */
export const FABRIC_STATES = [
  'Active',
  'Provisioning',
  'Failed',
  'Updating',
  'Deleting',
  'Suspending',
  'Suspended',
  'Pausing',
  'Paused',
  'Resuming',
  'Scaling',
  'Preparing',
] as const;

/** Fabric's ProvisioningState. */
export const FABRIC_PROVISIONING_STATES = [
  'Succeeded',
  'Failed',
  'Canceled',
  'Deleting',
  'Provisioning',
  'Updating',
] as const;

const tags = z.record(z.string(), z.string());
const systemData = documented({
  createdBy: z.string().optional(),
  createdByType: z.string().optional(),
  createdAt: z.string().optional(),
  lastModifiedBy: z.string().optional(),
  lastModifiedByType: z.string().optional(),
  lastModifiedAt: z.string().optional(),
});
const administration = documented({ members: z.array(z.string()) });

/** DedicatedCapacity: Resource (location required) with CapacitySku and DedicatedCapacityProperties. */
export const dedicatedCapacity = documented({
  id: z.string().optional(),
  name: z.string().optional(),
  type: z.string().optional(),
  location: z.string(),
  tags: tags.optional(),
  systemData: systemData.optional(),
  sku: documented({
    name: z.string(),
    tier: z.enum(['PBIE_Azure', 'Premium', 'AutoPremiumHost']).optional(),
    capacity: z.int().optional(),
  }),
  properties: documented({
    administration: administration.optional(),
    mode: z.enum(['Gen1', 'Gen2']).optional(),
    tenantId: z.string().optional(),
    friendlyName: z.string().optional(),
    state: z.enum(EMBEDDED_STATES).optional(),
    provisioningState: z.enum(EMBEDDED_STATES).optional(),
  }).optional(),
});

/** FabricCapacity: TrackedResource with RpSku and FabricCapacityProperties (state and administration required). */
export const fabricCapacity = documented({
  id: z.string().optional(),
  name: z.string().optional(),
  type: z.string().optional(),
  location: z.string(),
  tags: tags.optional(),
  systemData: systemData.optional(),
  sku: documented({ name: z.string(), tier: z.literal('Fabric') }),
  properties: documented({
    provisioningState: z.enum(FABRIC_PROVISIONING_STATES).optional(),
    state: z.enum(FABRIC_STATES),
    administration,
  }).optional(),
});

/** DedicatedCapacityUpdateParameters: what a PATCH may send (the portal sends only the SKU's name). */
export const dedicatedCapacityUpdate = z.strictObject({
  sku: z
    .strictObject({
      name: z.string(),
      tier: z.enum(['PBIE_Azure', 'Premium', 'AutoPremiumHost']).optional(),
      capacity: z.int().optional(),
    })
    .optional(),
  tags: tags.optional(),
  properties: z
    .strictObject({
      administration: z.strictObject({ members: z.array(z.string()) }).optional(),
      mode: z.enum(['Gen1', 'Gen2']).optional(),
    })
    .optional(),
});

/** FabricCapacityUpdate. */
export const fabricCapacityUpdate = z.strictObject({
  sku: z.strictObject({ name: z.string().optional(), tier: z.literal('Fabric').optional() }).optional(),
  tags: tags.optional(),
  properties: z
    .strictObject({ administration: z.strictObject({ members: z.array(z.string()).optional() }).optional() })
    .optional(),
});

/** "The name of the … capacity. It must be a minimum of 3 characters, and a maximum of 63." */
const capacityName = z
  .string()
  .min(3)
  .max(63)
  .regex(/^[a-z][a-z0-9]*$/, 'lower-case letters and digits, starting with a letter');
/** ResourceGroupNameParameter (common-types): 1 to 90 characters. */
const resourceGroupName = z.string().min(1).max(90);

const EMBEDDED_PATH =
  '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.PowerBIDedicated/capacities/{dedicatedCapacityName}';
const FABRIC_PATH =
  '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Fabric/capacities/{capacityName}';

const embeddedParams = {
  // The A SKU's SubscriptionIdParameter is a string; Fabric's (common-types v5) a UUID.
  subscriptionId: z.string().min(1),
  resourceGroupName,
  dedicatedCapacityName: capacityName,
};
const fabricParams = { subscriptionId: guid, resourceGroupName, capacityName };

const embeddedQuery = z.strictObject({ 'api-version': z.literal('2021-01-01') });
const fabricQuery = z.strictObject({ 'api-version': z.literal('2023-11-01') });

const embedded = (
  id: string,
  method: Operation['method'],
  suffix: string,
  rest: Pick<Operation, 'answers'> & Partial<Operation>,
): Operation => ({
  service: 'arm',
  id,
  source: `https://learn.microsoft.com/rest/api/power-bi-embedded/capacities (${EMBEDDED_SWAGGER})`,
  method,
  paths: [EMBEDDED_PATH + suffix],
  pathParams: embeddedParams,
  query: embeddedQuery,
  headers: { authorization: bearer },
  errors,
  ...rest,
});

const fabric = (
  id: string,
  method: Operation['method'],
  suffix: string,
  rest: Pick<Operation, 'answers'> & Partial<Operation>,
): Operation => ({
  service: 'arm',
  id,
  source: `https://learn.microsoft.com/rest/api/microsoftfabric/fabric-capacities (${FABRIC_SWAGGER})`,
  method,
  paths: [FABRIC_PATH + suffix],
  pathParams: fabricParams,
  query: fabricQuery,
  headers: { authorization: bearer },
  errors,
  ...rest,
});

export const AZURE_CAPACITY_OPERATIONS: Operation[] = [
  embedded('Capacities_GetDetails', 'GET', '', {
    answers: { 200: { content: 'json', body: dedicatedCapacity } },
  }),
  // The A SKU's swagger gives suspend and resume a 200 and a 202 without body or headers; ARM's long-running pattern
  // adds Location and Retry-After to the 202, so they are checked when present.
  embedded('Capacities_Suspend', 'POST', '/suspend', {
    answers: { 200: { content: 'none' }, 202: { content: 'none', headers: asyncHeaders(false) } },
  }),
  embedded('Capacities_Resume', 'POST', '/resume', {
    answers: { 200: { content: 'none' }, 202: { content: 'none', headers: asyncHeaders(false) } },
  }),
  embedded('Capacities_Update', 'PATCH', '', {
    body: { content: 'json', schema: dedicatedCapacityUpdate },
    answers: {
      200: { content: 'json', body: dedicatedCapacity },
      202: { content: 'json', body: dedicatedCapacity, headers: asyncHeaders(false) },
    },
  }),
  fabric('FabricCapacities_Get', 'GET', '', {
    answers: { 200: { content: 'json', body: fabricCapacity } },
  }),
  // "202: Resource operation accepted", with Location and Retry-After; no other success.
  fabric('FabricCapacities_Suspend', 'POST', '/suspend', {
    answers: { 202: { content: 'none', headers: asyncHeaders(true) } },
  }),
  fabric('FabricCapacities_Resume', 'POST', '/resume', {
    answers: { 202: { content: 'none', headers: asyncHeaders(true) } },
  }),
  fabric('FabricCapacities_Update', 'PATCH', '', {
    body: { content: 'json', schema: fabricCapacityUpdate },
    answers: {
      200: { content: 'json', body: fabricCapacity },
      202: { content: 'none', headers: asyncHeaders(true) },
    },
  }),
  {
    // Not in either swagger: the URL is the provider's (clients follow Location as given). ARM's pattern: 202 with
    // Retry-After while the operation runs; 200 (or 204) once it is done.
    service: 'arm',
    id: 'Location (async operation result)',
    source: ASYNC_OPERATIONS,
    method: 'GET',
    paths: [
      '/subscriptions/{subscriptionId}/providers/Microsoft.PowerBIDedicated/locations/{location}/operationresults/{operationId}',
      '/subscriptions/{subscriptionId}/providers/Microsoft.Fabric/locations/{location}/operationresults/{operationId}',
    ],
    query: z.strictObject({ 'api-version': z.enum(['2021-01-01', '2023-11-01']) }),
    headers: { authorization: bearer },
    answers: {
      200: { content: 'none' },
      202: { content: 'none', headers: asyncHeaders(false) },
      204: { content: 'none' },
    },
    errors,
  },
];
