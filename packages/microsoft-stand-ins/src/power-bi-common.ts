import { createHash } from 'node:crypto';
import { invalid, notFound, type PowerBiError } from './power-bi-errors.ts';
import type { StandInContext } from './stand-in-context.ts';
import type { StandInReport } from './types.ts';

/**
 * What the Power BI REST routes share: how reports are found and who an effective identity is (how their refusals
 * look is power-bi-errors.ts).
 */

/**
 * The `config` parameter real embed URLs carry (base64 of the cluster URL), copied as Power BI spells it.
 * powerbi-client only embeds https URLs on Power BI hosts, so the stand-in hands out the real shape.
 */
const EMBED_URL_CONFIG =
  'eyJjbHVzdGVyVXJsIjoiaHR0cHM6Ly9XQUJJLUJSQVpJTC1TT1VUSC1CLVBSSU1BUlktcmVkaXJlY3QuYW5hbHlzaXMud2luZG93cy5uZXQiLCJlbWJlZEZlYXR1cmVzIjp7fX0%3d';

export function embedUrlFor(report: Pick<StandInReport, 'reportId' | 'workspaceId'>): string {
  return `https://app.powerbi.com/reportEmbed?reportId=${report.reportId}&groupId=${report.workspaceId}&config=${EMBED_URL_CONFIG}`;
}

export type ReportPage = NonNullable<StandInReport['pages']>[number];

/** Page names look like Power BI's (ReportSection + hex) and differ per report, so each report draws its own numbers. */
export function pagesOf(report: StandInReport): ReportPage[] {
  if (report.pages) return report.pages;
  const name = (index: number) =>
    `ReportSection${createHash('sha256').update(`${report.reportId}|${index}`).digest('hex').slice(0, 20)}`;
  return [
    { name: name(1), displayName: 'Visão geral', visibility: 0 },
    { name: name(2), displayName: 'Detalhes', visibility: 0 },
    { name: name(3), displayName: 'Tendências', visibility: 0 },
    { name: name(4), displayName: 'Notas internas', visibility: 1 },
  ];
}

/** Power BI compares GUIDs without regard to case. */
export function sameId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export function findReport(ctx: StandInContext, reportId: string, workspaceId?: string): StandInReport | undefined {
  return ctx.reports.find(
    (report) =>
      sameId(report.reportId, reportId) && (workspaceId === undefined || sameId(report.workspaceId, workspaceId)),
  );
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface Identity {
  username: string;
  roles: string[];
  datasets: string[];
}

/** The `identities` of a GenerateToken or ExportTo body; null when the shape is wrong. */
export function identityList(value: unknown): Identity[] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return null;
  const identities: Identity[] = [];
  for (const item of value) {
    if (!isRecord(item)) return null;
    const { username, roles, datasets } = item;
    const strings = (list: unknown) => Array.isArray(list) && list.every((entry) => typeof entry === 'string');
    if (typeof username !== 'string' || !strings(datasets) || (roles !== undefined && !strings(roles))) return null;
    identities.push({ username, roles: roles ?? [], datasets });
  }
  return identities;
}

/** Power BI's limits on an effective identity (EffectiveIdentity in its REST API description). */
export const MAX_IDENTITY_ROLES = 50;
export const MAX_ROLE_NAME_LENGTH = 50;
export const MAX_USERNAME_LENGTH = 256;

/**
 * Why Power BI would refuse this identity's username or roles, or null: at most 50 roles, each name at most 50
 * characters and without a comma; a username of at most 256 characters, ASCII (cloud models) and without spaces.
 * The wording is the stand-in's own; the status and code are Power BI's (400 InvalidRequest).
 */
export function identityLimitProblem({ username, roles }: Pick<Identity, 'username' | 'roles'>): string | null {
  if (roles.length > MAX_IDENTITY_ROLES) {
    return `Effective identity has ${roles.length} roles; at most ${MAX_IDENTITY_ROLES} are allowed.`;
  }
  for (const role of roles) {
    if (role.length > MAX_ROLE_NAME_LENGTH) {
      return `Role name '${role}' is longer than ${MAX_ROLE_NAME_LENGTH} characters.`;
    }
    if (role.includes(',')) return `Role name '${role}' contains ',', which is not allowed.`;
  }
  if (username.length > MAX_USERNAME_LENGTH) {
    return `Effective identity username is longer than ${MAX_USERNAME_LENGTH} characters.`;
  }
  // eslint-disable-next-line no-control-regex -- ASCII is exactly U+0000 to U+007F
  if (/[^\u0000-\u007f]/.test(username)) return 'Effective identity username must contain only ASCII characters.';
  if (/\s/.test(username)) return 'Effective identity username must not contain spaces.';
  return null;
}

/**
 * Power BI's effective identity rules, the same for GenerateToken and ExportTo: an RLS dataset needs an identity
 * with roles, a dataset without RLS refuses one, an identity names only datasets the request covers, and it keeps
 * Power BI's limits (identityLimitProblem). `datasets` are the covered datasets (ids as the stand-in spells them);
 * `outside` words the refusal of another.
 */
export function checkIdentities(
  reports: StandInReport[],
  datasets: string[],
  identities: Identity[],
  outside: (datasetId: string) => string,
): { identities: Identity[] } | { error: PowerBiError } {
  const badRequest = (message: string) => ({ error: invalid(message) });
  // A dataset's RLS is the dataset's: any report over it that says rls makes it an RLS dataset.
  const datasetHasRls = (id: string): boolean | undefined => {
    const over = reports.filter((report) => sameId(report.datasetId, id));
    return over.length ? over.some((report) => report.rls) : undefined;
  };
  const checked: Identity[] = [];
  for (const identity of identities) {
    if (!identity.username.trim()) return badRequest('Effective identity username must not be empty.');
    if (!identity.datasets.length) return badRequest('Effective identity must list the datasets it applies to.');
    const limit = identityLimitProblem(identity);
    if (limit) return badRequest(limit);
    const identityDatasets: string[] = [];
    for (const id of identity.datasets) {
      const rls = datasetHasRls(id);
      if (rls === undefined) return { error: notFound(`Dataset ${id} was not found.`) };
      const dataset = datasets.find((candidate) => sameId(candidate, id));
      if (!dataset) return badRequest(outside(id));
      if (!rls) return badRequest(`Creating embed token for accessing dataset ${id} shouldn't have effective identity`);
      if (!identity.roles.length) {
        return badRequest(
          `Creating embed token for accessing dataset ${id} requires roles to be included in provided effective identity`,
        );
      }
      identityDatasets.push(dataset);
    }
    checked.push({ username: identity.username, roles: identity.roles, datasets: identityDatasets });
  }
  for (const id of datasets) {
    if (datasetHasRls(id) && !checked.some((identity) => identity.datasets.includes(id))) {
      return badRequest(`Creating embed token for accessing dataset ${id} requires effective identity to be provided`);
    }
  }
  return { identities: checked };
}
