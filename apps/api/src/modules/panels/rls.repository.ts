import { asc, eq, sql } from 'drizzle-orm';
import type { RlsConfiguration } from '@paineis/contract/rls';
import { rlsConfigurationProblems } from '@paineis/contract/rls-rules';
import { roleNameKey, sameRoleName } from '@paineis/contract/text';
import { rows, type Db } from '../../db/client.ts';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit.ts';
import { VersionedKeyedCache } from '../../db/versioned-cache.ts';
import { painelRlsRoleEmails, painelRlsRoles } from '../../db/schema.ts';
import { invalid, notFound } from '../../lib/domain-failure.ts';
import { knownGroups, refusePublicGroups } from './panel-groups.repository.ts';
import { auditedPanelChange, requirePanel } from './panel-lookup.repository.ts';
import { publicGroupGrants, publicGroupsGrantOf, type PublicGroupsGrant } from './public-groups.ts';

/** Roles in the order the admin gave them, e-mails sorted; for one panel or many. */
export async function rlsByPanel(db: Db, painelIds: number[]): Promise<Map<number, RlsConfiguration[]>> {
  const result = new Map<number, RlsConfiguration[]>();
  if (painelIds.length === 0) return result;
  const found = await rows<{ painel_id: number; role_name: string; emails: string[] | null; grupos: string[] | null }>(
    db,
    sql`
    select r.painel_id, r.role_name,
           (select array_agg(e.email order by e.email) from painel_rls_role_emails e where e.role_id = r.id) as emails,
           (select array_agg(g.grupo_id order by g.grupo_id) from painel_rls_role_grupos g where g.role_id = r.id)
             as grupos
    from painel_rls_roles r
    where r.painel_id = any(${sql.param(painelIds)}::int[])
    order by r.painel_id, r.posicao, r.id`,
  );
  for (const row of found) {
    const list = result.get(row.painel_id) ?? [];
    list.push({ roleName: row.role_name, userEmails: row.emails ?? [], grupos: row.grupos ?? [] });
    result.set(row.painel_id, list);
  }
  return result;
}

export async function getRls(db: Db, painelId: number): Promise<RlsConfiguration[]> {
  return (await rlsByPanel(db, [painelId])).get(painelId) ?? [];
}

/** A panel whose stored RLS configuration Power BI would refuse, and why. */
export interface RlsOverLimits {
  painelId: number;
  nomePainel: string;
  problemas: string[];
}

/**
 * Every panel whose stored roles break Power BI's limits (saved before they were enforced), in id order. They are
 * kept as they are, for an administrator to fix: never cut without a word.
 */
export async function rlsConfigurationsOverLimits(db: Db): Promise<RlsOverLimits[]> {
  const found = await rows<{ painel_id: number; nome_painel: string; role_names: string[] }>(
    db,
    sql`
    select p.id as painel_id, p.nome_painel, array_agg(r.role_name order by r.posicao, r.id) as role_names
    from painel_rls_roles r
    join paineis p on p.id = r.painel_id
    group by p.id, p.nome_painel
    order by p.id`,
  );
  return found.flatMap((row) => {
    const problemas = rlsConfigurationProblems(row.role_names.map((roleName) => ({ roleName })));
    return problemas.length ? [{ painelId: row.painel_id, nomePainel: row.nome_painel, problemas }] : [];
  });
}

/** A panel's roles as opening it needs them: in order, each with its e-mails (stored in lower case) and groups. */
export interface RoleMembers {
  roleName: string;
  emails: ReadonlySet<string>;
  groups: ReadonlySet<string>;
}

const openingRoles = new VersionedKeyedCache(['rls'], async (db, painelId: number): Promise<RoleMembers[]> =>
  (await getRls(db, painelId)).map((c) => ({
    roleName: c.roleName,
    emails: new Set(c.userEmails),
    groups: new Set(c.grupos),
  })),
);

/** The panel's roles, from memory until any role changes. */
export function panelRoles(db: Db, painelId: number): Promise<RoleMembers[]> {
  return openingRoles.get(db, painelId);
}

/** panelRoles without waiting: undefined when they are not in memory. */
export function panelRolesNow(db: Db, painelId: number): RoleMembers[] | undefined {
  return openingRoles.peek(db, painelId);
}

/** Role names are compared as Power BI does: without regard to case. */
function assertDistinctRoles(configs: RlsConfiguration[]) {
  const seen = new Set<string>();
  for (const { roleName } of configs) {
    const key = roleNameKey(roleName);
    if (seen.has(key)) throw invalid(`O papel RLS '${roleName}' aparece mais de uma vez.`);
    seen.add(key);
  }
}

async function insertEmails(db: Db, roleId: number, emails: string[]) {
  const distinct = [...new Set(emails)];
  if (distinct.length === 0) return;
  await db.execute(sql`
    insert into painel_rls_role_emails (role_id, email)
    select ${roleId}, unnest(${sql.param(distinct)}::text[])
    on conflict do nothing`);
}

/**
 * A configuration Power BI would refuse (too many roles, a name too long or with a comma) is never saved: the
 * routes' schemas refuse it first, and this guards every other writer (docs/decisions/014-power-bi-limits-and-view-only-tokens.md).
 */
function assertWithinPowerBiLimits(configs: readonly { roleName: string }[]) {
  const problems = rlsConfigurationProblems(configs);
  if (problems.length) throw invalid(problems.join(' '));
}

/**
 * Replaces a panel's whole RLS configuration. With the setting, a public group not in a role yet is refused where it
 * would give the role to nobody (PUBLIC_GROUPS_GRANT); one listed before it became public stays, giving nothing.
 * Without it (the demo's seeding), every group is listed. Call inside a transaction (see replacePanelRls).
 */
export async function replaceRls(
  db: Db,
  painelId: number,
  configs: RlsConfiguration[],
  setting?: PublicGroupsGrant,
): Promise<void> {
  assertWithinPowerBiLimits(configs);
  assertDistinctRoles(configs);
  if (setting && !publicGroupGrants(setting).papeisRls) {
    const listed = new Map((await getRls(db, painelId)).map((r) => [roleNameKey(r.roleName), new Set(r.grupos)]));
    const added = configs.flatMap((c) =>
      (c.grupos ?? []).filter((id) => !listed.get(roleNameKey(c.roleName))?.has(id)),
    );
    await refusePublicGroups(
      db,
      [...new Set(added)],
      `não concedem papéis RLS nesta instalação (PUBLIC_GROUPS_GRANT=${setting})`,
    );
  }
  await db.delete(painelRlsRoles).where(eq(painelRlsRoles.painelId, painelId));
  for (const [posicao, config] of configs.entries()) {
    const [role] = await db
      .insert(painelRlsRoles)
      .values({ painelId, roleName: config.roleName, posicao })
      .returning({ id: painelRlsRoles.id });
    await insertEmails(db, role!.id, config.userEmails);
    await insertGroups(db, role!.id, config.grupos ?? []);
  }
}

/** A role's groups: each must be a group the directory sync keeps (400 naming the others). */
async function insertGroups(db: Db, roleId: number, groupIds: string[]) {
  const ids = await knownGroups(db, groupIds);
  if (ids.length === 0) return;
  await db.execute(sql`
    insert into painel_rls_role_grupos (role_id, grupo_id)
    select ${roleId}, unnest(${sql.param(ids)}::text[])`);
}

/**
 * A panel's RLS roles as the audit trail keeps them: each role's people by e-mail, so that the diff names each
 * person added to or taken out of a role.
 */
export async function rlsForAudit(db: Db, painelId: number) {
  const roles = await getRls(db, painelId);
  // Groups by id, beside the e-mails: the diff names each group added to or taken out of a role.
  return {
    papeis: Object.fromEntries(
      roles.map((r) => [
        r.roleName,
        Object.fromEntries([
          ...r.userEmails.map((email) => [email, true]),
          ...(r.grupos ?? []).map((id) => [`grupo:${id}`, true]),
        ]),
      ]),
    ),
  };
}

/** Runs a change of a panel's RLS roles with the panel locked, and records it in the audit trail. */
function changingRls(db: Db, painelId: number, actor: AuditActor, change: (tx: Db) => Promise<void>) {
  return auditedPanelChange(db, painelId, actor, 'rls', (tx) => rlsForAudit(tx, painelId), change);
}

/** Replaces the whole RLS configuration of an existing panel, all or nothing; answers the new one. */
export async function replacePanelRls(
  db: Db,
  painelId: number,
  configs: RlsConfiguration[],
  actor: AuditActor = SYSTEM_ACTOR,
) {
  const setting = publicGroupsGrantOf(db);
  await changingRls(db, painelId, actor, (tx) => replaceRls(tx, painelId, configs, setting));
  return getRls(db, painelId);
}

export async function deletePanelRls(db: Db, painelId: number, actor: AuditActor = SYSTEM_ACTOR): Promise<void> {
  await changingRls(db, painelId, actor, async (tx) => {
    await tx.delete(painelRlsRoles).where(eq(painelRlsRoles.painelId, painelId));
  });
}

/** A panel's roles in order, by id and name (at most 50, or what was stored before that limit). */
function storedRoles(db: Db, painelId: number) {
  return db
    .select({ id: painelRlsRoles.id, roleName: painelRlsRoles.roleName })
    .from(painelRlsRoles)
    .where(eq(painelRlsRoles.painelId, painelId))
    .orderBy(asc(painelRlsRoles.posicao), asc(painelRlsRoles.id));
}

export async function roleNames(db: Db, painelId: number): Promise<string[]> {
  return (await storedRoles(db, painelId)).map((r) => r.roleName);
}

/** The panel's role of that name, matched by the one role-name rule. */
async function findRole(db: Db, painelId: number, roleName: string) {
  const role = (await storedRoles(db, painelId)).find((r) => sameRoleName(r.roleName, roleName));
  return role ? { id: role.id } : null;
}

/** The e-mails of one role, or null when the panel has no such role. */
export async function roleEmails(db: Db, painelId: number, roleName: string): Promise<string[] | null> {
  const role = await findRole(db, painelId, roleName);
  if (!role) return null;
  const rows = await db
    .select({ email: painelRlsRoleEmails.email })
    .from(painelRlsRoleEmails)
    .where(eq(painelRlsRoleEmails.roleId, role.id))
    .orderBy(asc(painelRlsRoleEmails.email));
  return rows.map((r) => r.email);
}

/**
 * Replaces one role's e-mails on an existing panel, creating the role (last) when the panel does not have
 * it yet, all or nothing; answers the role's e-mails.
 */
export async function replacePanelRoleEmails(
  db: Db,
  painelId: number,
  roleName: string,
  emails: string[],
  actor: AuditActor = SYSTEM_ACTOR,
) {
  await changingRls(db, painelId, actor, (tx) => replaceRoleEmails(tx, painelId, roleName, emails));
  return (await roleEmails(db, painelId, roleName)) ?? [];
}

async function replaceRoleEmails(db: Db, painelId: number, roleName: string, emails: string[]) {
  const roles = await storedRoles(db, painelId);
  let role: { id: number } | undefined = roles.find((r) => sameRoleName(r.roleName, roleName));
  // The panel as this call would leave it: a stored configuration over the limits is not written to either.
  assertWithinPowerBiLimits(role ? roles : [...roles, { roleName }]);
  if (!role) {
    const [created] = await db
      .insert(painelRlsRoles)
      .values({
        painelId,
        roleName,
        posicao: sql`(select coalesce(max(posicao) + 1, 0) from painel_rls_roles where painel_id = ${painelId})`,
      })
      .returning({ id: painelRlsRoles.id });
    role = created!;
  } else {
    await db.delete(painelRlsRoleEmails).where(eq(painelRlsRoleEmails.roleId, role.id));
  }
  await insertEmails(db, role.id, emails);
}

/** The RLS configuration of an existing panel (404 otherwise). */
export async function panelRls(db: Db, painelId: number): Promise<RlsConfiguration[]> {
  await requirePanel(db, painelId);
  return getRls(db, painelId);
}

/** The role names of an existing panel (404 otherwise). */
export async function panelRoleNames(db: Db, painelId: number): Promise<string[]> {
  await requirePanel(db, painelId);
  return roleNames(db, painelId);
}

/** The e-mails of one role of an existing panel; 404 when the panel or the role is missing. */
export async function panelRoleEmails(db: Db, painelId: number, roleName: string): Promise<string[]> {
  await requirePanel(db, painelId);
  const emails = await roleEmails(db, painelId, roleName);
  if (!emails) throw notFound(`Papel RLS '${roleName}' não encontrado neste painel.`);
  return emails;
}
