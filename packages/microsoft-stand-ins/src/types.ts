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
  userPrincipalName: string;
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

/** A security group of the stand-in directory (Graph), which may hold app roles of the portal's application. */
export interface StandInGroup {
  /** Entra object id: a GUID, as Graph requires in /v1.0/groups/{id}. */
  id: string;
  displayName: string;
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

export interface GraphRequestLog {
  url: string;
  status: number;
  /** Whether the request carried a valid stand-in access token for Graph (true too when it lacked the permission). */
  authorized: boolean;
}

/** A Power BI report the stand-in serves, in a workspace, over one dataset. */
export interface StandInReport {
  workspaceId: string;
  reportId: string;
  name: string;
  datasetId: string;
  /** The dataset has RLS roles: GenerateToken then requires an effective identity, and refuses one otherwise. */
  rls: boolean;
  /** Report pages; visibility 0 = visible, 1 = hidden. Default: three visible pages and one hidden. */
  pages?: { name: string; displayName: string; visibility: 0 | 1 }[];
}

/** One call to the stand-in Power BI REST API, for tests to inspect. */
export interface PowerBiRequestLog {
  method: string;
  /** Path and query, e.g. /v1.0/myorg/GenerateToken. */
  path: string;
  status: number;
  /** The parsed JSON body, when there was one. */
  body?: unknown;
}

export interface StandInsOptions {
  /** Default '00000000-0000-4000-8000-000000000001' (any GUID-like string). */
  tenantId?: string;
  /** The portal's app registration. Defaults: 'paineis-demo' / 'segredo-demo'. */
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
  /** Lifetime of Power BI embed tokens in seconds (default 3600; short in tests of token refresh). */
  embedTokenLifetimeSeconds?: number;
}

export interface StandIns {
  /** e.g. http://127.0.0.1:41234 — plays https://login.microsoftonline.com. */
  authorityHost: string;
  /** Exactly `${authorityHost}/${tenantId}/v2.0`, as Entra ID spells its issuer. */
  issuer: string;
  /**
   * Plays https://graph.microsoft.com. Serves, as Graph v1.0 does: /v1.0/users; the portal's service principal
   * (/v1.0/servicePrincipals/{id} and /v1.0/servicePrincipals(appId='{appId}')) and its appRoleAssignedTo;
   * /v1.0/groups/{id}/members/microsoft.graph.user and /v1.0/groups/{id}/transitiveMembers/microsoft.graph.user.
   * Each checks the caller's Graph permissions as Graph does (403 Authorization_RequestDenied).
   */
  graphUrl: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  identity: {
    /** The next sign-in fails in this way (once). */
    failNext(failure: IdentityFailure): void;
  };
  graph: {
    /** Replaces the directory (for tests: add, remove, disable people between syncs). */
    setPeople(people: StandInPerson[]): void;
    /** Replaces the directory's groups (their members and app roles). */
    setGroups(groups: StandInGroup[]): void;
    /**
     * After `afterRequests` more requests (default 0) are served normally, the following `times` requests to
     * Graph answer 429 with `Retry-After: retryAfterSeconds` (a throttle part-way through paging). One queue for
     * every Graph endpoint, taken in request order by the requests Graph would otherwise serve (not by 401s or 403s).
     */
    throttleNext(retryAfterSeconds: number, times?: number, afterRequests?: number): void;
    /** Likewise, with this status (e.g. 500, 503) and a Graph error body. */
    failNext(status: number, times?: number, afterRequests?: number): void;
    /** Forgets queued failures and the request log (between tests sharing one instance). */
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
  powerBi: {
    setReports(reports: StandInReport[]): void;
    /** After `afterRequests` more requests (default 0), the next `times` answer this status with Power BI's error shape. */
    failNext(status: number, times?: number, afterRequests?: number): void;
    /** Every later request waits this long before answering (0 turns it off). */
    setLatency(ms: number): void;
    reset(): void;
    readonly requests: PowerBiRequestLog[];
  };
  close(): Promise<void>;
}
