import type { Exchange } from '@paineis/microsoft-api/exchange';

/**
 * Local stand-ins for the Microsoft services the portal talks to: Entra ID (OpenID Connect), Microsoft Graph
 * (users, the portal's service principal with its app role assignments, group members) and Power BI. They run on loopback for the demo and the tests; the portal's real HTTP
 * clients talk to them exactly as they would to Microsoft.
 */

/** A person of the stand-in directory (Graph) who may also sign in (Entra ID). */
export interface StandInPerson {
  /** Entra object id (the `oid` claim and Graph `id`). */
  id: string;
  displayName: string;
  /** Graph `mail`; may be null for accounts without a mailbox (Graph then still has userPrincipalName). */
  mail: string | null;
  /** Graph `userPrincipalName`; a guest's is made from their home address, e.g. `ana_parceiro.com#EXT#@…`. */
  userPrincipalName: string;
  /** Graph `userType` (default 'Member'): a guest comes from another tenant. */
  userType?: 'Member' | 'Guest';
  /**
   * The ID token's `email` claim when it is not Graph's `mail` (default: `mail`): a guest's is the address of their
   * home tenant, which the resource tenant does not verify. A guest's `preferred_username` is this address too.
   */
  emailClaim?: string;
  department?: string | null;
  jobTitle?: string | null;
  officeLocation?: string | null;
  /** Disabled accounts are left out by Graph's `$filter=accountEnabled eq true` and cannot sign in. */
  accountEnabled?: boolean;
  /**
   * Entra app roles of the portal's application assigned to the person (e.g. ['Admin']): sent in the ID token's
   * `roles` claim and listed by Graph in the service principal's appRoleAssignedTo.
   */
  appRoles?: string[];
  /** Listed as a button on the stand-in's sign-in page. */
  showOnSignIn?: boolean;
}

/**
 * A group of the stand-in directory (Graph): a security group, or a Microsoft 365 group (`groupTypes: ['Unified']`);
 * it may hold app roles of the portal's application.
 */
export interface StandInGroup {
  /** Entra object id: a GUID, as Graph requires in /v1.0/groups/{id}. */
  id: string;
  displayName: string;
  /** Graph `description` (default null). */
  description?: string | null;
  /** Graph `securityEnabled` (default true; false for a Microsoft 365 group). */
  securityEnabled?: boolean;
  /** Graph `mailEnabled` (default false; true for a Microsoft 365 group). */
  mailEnabled?: boolean;
  /** Graph `groupTypes` (default []): ['Unified'] for a Microsoft 365 group. */
  groupTypes?: string[];
  /** Graph `mail` (default null), e.g. a Microsoft 365 group's address. */
  mail?: string | null;
  /**
   * Graph `visibility`: who may join a Microsoft 365 group and see its content. 'Public': anyone in the organisation,
   * unapproved; 'Private' and 'HiddenMembership': only whom its owners add. Default as Graph creates groups: 'Public'
   * for a Microsoft 365 group, null for a security group.
   */
  visibility?: 'Public' | 'Private' | 'HiddenMembership' | null;
  /**
   * Graph `createdDateTime` (ISO 8601, UTC). Default: a fixed date for the groups the stand-ins start with, the
   * moment it was added for a group added later.
   */
  createdDateTime?: string;
  /** Direct members: ids of people and, for nested groups, of other groups. */
  members: string[];
  /**
   * Entra app roles of the portal's application assigned to the group (e.g. ['Admin']). Listed by Graph in the
   * service principal's appRoleAssignedTo; Entra puts them in the `roles` claim of the group's direct members
   * only (a group assignment does not cascade to members of nested groups).
   */
  appRoles?: string[];
}

/** Ways the identity provider can be told to fail, once each, for tests of the portal's error paths. */
export type IdentityFailure =
  /** authorize redirects back with error=access_denied (as when the person cancels). */
  | 'access_denied'
  /** the token endpoint answers 400 invalid_grant. */
  | 'invalid_grant'
  /** the ID token is signed with a key that is not in the JWKS. */
  | 'bad_signature'
  /** the ID token's `aud` is another application. */
  | 'wrong_audience'
  /** the ID token's `nonce` is not the one the portal sent. */
  | 'wrong_nonce'
  /** the ID token expired an hour ago. */
  | 'expired_id_token';

/**
 * How a stand-in hangs: `headers` accepts the request and never answers; `body` answers 200 with headers and the
 * first half of a body, and never finishes it.
 */
export type StandInHang = 'headers' | 'body';

/**
 * A 200 the portal cannot use: `not-json` (JSON content type, a text body); `wrong-shape` (valid JSON, not what the
 * endpoint answers: missing or mistyped fields); `truncated` (the Content-Length of a whole answer, half of it, then
 * the connection closes); `wrong-content-type` (an HTML page, as a proxy or captive portal answers in its place).
 */
export type StandInGarbage = 'not-json' | 'wrong-shape' | 'truncated' | 'wrong-content-type';

/**
 * The Retry-After of a simulated 429: delay-seconds (any size, e.g. a year's worth), a string sent verbatim (an
 * HTTP-date, or nonsense), or null for none at all.
 */
export type StandInRetryAfter = number | string | null;

/**
 * Faults a stand-in service (or endpoint) plays, one per request, for the requests it would otherwise serve (not for
 * those it refuses, e.g. without a valid token). One queue per service, in request order: after `afterRequests`
 * (default 0) more requests are served normally, the following `times` (default 1) get the fault.
 */
export interface StandInFaults {
  /** An error status (400–599) in the service's own error shape. */
  failNext(status: number, times?: number, afterRequests?: number): void;
  /** 429 in the service's error shape, with this Retry-After. */
  throttleNext(retryAfter: StandInRetryAfter, times?: number, afterRequests?: number): void;
  /** No answer ('headers', the default), or headers and half a body ('body'), until the client gives up or reset. */
  hangNext(times?: number, afterRequests?: number, stage?: StandInHang): void;
  /** A 200 the portal cannot use. */
  garbageNext(garbage: StandInGarbage, times?: number, afterRequests?: number): void;
}

export interface GraphRequestLog {
  url: string;
  /** 0 when it never answered (a hang). */
  status: number;
  /** Whether the request carried a valid stand-in access token for Graph (true too when it lacked the permission). */
  authorized: boolean;
  /** The fault played instead of the answer, e.g. 'hang:headers', 'garbage:not-json'. */
  fault?: string;
}

/** A message Graph's sendMail accepted, as the stand-in keeps it (instead of delivering it). */
export interface StandInSentMail {
  /** The stand-in's id for it (a GUID). */
  id: string;
  /** The sending mailbox's address (its `mail`). */
  from: string;
  to: { address: string; name: string | null }[];
  cc: { address: string; name: string | null }[];
  bcc: { address: string; name: string | null }[];
  subject: string;
  body: { contentType: 'HTML' | 'Text'; content: string };
  /** The custom internetMessageHeaders, by name as sent (e.g. `X-Paineis-Envio`). */
  headers: Record<string, string>;
  /** When the stand-in accepted it (ISO 8601, UTC). */
  receivedAt: string;
  /** The file attachments, decoded. */
  attachments: { name: string; contentType: string; content: Buffer }[];
}

/** What backs a workspace: a dedicated capacity (Premium, Embedded, Fabric), Premium Per User, or shared. */
export type StandInCapacity = 'Premium' | 'Embedded' | 'Fabric' | 'PremiumPerUser' | 'Shared';

/** A Power BI report the stand-in serves, in a workspace, over one dataset. */
export interface StandInReport {
  workspaceId: string;
  reportId: string;
  name: string;
  /** A paginated report's is never served: Microsoft's Get Reports In Group sends no dataset ID for one. */
  datasetId: string;
  /**
   * Default 'PowerBIReport'. A 'PaginatedReport' (RDL) is listed as Microsoft documents one: reportType
   * 'PaginatedReport' and no datasetId ("Since paginated reports (RDL) don't have a dataset, the dataset ID value in
   * the API response for paginated reports isn't displayed", https://learn.microsoft.com/rest/api/power-bi/reports/get-reports-in-group).
   */
  reportType?: 'PowerBIReport' | 'PaginatedReport';
  /**
   * Default true. False: the report is served without its reportType, as Microsoft allows ("The API returns a subset
   * of the following list of report properties. The subset depends on the API called, caller permissions, and the
   * availability of data", swagger, Report).
   */
  reportTypeSent?: boolean;
  /** The dataset has RLS roles: GenerateToken then requires an effective identity, and refuses one otherwise. */
  rls: boolean;
  /**
   * The report's 'Export data' setting (or the tenant's) off: the embed page's exportData answers 403
   * ExportDataFailed, as Power BI refuses then. Default false.
   */
  exportDataDisabled?: boolean;
  /** How many underlying rows each page's visuals have (report-state.ts underlyingRow). Default 60. */
  underlyingRows?: number;
  /** Report pages; visibility 0 = visible, 1 = hidden. Default: three visible pages and one hidden. */
  pages?: { name: string; displayName: string; visibility: 0 | 1 }[];
  /**
   * What backs the report's workspace. Export to file needs a Premium, Embedded or Fabric capacity: ExportTo is
   * refused on shared capacity ('Shared') and on Premium Per User ('PremiumPerUser'). Default 'Embedded'.
   */
  capacity?: StandInCapacity;
  /** The capacity's id: the concurrent-export limit counts per capacity. Default: one capacity for every report. */
  capacityId?: string;
  /**
   * Whether the portal's service principal has Write permission on the semantic model, which an export with an
   * effective identity (RLS) needs; exports without one don't. Default true.
   */
  datasetWritePermission?: boolean;
  /** The report's sensitivity label (its name): a service principal can't export a labelled report. Default none. */
  sensitivityLabel?: string;
}

/** A Power BI workspace (a Group in the REST API). */
export interface StandInWorkspace {
  /** A GUID, as Power BI's workspace ids are. */
  id: string;
  name: string;
}

/**
 * How a dataset holds its data: 'Import' (refreshed into the model, targetStorageMode 'Abf'), 'LargeImport' (the
 * large storage format, 'PremiumFiles'), 'DirectQuery' and 'LiveConnection' (queried at the source: not refreshable,
 * and no refresh history).
 */
export type StandInStorageMode = 'Import' | 'LargeImport' | 'DirectQuery' | 'LiveConnection';

/** One entry of a dataset's refresh history (Refresh in Power BI's REST API description). */
export interface StandInRefresh {
  /**
   * 'Unknown' is a refresh in progress (or one whose end Power BI does not know): it has no endTime. 'Cancelled': an
   * enhanced refresh cancelled (https://learn.microsoft.com/power-bi/connect-data/asynchronous-refresh, "GET
   * /refreshes": "`Cancelled` indicates the refresh was canceled successfully"). 'Disabled': disabled by a selective
   * refresh.
   */
  status: 'Unknown' | 'Completed' | 'Failed' | 'Disabled' | 'Cancelled';
  /**
   * An enhanced refresh's extendedStatus, which "augments the status property" (same page; its values are the
   * swagger's DatasetRefreshDetail.extendedStatus), e.g. 'NotStarted' on a queued 'Unknown'. Absent by default.
   */
  extendedStatus?:
    'Unknown' | 'NotStarted' | 'InProgress' | 'Completed' | 'TimedOut' | 'Failed' | 'Disabled' | 'Cancelled';
  /** Default 'Scheduled'. */
  refreshType?: 'Scheduled' | 'OnDemand' | 'ViaApi' | 'ViaXmlaEndpoint' | 'ViaEnhancedApi' | 'OnDemandTraining';
  /** ISO 8601, UTC. */
  startTime: string;
  /** Absent while in progress. */
  endTime?: string;
  /**
   * On a 'Failed' refresh: Power BI's error, as JSON text (e.g. '{"errorCode":"…","errorDescription":"…"}'). An empty
   * text is sent as such: the swagger's Refresh says "empty if no error".
   */
  serviceExceptionJson?: string;
}

/**
 * A dataset (semantic model) the reports use. A dataset no StandInDataset describes is an Import dataset in its
 * reports' workspace, named after its first report, with one Completed refresh an hour before the stand-ins started.
 */
export interface StandInDataset {
  datasetId: string;
  /** Default: the workspace of the first report over it. */
  workspaceId?: string;
  /** Default: the name of the first report over it. */
  name?: string;
  /** Default 'Import'. */
  storageMode?: StandInStorageMode;
  /**
   * Microsoft's IsRefreshable, for an import model: true "when the dataset is either recently refreshed or is
   * configured for automatic refresh" (swagger, DatasetMiscProperties). Default true; false plays an import model
   * with no schedule and no recent refresh, whose history still says when its data last refreshed. DirectQuery and
   * live connections are always false.
   */
  isRefreshable?: boolean;
  /**
   * The refresh history, newest first (the order Power BI lists it in). Default: one Completed refresh for an import
   * dataset, none for DirectQuery and live connections.
   */
  refreshes?: StandInRefresh[];
  /**
   * A refresh history that follows the clock instead of `refreshes` (which is then ignored): see StandInRefreshCycle.
   * Only for an import model (a DirectQuery or live-connection dataset keeps its empty history). A demo and test
   * device, not something Power BI has.
   */
  refreshCycle?: StandInRefreshCycle;
  /**
   * Its scheduled refresh (Datasets_GetRefreshScheduleInGroup's RefreshSchedule): the days and times (hh:mm, minutes
   * 00 or 30) in its time zone. Default for an import model: every day at 06:00 and 18:00, 'E. South America Standard
   * Time', enabled; a DirectQuery or live-connection dataset has none (the call is refused, as for a DirectQuery
   * schedule of an import model: the project's assumption).
   */
  refreshSchedule?: StandInRefreshSchedule;
}

/**
 * A dataset refreshed on a fixed cycle, computed from the clock (Date.now(), which vitest's fake timers move) at each
 * request, with no timer: cycle k starts at k × everyMs since the Unix epoch, so every stand-in, restarted or not,
 * plays the same history. A refresh runs from each cycle's start for durationMs ('Unknown', no endTime), then ends
 * 'Completed', or 'Failed' on every failEvery-th cycle (k % failEvery === failEvery − 1), the next one completing
 * again. The history is the current cycle's refresh and those before it, newest first, as many as asked ($top, else
 * Power BI's 60). A demo and test device (the demo shows a refresh and a failure within minutes), not Power BI's
 * behaviour.
 */
export interface StandInRefreshCycle {
  /** Time between two refreshes' starts (ms, a whole number above 0). */
  everyMs: number;
  /** How long each refresh runs (ms, at least 0 and below everyMs). */
  durationMs: number;
  /** Every this many cycles one fails (a whole number of 1 or more; 1 fails them all). Absent: none fails. */
  failEvery?: number;
  /**
   * The failed refreshes' serviceExceptionJson (Power BI's error as JSON text). Default: a processing error
   * (REFRESH_CYCLE_FAILURE in power-bi-catalogue.ts).
   */
  failure?: string;
  /** Default 'Scheduled'. */
  refreshType?: StandInRefresh['refreshType'];
}

/** A dataset's scheduled refresh, as Power BI's RefreshSchedule has it. */
export interface StandInRefreshSchedule {
  days: ('Sunday' | 'Monday' | 'Tuesday' | 'Wednesday' | 'Thursday' | 'Friday' | 'Saturday')[];
  times: string[];
  enabled: boolean;
  localTimeZoneId: string;
  notifyOption?: 'NoNotification' | 'MailOnFailure' | 'MailOnCompletion';
}

/** One call to the stand-in Power BI REST API, for tests to inspect. */
export interface PowerBiRequestLog {
  method: string;
  /** Path and query, e.g. /v1.0/myorg/GenerateToken. */
  path: string;
  /** 0 when it never answered (a hang). */
  status: number;
  /** The fault played instead of the answer, e.g. 'hang:body', 'garbage:wrong-shape'. */
  fault?: string;
  /** The parsed JSON body, when there was one. */
  body?: unknown;
  /** The RequestId header of the answer, as Power BI names each call. */
  requestId?: string;
}

/** One export-to-file job (ExportTo), as the stand-in understood its request, for tests to inspect. */
export interface PowerBiExportLog {
  /** The export id Power BI answered (base64 text, not a GUID). */
  id: string;
  workspaceId: string;
  reportId: string;
  format: 'PDF' | 'PPTX';
  /** The pages exported, by name: those asked for, else every visible one. */
  pages: string[];
  /** The slicer region of the default bookmark's state ('Todas' without one). */
  regiao: string;
  /** The effective identity applied (null for a dataset without RLS). */
  identity: { username: string; roles: string[] } | null;
  /** The ExportTo request body, as sent. */
  body: unknown;
  status: 'NotStarted' | 'Running' | 'Succeeded' | 'Failed';
}

/**
 * A capacity in Azure that serves Power BI content, as Azure Resource Manager holds it: a Power BI Embedded one
 * ('embedded', an A SKU, provider Microsoft.PowerBIDedicated) or a Fabric one ('fabric', an F SKU, Microsoft.Fabric).
 * (Named apart from StandInCapacity, which is what backs a Power BI workspace.)
 */
export interface StandInAzureCapacity {
  subscriptionId: string;
  resourceGroup: string;
  /** ARM's name: 3 to 63 lower-case letters and digits, starting with a letter. */
  name: string;
  kind: 'embedded' | 'fabric';
  /** e.g. 'A1' (embedded: A1–A8) or 'F2' (fabric: F2–F2048). */
  sku: string;
  /** Default 'running'. */
  state?: 'running' | 'paused';
  /**
   * Whether the portal's service principal holds an Azure role on it with …/capacities/read, /write,
   * /suspend/action and /resume/action (default true). Without one, every call is refused 403 AuthorizationFailed.
   */
  role?: boolean;
  /**
   * The Power BI capacity it is: the reports whose `capacityId` is this run on it, and Power BI refuses them while it
   * is not running. Default 'capacidade-padrao', the capacity of every report that names none.
   */
  powerBiCapacityId?: string;
}

/** How long the Azure capacities' operations take, in ms. Defaults: resume 10,000, suspend 2,000, scale 5,000. */
export interface StandInCapacityTimings {
  resumeMs?: number;
  suspendMs?: number;
  scaleMs?: number;
}

/** Where a stand-in Azure capacity is: running, or on its way to or from paused, or scaling. */
export type StandInCapacityState = 'running' | 'pausing' | 'paused' | 'resuming' | 'scaling';

/** One call to the Azure capacities, as made (by anyone with a valid ARM token and the role). */
export interface StandInCapacityCall {
  method: string;
  /** 'poll': a GET of an operation's Location. */
  action: 'get' | 'patch' | 'suspend' | 'resume' | 'poll';
  /** The capacity's name. */
  capacity: string;
}

export interface StandInsOptions {
  /** Default '00000000-0000-4000-8000-000000000001' (any GUID-like string). */
  tenantId?: string;
  /** The portal's app registration. Defaults: DEFAULT_CLIENT_ID (a GUID, as Entra's application ids are) / 'segredo-demo'. */
  clientId?: string;
  clientSecret?: string;
  /** The application's name in Entra (its service principal's displayName). Default 'Painéis'. */
  appDisplayName?: string;
  /** The directory. */
  people: StandInPerson[];
  /** The directory's groups (default none). */
  groups?: StandInGroup[];
  /** Loopback port; 0 (default) picks a free one. */
  port?: number;
  /** Lifetime of ID and access tokens in seconds (default 3600). */
  tokenLifetimeSeconds?: number;
  /** The Power BI reports (default none). */
  reports?: StandInReport[];
  /**
   * The Power BI workspaces the service principal is a member of (default: one for each workspace of the reports,
   * named 'Workspace 1', 'Workspace 2'… in the order the reports first name them). A report's workspace missing here
   * is added with that default name.
   */
  workspaces?: StandInWorkspace[];
  /** The datasets the reports use, as far as they differ from the default (StandInDataset). */
  datasets?: StandInDataset[];
  /** Lifetime of Power BI embed tokens in seconds (default 3600; short in tests of token refresh). */
  embedTokenLifetimeSeconds?: number;
  /** How long a Power BI export job takes from ExportTo to Succeeded, in ms (default 1500). */
  exportDurationMs?: number;
  /**
   * How long the embed host's script (`/reportEmbed/scripts/relatorio.….js`, cached by the browser for a year) takes
   * to answer, in ms: default 0; the benchmark makes it as slow as Power BI's own scripts.
   */
  embedScriptDelayMs?: number;
  /** Record every call to the Microsoft APIs in `exchanges` (default false: the demo runs for days). */
  recordExchanges?: boolean;
  /** Graph's limits on sendMail (StandInMailLimits): Microsoft's figures unless given, latency 0. */
  mailLimits?: StandInMailLimits;
  /** Azure capacities that Azure Resource Manager serves (default none). */
  capacities?: StandInAzureCapacity[];
  /** How long their operations take (StandInCapacityTimings). */
  capacityTimings?: StandInCapacityTimings;
}

/**
 * Outlook's limits on sendMail per application and mailbox, as the Graph stand-in applies them
 * (https://learn.microsoft.com/graph/throttling-limits, "Outlook service limits"; graph-mail.ts), in decimal units as
 * Microsoft writes them. Each left out keeps its current value (Microsoft's figure at the start).
 */
export interface StandInMailLimits {
  /** Requests in flight at once; the next is answered 429 ApplicationThrottled (MailboxConcurrency). Default 4. */
  concurrentRequests?: number;
  /** Bytes of accepted requests within uploadWindowMs; past it, 429 until enough leave. Default 150,000,000. */
  uploadBytesPerWindow?: number;
  /** Default 300,000 (5 minutes). */
  uploadWindowMs?: number;
  /** Requests within requestsWindowMs; past it, 429. Default 10,000. */
  requestsPerWindow?: number;
  /** Default 600,000 (10 minutes). */
  requestsWindowMs?: number;
  /** The largest request; a larger one is answered 413 ErrorRequestEntityTooLarge. Default 4,000,000 (4 MB). */
  maxRequestBytes?: number;
  /** How long sendMail takes to answer, the time a request is in flight. Default 0 (at once). */
  latencyMs?: number;
}

/** What the sendMail limits did since the stand-ins started, or since reset / resetMailStats. */
export interface StandInMailStats {
  /** The most sendMail requests in flight at once for one application and mailbox. */
  peakConcurrent: number;
  /** 429s answered by the limits (the queued faults' are not counted), and by which limit. */
  throttled: number;
  throttledBy: { concurrency: number; requestRate: number; upload: number };
  /** 413s answered (requests over maxRequestBytes). */
  tooLarge: number;
}

/**
 * One call to a stand-in Microsoft API (Entra ID, Graph, Power BI REST) and its answer, as the contract tests check
 * it against Microsoft's descriptions (@paineis/microsoft-api, docs/decisions/016-microsoft-contract-tests.md).
 * Secrets are never recorded: client secrets, codes, code verifiers and tokens read REDACTED ('[omitido]'), an
 * Authorization header keeps only its scheme, an ID token only its claims (`answer.idTokenClaims`), a file only its
 * size. Not recorded: the stand-ins' own pages (the sign-in page's form, the embed host), and answers that never
 * came or never finished (the hang and truncated faults).
 */
export type StandInExchange = Exchange;

export interface StandIns {
  /** e.g. http://127.0.0.1:41234 — plays https://login.microsoftonline.com. */
  authorityHost: string;
  /** Exactly `${authorityHost}/${tenantId}/v2.0`, as Entra ID spells its issuer. */
  issuer: string;
  /**
   * Plays https://graph.microsoft.com. Serves, as Graph v1.0 does: /v1.0/users and /v1.0/users/{id}; the portal's
   * service principal (/v1.0/servicePrincipals/{id} and /v1.0/servicePrincipals(appId='{appId}')) and its
   * appRoleAssignedTo; /v1.0/groups (with $select, $top, $skiptoken) and /v1.0/groups/{id};
   * /v1.0/groups/{id}/members and /v1.0/groups/{id}/transitiveMembers (users and groups, each with its
   * @odata.type), and both cast to /microsoft.graph.user (users only); /v1.0/groups/delta (also
   * /v1.0/groups/microsoft.graph.delta): Graph's delta query for groups, with members@delta, $select (members
   * among the properties), $deltatoken=latest and Prefer: return=minimal, from a log of every change made through
   * the controls below (a token of an earlier run answers 410 syncStateNotFound; one the stand-in never issued 400).
   * Each checks the caller's Graph permissions as Graph does (403 Authorization_RequestDenied).
   * Also POST /v1.0/users/{id | userPrincipalName}/sendMail in JSON (graph-mail.ts): the sender a user of the
   * directory with a mailbox (404 ErrorInvalidUser, MailboxNotEnabledForRESTAPI), the caller allowed to send as them
   * (the portal's application through Exchange's RBAC for Applications, or Mail.Send; 403 ErrorAccessDenied), at most
   * 4 MB, 4,000,000 bytes (413), Outlook's limits per application and mailbox (429 ApplicationThrottled with
   * Retry-After: 4 requests in flight, 10,000 requests in 10 minutes, 150 MB accepted in 5 minutes; mailLimits),
   * the message checked (400 ErrorInvalidRecipients, RequestBodyRead, InvalidInternetMessageHeader…); answered 202
   * without a body (after mailLimits.latencyMs), and kept (`sentMail()`) rather than delivered.
   */
  graphUrl: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  identity: {
    /** The next sign-in fails in this way (once). */
    failNext(failure: IdentityFailure): void;
    /** Faults of the tenant's OpenID discovery document (/{tenant}/v2.0/.well-known/openid-configuration). */
    discovery: StandInFaults;
    /**
     * Faults of the token endpoint (/{tenant}/oauth2/v2.0/token), for every grant (client credentials and code
     * redemption alike), once the client has authenticated. Errors and 429s in Entra's OAuth error shape.
     */
    token: StandInFaults;
    /** Forgets queued faults and sign-in failures, and lets go of requests held hanging. */
    reset(): void;
  };
  /**
   * Faults (StandInFaults): one queue for every Graph endpoint (users, the service principal, its
   * appRoleAssignedTo, groups, their members and delta), taken in request order by the requests Graph would otherwise serve (not by
   * 401s or 403s); e.g. throttleNext(7, 2, 2) lets two pages through, then throttles twice. Errors in Graph's shape.
   */
  graph: StandInFaults & {
    /** Replaces the directory (for tests: add, remove, disable people between syncs). */
    setPeople(people: StandInPerson[]): void;
    /**
     * Replaces the directory's groups (their properties, members and app roles), recording the differences as
     * changes that /groups/delta reports: groups left out are deleted, others created or updated.
     */
    setGroups(groups: StandInGroup[]): void;
    /** Creates the group, or updates it to this (its properties and members), recording the changes. */
    upsertGroup(group: StandInGroup): void;
    /**
     * Deletes the group and its memberships in other groups. /groups/delta then reports it removed: reason
     * 'changed' for a Microsoft 365 group (restorable), 'deleted' for a security group. Throws for an unknown group.
     */
    deleteGroup(groupId: string): void;
    /** Adds a person or a group as a direct member (nothing if already one). Throws for an unknown group. */
    addGroupMember(groupId: string, memberId: string): void;
    /** Removes a direct member (nothing if not one). Throws for an unknown group. */
    removeGroupMember(groupId: string, memberId: string): void;
    /**
     * Every delta and skip token issued so far expires, as after a restart: answered 410 Gone with a Location to
     * start again (Graph's "Synchronization reset"), or with `status` (another 4xx: Graph answers an expired token
     * "a 40X-series error with error codes such as syncStateNotFound"), code syncStateNotFound either way.
     */
    expireDeltaTokens(options?: { status?: number }): void;
    /**
     * How /groups/delta pages (it refuses $top, which Graph does not support there): at most `groupsPerPage` objects
     * a page (default 100), and at most `membersPerObject` entries of members@delta an object (default 20): a group
     * with more comes as several objects, never two on a page, dealt out in turns with the other groups' (so the
     * same group shows up on pages apart, as Graph warns it may). `everyChange`: a later round gives each membership
     * change as made (a member removed and added again comes twice, the later last) instead of the net change.
     * Left out: the default.
     */
    setDeltaPaging(paging: { groupsPerPage?: number; membersPerObject?: number; everyChange?: boolean }): void;
    /** The messages sendMail accepted, oldest first: the last 500 (the demo's outbox reads them). */
    sentMail(): StandInSentMail[];
    /** Forgets the messages sendMail accepted. */
    clearSentMail(): void;
    /**
     * The mailboxes the portal's application may send as (the scope of its Exchange Online role assignment
     * "Application Mail.Send", by address); null (the default): every mailbox of the directory. Another sender is
     * refused 403 ErrorAccessDenied.
     */
    restrictMailSenders(addresses: string[] | null): void;
    /**
     * Changes some of sendMail's limits (StandInMailLimits; those left out stay), e.g. a 5 s upload window with a
     * proportional byte budget, or a latency so that requests overlap. What the windows hold is kept. Throws for a
     * value below 1 (latency: below 0).
     */
    setMailLimits(limits: StandInMailLimits): void;
    /** What the limits did: the peak of requests in flight, the 429s and the 413s they answered. */
    mailStats(): StandInMailStats;
    /** Zeroes mailStats (the limits and the windows stay). */
    resetMailStats(): void;
    /**
     * Forgets queued faults, the request log and the messages sent, lets go of requests held hanging, lets the
     * application send as every mailbox again, and puts sendMail's limits back as the stand-ins started (options'
     * mailLimits), their windows empty and mailStats zeroed (between tests).
     */
    reset(): void;
    /** Every request to Graph, in order. */
    readonly requests: GraphRequestLog[];
  };
  /** Plays https://api.powerbi.com (serves /v1.0/myorg/...). */
  powerBiApiUrl: string;
  /**
   * The embed host page that speaks powerbi-client's postMessage protocol, as
   * https://app.powerbi.com/reportEmbed does (browser tests route that address to it).
   */
  embedHostUrl: string;
  /**
   * The embed host's script (`/reportEmbed/scripts/relatorio.….js`, which its page loads in its head, cached by the
   * browser for a year), as slow as Power BI's own when asked to be.
   */
  embedHost: {
    /** The script answers after this long from now on (0: at once). Throws below 0. */
    setScriptDelay(ms: number): void;
    /** The delay back as the stand-ins started (options' embedScriptDelayMs). */
    reset(): void;
  };
  /**
   * Faults (StandInFaults): one queue for every Power BI REST call (GetReport, GenerateToken, ExportTo, export
   * status and file, and the catalogue: workspaces, reports, pages, datasets, refresh history), in request order, for the requests Power BI would otherwise serve (not for those without a
   * valid token). Errors in Power BI's shape; `failNext(429)` sends `Retry-After: 1`.
   *
   * Export to file (POST /v1.0/myorg/groups/{g}/reports/{r}/ExportTo, GET .../exports/{id}, GET .../exports/{id}/file)
   * renders a real PDF or PPTX of the demo report: a page (slide) per exported page, with the default bookmark's
   * region and the lines 'Identidade: …' and 'Papéis: …' (or 'Sem identidade efetiva (sem RLS)'). A running job's
   * status answers 202 with Retry-After; a finished one 200 (a transient Failed with Retry-After too).
   *
   * The catalogue (power-bi-catalogue.ts) speaks Groups_GetGroups (paged by $top and $skip, a subset of $filter),
   * Reports_GetReportsInGroup, Reports_GetPagesInGroup, Datasets_GetDatasetsInGroup, Datasets_GetDatasetInGroup and
   * Datasets_GetRefreshHistoryInGroup ($top) as Microsoft's swagger describes them; a workspace the service principal
   * was removed from answers 401 PowerBINotAuthorizedException, a deleted report 404 PowerBIEntityNotFound.
   *
   * ExportTo refuses where Power BI's export-to-file guidance says it can't export. Microsoft publishes no error
   * codes for these; the stand-in's are the project's assumption
   * (docs/decisions/015-export-as-power-bi-documents-it.md):
   * - the tenant setting off (`setExportTenantSetting(false)`): 403 ExportToFileDisabledByTenantSetting;
   * - a report on shared capacity (`capacity: 'Shared'`): 403 ExportToFileRequiresCapacity;
   * - a report on Premium Per User (`capacity: 'PremiumPerUser'`): 403 ExportToFileNotSupportedOnPremiumPerUser;
   * - a report with a sensitivity label (`sensitivityLabel`): 403 ExportToFileBlockedBySensitivityLabel;
   * - an effective identity without Write on the semantic model (`datasetWritePermission: false`): 403
   *   ExportToFileRequiresDatasetWritePermission;
   * - more than 50 pages in one request (the whole report, or the pages named): 400 ExportToFileTooManyPages;
   * - the capacity's concurrent exports at their limit (`setConcurrentExportLimit`): 429 TooManyRequests with
   *   Retry-After.
   */
  powerBi: StandInFaults & {
    /** Replaces the reports: a report left out is deleted (GetReport and its pages answer 404 PowerBIEntityNotFound). */
    setReports(reports: StandInReport[]): void;
    /** Replaces the workspaces (names and order); a report's workspace left out gets its default name. */
    setWorkspaces(workspaces: StandInWorkspace[]): void;
    /** Replaces the datasets described (their storage mode and refresh history); the others get the default. */
    setDatasets(datasets: StandInDataset[]): void;
    /**
     * Sets one dataset's refresh history, newest first (the dataset need not be described yet); its refresh cycle,
     * if declared, is dropped.
     */
    setRefreshes(datasetId: string, refreshes: StandInRefresh[]): void;
    /**
     * Removes the service principal from the workspace, as a workspace admin would: Groups_GetGroups no longer lists
     * it, and every call on it (its reports, pages, datasets, refreshes, exports, an embed token for its reports)
     * answers 401 PowerBINotAuthorizedException, as Power BI answers a service principal that is not a member.
     */
    removeServicePrincipal(workspaceId: string): void;
    /** Makes the service principal a member of the workspace again. */
    restoreServicePrincipal(workspaceId: string): void;
    /** Every later request waits this long before answering (0 turns it off). */
    setLatency(ms: number): void;
    /** Export jobs started from now on take this long to succeed (0: done at the first status request). */
    setExportDuration(ms: number): void;
    /** The next `times` (default 1) export jobs end in status 'Failed' instead of 'Succeeded', for good. */
    failNextExport(times?: number): void;
    /**
     * The next `times` (default 1) export jobs end in status 'Failed' for a transient reason: their status answer
     * carries `Retry-After: retryAfterSeconds` (default 30), after which the export may be started again.
     */
    failNextExportTransiently(retryAfterSeconds?: number, times?: number): void;
    /**
     * At most `limit` exports (jobs NotStarted or Running) per capacity at once (default 500); one more ExportTo is
     * answered 429 TooManyRequests with `Retry-After: retryAfterSeconds` (default 30).
     */
    setConcurrentExportLimit(limit: number, retryAfterSeconds?: number): void;
    /**
     * The tenant setting 'Export reports as PowerPoint presentations or PDF documents' (default on): off, every
     * ExportTo is refused.
     */
    setExportTenantSetting(enabled: boolean): void;
    /**
     * Forgets queued faults, latency, the request log and export jobs (and the export duration, failures, limit and
     * tenant setting set), makes the service principal a member of every workspace again, and lets go of requests
     * held hanging. Reports, workspaces and datasets stay as set.
     */
    reset(): void;
    readonly requests: PowerBiRequestLog[];
    /** Every export job since the last reset, in order, with its status now. */
    readonly exports: PowerBiExportLog[];
  };
  /** Plays https://management.azure.com (Azure Resource Manager): the capacities below. */
  managementUrl: string;
  /**
   * Azure Resource Manager's capacities (azure-capacities.ts), for both providers as their swaggers describe them:
   * GET, PATCH (sku, tags, properties), POST …/suspend and …/resume, each with its api-version (2021-01-01 for
   * Microsoft.PowerBIDedicated, 2023-11-01 for Microsoft.Fabric; 400 InvalidApiVersionParameter otherwise), an ARM
   * token (aud https://management.azure.com; 401 otherwise) and the Azure role (403 AuthorizationFailed). Suspend,
   * resume and a change of SKU answer 202 with Location (…/operationresults/{id}: 202 with Retry-After until done,
   * then 200) and Retry-After, and go through Pausing, Resuming or Scaling. A suspend of a paused capacity, a resume
   * of a running one, a PATCH to its own SKU: nothing to do, 200 (a Fabric suspend or resume: 202 with an operation
   * already over, its swagger having no 200). Another operation while one runs: 409 Conflict.
   * While a capacity is not running, Power BI refuses its reports' GenerateToken and ExportTo (400
   * CapacityNotActive) and the embed page fails to load them (OpenConnectionError). Faults (StandInFaults) for
   * every call ARM would serve.
   */
  capacities: StandInFaults & {
    /** Where the capacity is now. Throws for an unknown name. */
    state(name: string): StandInCapacityState;
    /** Its SKU now (a scale changes it when done). */
    sku(name: string): string;
    /** Grants or takes away the service principal's Azure role on it. */
    setRole(name: string, role: boolean): void;
    /** Changes how long operations started from now take (those left out stay). */
    setTimings(timings: StandInCapacityTimings): void;
    /** An outside change (the Azure portal): paused at once, an operation under way ended. */
    pause(name: string): void;
    /** An outside change: running at once. */
    resume(name: string): void;
    /** Ends every operation under way now, as if its time had passed. */
    settle(): void;
    /** Its ARM resource id (/subscriptions/…/capacities/{name}). */
    resourceId(name: string): string;
    /** Forgets faults and calls, ends operations, and puts the timings back as started. */
    reset(): void;
    /** Every call admitted (valid token, role held, capacity found), in order. */
    readonly calls: StandInCapacityCall[];
  };
  /**
   * Every call to the Microsoft APIs since the start or the last clearExchanges(), in the order answered, when
   * started with `recordExchanges: true` (empty otherwise).
   */
  readonly exchanges: readonly StandInExchange[];
  clearExchanges(): void;
  close(): Promise<void>;
}
