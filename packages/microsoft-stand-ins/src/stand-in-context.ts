import { createHash, randomBytes } from 'node:crypto';
import type { CapacityRecord } from './azure-capacities.ts';
import type { SigningKeys } from './signing-keys.ts';
import type { StandInDataset, StandInGroup, StandInPerson, StandInReport, StandInWorkspace } from './types.ts';

/** What the identity provider and Graph share: the app registration, the directory and the keys. */
export interface StandInContext {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** The application's name in Entra: its service principal's `displayName`. */
  appDisplayName: string;
  tokenLifetimeSeconds: number;
  /** Filled in once the server listens (the port is only known then); handlers read it per request. */
  authorityHost: string;
  issuer: string;
  keys: SigningKeys;
  people: StandInPerson[];
  groups: StandInGroup[];
  /** Power BI: the REST API and the embed host page both read the current reports. */
  reports: StandInReport[];
  /** Power BI workspaces declared (the reports' other workspaces get default names: power-bi-catalogue.ts). */
  workspaces: StandInWorkspace[];
  /** Power BI datasets declared (the reports' other datasets are Import ones with one Completed refresh). */
  datasets: StandInDataset[];
  /** When the stand-ins started (ms): default refresh times are relative to it, so they stay put while running. */
  startedAt: number;
  embedTokenLifetimeSeconds: number;
  /** How long a Power BI export job runs by default (tests change it with powerBi.setExportDuration). */
  exportDurationMs: number;
  /** The Azure capacities (azure-capacities.ts): Power BI refuses content on one that is not running. */
  armCapacities: CapacityRecord[];
}

export const GRAPH_RESOURCE = 'https://graph.microsoft.com';
/** Graph's application id, which Entra also accepts as the resource and puts in `aud`. */
export const GRAPH_APP_ID = '00000003-0000-0000-c000-000000000000';

/**
 * The Microsoft Graph application permissions granted to the portal's app registration, sent in the `roles`
 * claim of its client-credentials tokens for Graph: the directory sync reads users, who holds the app role
 * `Admin` (the service principal and its app role assignments) and the members of groups holding it.
 */
export const GRAPH_APPLICATION_PERMISSIONS = ['User.Read.All', 'Application.Read.All', 'GroupMember.Read.All'];

/** The Power BI REST API's resource (the `aud` of the access tokens it accepts). */
export const POWER_BI_RESOURCE = 'https://analysis.windows.net/powerbi/api';

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A GUID-shaped value derived from `text`, so ids stay the same across restarts. */
export function stableGuid(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A query or form value sent exactly once; repeated parameters are as invalid as missing ones. */
export function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The portal application's service principal in the tenant: its Graph `id`, and the `oid` of its app tokens. */
export function servicePrincipalId(ctx: Pick<StandInContext, 'tenantId' | 'clientId'>): string {
  return stableGuid(`service-principal|${ctx.tenantId}|${ctx.clientId}`);
}

/** An app role the application defines, as Graph lists it in `appRoles` (microsoft.graph.appRole). */
export interface AppRole {
  allowedMemberTypes: string[];
  description: string;
  displayName: string;
  id: string;
  isEnabled: boolean;
  origin: string;
  value: string;
}

const APP_ROLE_NAMES: Record<string, { displayName: string; description: string }> = {
  Admin: {
    displayName: 'Administrador',
    description: 'Administra o portal: painéis, classificações, acessos e a sincronização do diretório.',
  },
};

/** The id of the application's app role with this value (stable across restarts, as an app registration's are). */
export function appRoleId(ctx: Pick<StandInContext, 'clientId'>, value: string): string {
  return stableGuid(`app-role|${ctx.clientId}|${value}`);
}

/** The application's app roles: `Admin` always, and every other value some person or group holds. */
export function applicationAppRoles(ctx: Pick<StandInContext, 'clientId' | 'people' | 'groups'>): AppRole[] {
  const values = new Set(['Admin']);
  for (const principal of [...ctx.people, ...ctx.groups]) {
    for (const value of principal.appRoles ?? []) values.add(value);
  }
  return [...values].map((value) => ({
    allowedMemberTypes: ['User'],
    description: APP_ROLE_NAMES[value]?.description ?? `Papel ${value} do portal.`,
    displayName: APP_ROLE_NAMES[value]?.displayName ?? value,
    id: appRoleId(ctx, value),
    isEnabled: true,
    origin: 'Application',
    value,
  }));
}

/**
 * The `roles` claim Entra puts in a person's tokens for the application: the app roles assigned to the person
 * and those assigned to groups the person is a direct member of. Entra does not pass a group's assignment on to
 * members of groups nested in it ("The assignment doesn't cascade to nested groups"; "All direct members of the
 * group will be considered assigned").
 */
export function signInAppRoles(ctx: Pick<StandInContext, 'groups'>, person: StandInPerson): string[] {
  const roles = new Set(person.appRoles ?? []);
  for (const group of ctx.groups) {
    if (group.members.includes(person.id)) for (const value of group.appRoles ?? []) roles.add(value);
  }
  return [...roles];
}
