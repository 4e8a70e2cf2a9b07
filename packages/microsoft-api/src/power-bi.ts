import { z, type ZodType } from 'zod';
import {
  always,
  bearer,
  dateTime,
  documented,
  guid,
  retryAfter,
  type AnswerSpec,
  type Operation,
} from './operation.ts';

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
  // Not Microsoft's field of Report: the swagger has it only in the admin scanner's RelatedDatasetProperties,
  // "returned only if the related dataset belongs to a different workspace", and neither Get Reports In Group's nor
  // Get Report In Group's example carries it. Live answers are reported to carry it, so it is accepted (a GUID) when
  // it comes, and never expected: a client may not rely on it.
  datasetWorkspaceId: guid.optional(),
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

/**
 * An OData collection (Groups, Reports, Pages, Datasets, Refreshes). The swagger names the context `odata.context`; the live
 * API and the OData JSON format write `@odata.context`: either is Microsoft's.
 */
function collection(item: ZodType) {
  return documented({
    'odata.context': z.string().optional(),
    '@odata.context': z.string().optional(),
    value: z.array(item),
  });
}

/** Group: GroupBaseProperties and GroupExtendedProperties (a workspace). */
export const group = documented({
  id: guid,
  name: z.string().optional(),
  isReadOnly: z.boolean().optional(),
  isOnDedicatedCapacity: z.boolean().optional(),
  capacityId: guid.optional(),
  dataflowStorageId: guid.optional(),
  defaultDatasetStorageFormat: z.string().optional(),
  logAnalyticsWorkspace: z.unknown().optional(),
});

/**
 * Page. The swagger types `order` as an int32, while its own example (and so Microsoft's page of the call) writes
 * it as a string ("0"): both are Microsoft's, so both are accepted.
 */
export const reportPage = documented({
  name: z.string().optional(),
  displayName: z.string().optional(),
  order: z.union([z.int(), z.string().regex(/^\d+$/, 'not a whole number')]).optional(),
});

/**
 * Dataset: DatasetBaseProperties, …NavigationProperties, …SecurityProperties, …UserProperties, …MiscProperties,
 * DatasetStorageMode and queryScaleOutSettings. The swagger's definitions capitalise some fields (`IsRefreshable`,
 * `IsEffectiveIdentityRequired`, `CreatedDate`…), while its own example, Microsoft's page of the call and the live
 * API write them in camelCase (`isRefreshable`, `isEffectiveIdentityRequired`…): both spellings are Microsoft's and
 * both are accepted, and a client must read either. targetStorageMode: 'Abf' (import), 'PremiumFiles' (large
 * models), 'Unknown'; the swagger gives no list.
 */
export const dataset = documented({
  id: z.string(),
  name: z.string().optional(),
  configuredBy: z.string().optional(),
  CreatedDate: dateTime.optional(),
  createdDate: dateTime.optional(),
  ContentProviderType: z.string().optional(),
  contentProviderType: z.string().optional(),
  description: z.string().optional(),
  upstreamDataflows: z.array(z.unknown()).optional(),
  CreateReportEmbedURL: z.string().optional(),
  createReportEmbedURL: z.string().optional(),
  QnaEmbedURL: z.string().optional(),
  qnaEmbedURL: z.string().optional(),
  webUrl: z.string().optional(),
  IsEffectiveIdentityRequired: z.boolean().optional(),
  isEffectiveIdentityRequired: z.boolean().optional(),
  IsEffectiveIdentityRolesRequired: z.boolean().optional(),
  isEffectiveIdentityRolesRequired: z.boolean().optional(),
  IsOnPremGatewayRequired: z.boolean().optional(),
  isOnPremGatewayRequired: z.boolean().optional(),
  Encryption: z.unknown().optional(),
  encryption: z.unknown().optional(),
  users: z.array(z.unknown()).optional(),
  addRowsAPIEnabled: z.boolean().optional(),
  IsRefreshable: z.boolean().optional(),
  isRefreshable: z.boolean().optional(),
  IsInPlaceSharingEnabled: z.boolean().optional(),
  isInPlaceSharingEnabled: z.boolean().optional(),
  targetStorageMode: z.string().optional(),
  queryScaleOutSettings: documented({
    autoSyncReadOnlyReplicas: z.boolean().optional(),
    maxReadOnlyReplicas: z.int().min(-1).max(64).optional(),
  }).optional(),
});

/**
 * serviceExceptionJson: "Failure error code in JSON format (empty if no error)", so a text that parses as JSON, or an
 * empty text.
 */
const exceptionJson = z.string().refine((text) => {
  if (text === '') return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}, 'not JSON text');

/**
 * Refresh: a refresh history entry. `status` is a string whose description lists four values: Unknown (the
 * completion state is unknown, or the refresh is in progress; endTime "may be empty"), Completed, Failed
 * ("serviceExceptionJson will contain the error code") and Disabled (by a selective refresh); enhanced refresh adds
 * Cancelled ("the refresh was canceled successfully") and `extendedStatus`, which "augments the status property"
 * (https://learn.microsoft.com/power-bi/connect-data/asynchronous-refresh, "GET /refreshes", whose example has an
 * Unknown entry with extendedStatus NotStarted). extendedStatus's values are the swagger's
 * DatasetRefreshDetail.extendedStatus. refreshType is an extensible enum (modelAsExtensible): other values may come.
 */
export const refresh = documented({
  refreshType: z.string().optional(),
  startTime: dateTime.optional(),
  endTime: dateTime.optional(),
  serviceExceptionJson: exceptionJson.optional(),
  status: z.enum(['Unknown', 'Completed', 'Failed', 'Disabled', 'Cancelled']).optional(),
  extendedStatus: z
    .enum(['Unknown', 'NotStarted', 'InProgress', 'Completed', 'TimedOut', 'Failed', 'Disabled', 'Cancelled'])
    .optional(),
  requestId: z.string().optional(),
  refreshAttempts: z
    .array(
      documented({
        attemptId: z.int().optional(),
        startTime: dateTime.optional(),
        endTime: dateTime.optional(),
        serviceExceptionJson: exceptionJson.optional(),
        type: z.string().optional(),
      }),
    )
    .optional(),
}).superRefine((entry, ctx) => {
  if (entry.status === 'Failed' && entry.serviceExceptionJson === undefined) {
    ctx.addIssue({ code: 'custom', path: ['serviceExceptionJson'], message: 'a Failed refresh carries its error' });
  }
  if ((entry.status === 'Completed' || entry.status === 'Failed') && entry.endTime === undefined) {
    ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'a refresh that ended has an endTime' });
  }
}, always);

/**
 * DirectQueryRefreshSchedule: "A Power BI refresh schedule for DirectQuery or LiveConnection, specifying either the
 * frequency or a combination of days and times": frequency in minutes ("Supported values are 15, 30, 60, 120, and
 * 180"), days of the week (an extensible enum), times as hh:mm with minutes "only 00 or 30", a time zone id.
 */
export const directQueryRefreshSchedule = documented({
  frequency: z.union([z.literal(15), z.literal(30), z.literal(60), z.literal(120), z.literal(180)]).optional(),
  days: z.array(z.string()).optional(),
  times: z.array(z.string().regex(/^([01]\d|2[0-3]):(00|30)$/, 'a time is hh:mm, minutes 00 or 30')).optional(),
  localTimeZoneId: z.string().optional(),
});

/**
 * RefreshSchedule: "A Power BI refresh schedule for imported model": days of the week, times as hh:mm ("the hours of
 * the day to refresh"; the service takes whole and half hours), whether it is enabled, a time zone id, and whom to
 * mail.
 */
export const refreshSchedule = documented({
  days: z.array(z.enum(['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'])).optional(),
  times: z.array(z.string().regex(/^([01]\d|2[0-3]):(00|30)$/, 'a time is hh:mm, minutes 00 or 30')).optional(),
  enabled: z.boolean().optional(),
  localTimeZoneId: z.string().optional(),
  notifyOption: z.enum(['NoNotification', 'MailOnFailure', 'MailOnCompletion']).optional(),
});

/** An OData integer query option, as the query string carries it. */
const wholeNumber = (min: number) =>
  z
    .string()
    .refine(
      (text) => /^\d+$/.test(text) && Number(text) >= min && Number(text) <= 2_147_483_647,
      `not a whole number (int32) of ${min} or more`,
    );

const reportParams = { groupId: guid, reportId: guid };
/** The swagger types datasetId as a plain string (not a uuid), unlike groupId. */
const datasetParams = { groupId: guid, datasetId: z.string().min(1) };
const exportParams = { ...reportParams, exportId: z.string().min(1) };
const withRetryAfter = { 'retry-after': { required: false, value: retryAfter } };

export const POWER_BI_OPERATIONS: Operation[] = [
  {
    service: 'power-bi',
    id: 'Groups_GetGroups',
    source: learn('groups/get-groups'),
    method: 'GET',
    paths: ['/v1.0/myorg/groups'],
    // Neither $top nor $skip has a documented limit; Power BI gives no next link, so a client pages with both.
    query: z.strictObject({
      $filter: z.string().min(1).optional(),
      $top: wholeNumber(0).optional(),
      $skip: wholeNumber(0).optional(),
    }),
    headers: { authorization: bearer },
    answers: { 200: { content: 'json', body: collection(group) } },
    errors,
  },
  {
    service: 'power-bi',
    id: 'Reports_GetReportsInGroup',
    source: learn('reports/get-reports-in-group'),
    method: 'GET',
    paths: ['/v1.0/myorg/groups/{groupId}/reports'],
    pathParams: { groupId: guid },
    headers: { authorization: bearer },
    answers: { 200: { content: 'json', body: collection(report) } },
    errors,
  },
  {
    service: 'power-bi',
    id: 'Reports_GetPagesInGroup',
    source: learn('reports/get-pages-in-group'),
    method: 'GET',
    paths: ['/v1.0/myorg/groups/{groupId}/reports/{reportId}/pages'],
    pathParams: reportParams,
    headers: { authorization: bearer },
    answers: { 200: { content: 'json', body: collection(reportPage) } },
    errors,
  },
  {
    service: 'power-bi',
    id: 'Datasets_GetDatasetsInGroup',
    source: learn('datasets/get-datasets-in-group'),
    method: 'GET',
    paths: ['/v1.0/myorg/groups/{groupId}/datasets'],
    pathParams: { groupId: guid },
    // The swagger gives the call no query option (no $filter, no paging): every dataset of the workspace at once.
    headers: { authorization: bearer },
    answers: { 200: { content: 'json', body: collection(dataset) } },
    errors,
  },
  {
    service: 'power-bi',
    id: 'Datasets_GetRefreshHistoryInGroup',
    source: learn('datasets/get-refresh-history-in-group'),
    method: 'GET',
    paths: ['/v1.0/myorg/groups/{groupId}/datasets/{datasetId}/refreshes'],
    pathParams: datasetParams,
    // "$top: The requested number of entries… If not provided, the default is the last available 60 entries";
    // minimum 1.
    query: z.strictObject({ $top: wholeNumber(1).optional() }),
    headers: { authorization: bearer },
    answers: { 200: { content: 'json', body: collection(refresh) } },
    errors,
  },
  {
    service: 'power-bi',
    id: 'Datasets_GetDirectQueryRefreshScheduleInGroup',
    // "Returns the refresh schedule for a specified DirectQuery or LiveConnection dataset from the specified
    // workspace": what the portal reads as a dataset being DirectQuery or a live connection (docs/decisions/019).
    source: learn('datasets/get-direct-query-refresh-schedule-in-group'),
    method: 'GET',
    paths: ['/v1.0/myorg/groups/{groupId}/datasets/{datasetId}/directQueryRefreshSchedule'],
    pathParams: datasetParams,
    headers: { authorization: bearer },
    answers: { 200: { content: 'json', body: directQueryRefreshSchedule } },
    errors,
  },
  {
    service: 'power-bi',
    id: 'Datasets_GetRefreshScheduleInGroup',
    // "Returns the refresh schedule for the specified dataset from the specified workspace": when the capacity must
    // be running for a scheduled refresh (issue 40).
    source: learn('datasets/get-refresh-schedule-in-group'),
    method: 'GET',
    paths: ['/v1.0/myorg/groups/{groupId}/datasets/{datasetId}/refreshSchedule'],
    pathParams: datasetParams,
    headers: { authorization: bearer },
    answers: { 200: { content: 'json', body: refreshSchedule } },
    errors,
  },
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
