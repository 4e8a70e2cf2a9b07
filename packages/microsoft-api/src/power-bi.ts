import { z } from 'zod';
import { bearer, dateTime, documented, guid, retryAfter, type AnswerSpec, type Operation } from './operation.ts';

/*
 * The Power BI REST calls the portal makes, from Microsoft's description of the API: the swagger of
 * microsoft/PowerBI-CSharp (sdk/swaggers/swagger.json), which the pages under
 * https://learn.microsoft.com/rest/api/power-bi/ are made from. Each operation carries its operationId.
 */

const SWAGGER = 'microsoft/PowerBI-CSharp sdk/swaggers/swagger.json';
const learn = (page: string) => `https://learn.microsoft.com/rest/api/power-bi/${page} (${SWAGGER})`;

/** PowerBIApiErrorResponseDetail, in the `{ "error": … }` every Power BI error answer is. */
const errorDetail = documented({
  code: z.string().optional(),
  message: z.string().optional(),
  target: z.string().optional(),
});

/**
 * Power BI's error answer: `{ "error": { "code", "message" } }` (PowerBIApiErrorResponseDetail; the swagger marks
 * nothing required, but a code is how anyone tells one error from another), named by the RequestId header.
 */
export const powerBiError = documented({
  error: documented({
    code: z.string().min(1),
    message: z.string().optional(),
    target: z.string().optional(),
    details: z.array(errorDetail).optional(),
  }),
});

const errors: AnswerSpec = {
  content: 'json',
  body: powerBiError,
  headers: {
    requestid: { required: true, value: z.string().min(1) },
    'retry-after': { required: false, value: retryAfter },
  },
};

/** User (the principal of a ReportUser or SubscriptionUser). */
const user = {
  emailAddress: z.string().optional(),
  displayName: z.string().optional(),
  identifier: z.string(),
  graphId: z.string().optional(),
  userType: z.string().optional(),
  // PrincipalType is an extensible enum (modelAsExtensible): other values may come.
  principalType: z.string(),
  profile: documented({ id: guid, displayName: z.string().optional() }).optional(),
};

/** Report: ReportBaseProperties, ReportNavigationProperties, ReportUserProperties and SubscriptionProperties. */
export const report = documented({
  id: guid,
  name: z.string().optional(),
  datasetId: z.string().optional(),
  appId: z.string().optional(),
  description: z.string().optional(),
  reportType: z.enum(['PaginatedReport', 'PowerBIReport']).optional(),
  originalReportId: guid.optional(),
  isOwnedByMe: z.boolean().optional(),
  webUrl: z.string().optional(),
  embedUrl: z.string().optional(),
  users: z.array(documented({ ...user, reportUserAccessRight: z.string() })).optional(),
  subscriptions: z
    .array(
      documented({
        id: guid,
        title: z.string().optional(),
        artifactId: guid.optional(),
        artifactDisplayName: z.string().optional(),
        subArtifactDisplayName: z.string().optional(),
        artifactType: z.string().optional(),
        isEnabled: z.boolean().optional(),
        frequency: z.string().optional(),
        startDate: dateTime.optional(),
        endDate: dateTime.optional(),
        linkToContent: z.boolean().optional(),
        previewImage: z.boolean().optional(),
        attachmentFormat: z.string().optional(),
        users: z.array(documented({ ...user, emailAddress: z.string() })).optional(),
      }),
    )
    .optional(),
});

/**
 * EffectiveIdentity, with the limits its description gives: a username of at most 256 ASCII characters (for
 * cloud models; fewer characters still on premises) and no spaces; at most 50 roles, each at most 50 characters
 * and without a comma.
 */
export const effectiveIdentity = z.strictObject({
  username: z
    .string()
    .max(256)
    .regex(/^[\x20-\x7e]*$/, 'the username must be ASCII')
    .refine((name) => !name.includes(' '), 'the username must not contain spaces'),
  roles: z
    .array(
      z
        .string()
        .max(50)
        .refine((role) => !role.includes(','), 'a role must not contain a comma'),
    )
    .max(50)
    .optional(),
  datasets: z.array(z.string()).optional(),
  customData: z.string().optional(),
  identityBlob: z.strictObject({ value: z.string() }).optional(),
  reports: z.array(z.string()).optional(),
  auditableContext: z.string().optional(),
});

/** GenerateTokenRequestV2; its Limitations: at most 50 reports, 50 datasets and 50 target workspaces. */
export const generateTokenRequest = z.strictObject({
  datasets: z
    .array(z.strictObject({ id: z.string(), xmlaPermissions: z.enum(['Off', 'ReadOnly']).optional() }))
    .max(50)
    .optional(),
  reports: z
    .array(z.strictObject({ id: guid, allowEdit: z.boolean().optional() }))
    .max(50)
    .optional(),
  targetWorkspaces: z
    .array(z.strictObject({ id: guid }))
    .max(50)
    .optional(),
  identities: z.array(effectiveIdentity).optional(),
  lifetimeInMinutes: z.int().min(0).optional(),
  datasourceIdentities: z
    .array(
      z.strictObject({
        identityBlob: z.string(),
        datasources: z.array(
          z.strictObject({
            datasourceType: z.string(),
            connectionDetails: z.strictObject({
              server: z.string().optional(),
              database: z.string().optional(),
              url: z.string().optional(),
              path: z.string().optional(),
              kind: z.string().optional(),
              account: z.string().optional(),
              domain: z.string().optional(),
              emailAddress: z.string().optional(),
              loginServer: z.string().optional(),
              classInfo: z.string().optional(),
            }),
          }),
        ),
      }),
    )
    .optional(),
});

export const embedToken = documented({ token: z.string().min(1), tokenId: guid, expiration: dateTime });

/** PageBookmark: "Provide name or state, but not both." */
const pageBookmark = z
  .strictObject({ name: z.string().optional(), state: z.string().optional() })
  .refine((bookmark) => (bookmark.name === undefined) !== (bookmark.state === undefined), {
    message: 'a bookmark has a name or a state, not both and not neither',
  });

/** ExportReportRequest with PowerBIReportExportConfiguration and PaginatedReportExportConfiguration. */
export const exportReportRequest = z.strictObject({
  format: z.enum(['PPTX', 'PDF', 'PNG', 'IMAGE', 'XLSX', 'DOCX', 'CSV', 'XML', 'MHTML', 'ACCESSIBLEPDF']),
  powerBIReportConfiguration: z
    .strictObject({
      settings: z
        .strictObject({ locale: z.string().optional(), includeHiddenPages: z.boolean().optional() })
        .optional(),
      datasetToBind: z.string().optional(),
      defaultBookmark: pageBookmark.optional(),
      // "Currently, only one filter is supported."
      reportLevelFilters: z
        .array(z.strictObject({ filter: z.string().optional() }))
        .max(1)
        .optional(),
      pages: z
        .array(
          z.strictObject({
            pageName: z.string(),
            visualName: z.string().optional(),
            bookmark: pageBookmark.optional(),
          }),
        )
        .optional(),
      identities: z.array(effectiveIdentity).optional(),
    })
    .optional(),
  paginatedReportConfiguration: z
    .strictObject({
      identities: z.array(effectiveIdentity).optional(),
      formatSettings: z.record(z.string(), z.string()).optional(),
      parameterValues: z
        .array(z.strictObject({ name: z.string().optional(), value: z.string().optional() }))
        .optional(),
    })
    .optional(),
});

/**
 * Export. The swagger's definition spells the extension `ResourceFileExtension` while its own example (and the
 * .NET SDK's callers) read `resourceFileExtension`: both are Microsoft's spelling, so both are accepted.
 */
export const exportJob = documented({
  id: z.string().optional(),
  createdDateTime: dateTime.optional(),
  lastActionDateTime: dateTime.optional(),
  reportId: guid.optional(),
  reportName: z.string().optional(),
  status: z.enum(['Undefined', 'NotStarted', 'Running', 'Succeeded', 'Failed']).optional(),
  percentComplete: z.int().min(0).max(100).optional(),
  resourceLocation: z.string().optional(),
  ResourceFileExtension: z.string().optional(),
  resourceFileExtension: z.string().optional(),
  expirationTime: dateTime.optional(),
});

const reportParams = { groupId: guid, reportId: guid };
const exportParams = { ...reportParams, exportId: z.string().min(1) };
const withRetryAfter = { 'retry-after': { required: false, value: retryAfter } };

export const POWER_BI_OPERATIONS: Operation[] = [
  {
    service: 'power-bi',
    id: 'Reports_GetReportInGroup',
    source: learn('reports/get-report-in-group'),
    method: 'GET',
    paths: ['/v1.0/myorg/groups/{groupId}/reports/{reportId}'],
    pathParams: reportParams,
    headers: { authorization: bearer },
    answers: { 200: { content: 'json', body: report } },
    errors,
  },
  {
    service: 'power-bi',
    id: 'EmbedToken_GenerateToken',
    source: learn('embed-token/generate-token'),
    method: 'POST',
    paths: ['/v1.0/myorg/GenerateToken'],
    headers: { authorization: bearer },
    body: { content: 'json', schema: generateTokenRequest },
    answers: { 200: { content: 'json', body: embedToken } },
    errors,
  },
  {
    service: 'power-bi',
    id: 'Reports_ExportToFileInGroup',
    source: learn('reports/export-to-file-in-group'),
    method: 'POST',
    paths: ['/v1.0/myorg/groups/{groupId}/reports/{reportId}/ExportTo'],
    pathParams: reportParams,
    headers: { authorization: bearer },
    body: { content: 'json', schema: exportReportRequest },
    answers: { 202: { content: 'json', body: exportJob, headers: withRetryAfter } },
    errors,
  },
  {
    service: 'power-bi',
    id: 'Reports_GetExportToFileStatusInGroup',
    source: learn('reports/get-export-to-file-status-in-group'),
    method: 'GET',
    paths: ['/v1.0/myorg/groups/{groupId}/reports/{reportId}/exports/{exportId}'],
    pathParams: exportParams,
    headers: { authorization: bearer },
    // Power BI says how long to wait before polling again in Retry-After, though not on every answer
    // (https://learn.microsoft.com/power-bi/developer/embedded/export-to, "Polling").
    answers: {
      200: { content: 'json', body: exportJob, headers: withRetryAfter },
      202: { content: 'json', body: exportJob, headers: withRetryAfter },
    },
    errors,
  },
  {
    service: 'power-bi',
    id: 'Reports_GetFileOfExportToFileInGroup',
    source: learn('reports/get-file-of-export-to-file-in-group'),
    method: 'GET',
    paths: ['/v1.0/myorg/groups/{groupId}/reports/{reportId}/exports/{exportId}/file'],
    pathParams: exportParams,
    headers: { authorization: bearer },
    answers: { 200: { content: 'file' } },
    errors,
  },
];
