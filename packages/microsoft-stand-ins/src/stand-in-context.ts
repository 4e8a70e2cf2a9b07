import { createHash, randomBytes } from 'node:crypto';
import type { SigningKeys } from './signing-keys.ts';
import type { StandInPerson, StandInReport } from './types.ts';

/** What the identity provider and Graph share: the app registration, the directory and the keys. */
export interface StandInContext {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  tokenLifetimeSeconds: number;
  /** Filled in once the server listens (the port is only known then); handlers read it per request. */
  authorityHost: string;
  issuer: string;
  keys: SigningKeys;
  people: StandInPerson[];
  /** Power BI: the REST API and the embed host page both read the current reports. */
  reports: StandInReport[];
  embedTokenLifetimeSeconds: number;
}

export const GRAPH_RESOURCE = 'https://graph.microsoft.com';
/** Graph's application id, which Entra also accepts as the resource and puts in `aud`. */
export const GRAPH_APP_ID = '00000003-0000-0000-c000-000000000000';

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
