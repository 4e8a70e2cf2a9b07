import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { GrupoVinculado } from '@paineis/contract/groups';
import type { Db } from '../../db/client.ts';
import { grupos, painelGrupos } from '../../db/schema.ts';
import { invalid, unknownIds } from '../../lib/domain-failure.ts';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit.ts';
import { PUBLIC_VISIBILITY } from '../users/users.service.ts';
import { auditedPanelChange, requirePanel } from './panel-lookup.repository.ts';
import { publicGroupGrants, publicGroupsGrantOf, type PublicGroupsGrant } from './public-groups.ts';

/** Whether the group is a public Microsoft 365 group (the sync stores visibility for those alone). */
const isPublic = sql<boolean>`coalesce(${grupos.visibilidade} = ${PUBLIC_VISIBILITY}, false)`;

/** The groups linked to a panel, by name (docs/decisions/018-access-by-group.md). */
export async function linkedGroups(db: Db, painelId: number): Promise<GrupoVinculado[]> {
  return db
    .select({ id: grupos.id, nome: grupos.nome, publico: isPublic })
    .from(painelGrupos)
    .innerJoin(grupos, eq(grupos.id, painelGrupos.grupoId))
    .where(eq(painelGrupos.painelId, painelId))
    .orderBy(asc(sql`lower(${grupos.nome})`), asc(grupos.id));
}

/** The groups linked to an existing panel (404 otherwise). */
export async function panelLinkedGroups(db: Db, painelId: number): Promise<GrupoVinculado[]> {
  await requirePanel(db, painelId);
  return linkedGroups(db, painelId);
}

/**
 * Replaces an existing panel's whole set of linked groups, all or nothing: every id must be a group the directory
 * sync keeps (400 naming the others, and nothing changes), and a public group is not newly linked where it would
 * grant nothing (PUBLIC_GROUPS_GRANT=none: 400 naming it). Audited as a change of the panel's links, each group
 * named by id with its name. Answers the new set.
 */
export async function replacePanelGroups(
  db: Db,
  painelId: number,
  groupIds: string[],
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<GrupoVinculado[]> {
  const setting = publicGroupsGrantOf(db);
  const forAudit = async (tx: Db) => ({
    grupos: Object.fromEntries((await linkedGroups(tx, painelId)).map((g) => [g.id, g.nome])),
  });
  await auditedPanelChange(db, painelId, actor, 'vinculos', forAudit, (tx) =>
    replaceGroupLinks(tx, painelId, groupIds, setting),
  );
  return linkedGroups(db, painelId);
}

/**
 * Replaces the panel's whole set of linked groups; every id must be a known group. With the setting, a public group
 * not linked yet is refused where it would grant nothing; one linked before it became public stays linked (and
 * grants nothing), so that the admin may keep the rest of the set as it is. Without it (the demo's seeding), every
 * group is linked. Call inside a transaction.
 */
export async function replaceGroupLinks(
  db: Db,
  painelId: number,
  groupIds: string[],
  setting?: PublicGroupsGrant,
): Promise<void> {
  const ids = await knownGroups(db, groupIds);
  if (setting && !publicGroupGrants(setting).paineis) {
    const linked = new Set(
      (await db.select({ id: painelGrupos.grupoId }).from(painelGrupos).where(eq(painelGrupos.painelId, painelId))).map(
        (r) => r.id,
      ),
    );
    await refusePublicGroups(
      db,
      ids.filter((id) => !linked.has(id)),
      `não concedem acesso a painéis nesta instalação (PUBLIC_GROUPS_GRANT=${setting})`,
    );
  }
  await db.delete(painelGrupos).where(eq(painelGrupos.painelId, painelId));
  if (ids.length > 0) {
    await db.execute(sql`
      insert into painel_grupos (painel_id, grupo_id)
      select ${painelId}, unnest(${sql.param(ids)}::text[])`);
  }
}

/** Every panel's linked groups, by panel id (panels without any are absent). */
export async function groupLinksByPanel(db: Db): Promise<Map<number, GrupoVinculado[]>> {
  const found = await db
    .select({ painelId: painelGrupos.painelId, id: grupos.id, nome: grupos.nome, publico: isPublic })
    .from(painelGrupos)
    .innerJoin(grupos, eq(grupos.id, painelGrupos.grupoId))
    .orderBy(asc(sql`lower(${grupos.nome})`), asc(grupos.id));
  const byPanel = new Map<number, GrupoVinculado[]>();
  for (const { painelId, id, nome, publico } of found) {
    const list = byPanel.get(painelId);
    if (list) list.push({ id, nome, publico });
    else byPanel.set(painelId, [{ id, nome, publico }]);
  }
  return byPanel;
}

/**
 * 400 naming the public groups among `ids` (at most five, by name), where `what` says what they do not do: a link
 * that grants nothing is refused when it is made, not kept to mislead (docs/decisions/018, "Public groups").
 */
export async function refusePublicGroups(db: Db, ids: readonly string[], what: string): Promise<void> {
  if (ids.length === 0) return;
  const found = await db
    .select({ nome: grupos.nome })
    .from(grupos)
    .where(sql`${grupos.id} = any(${sql.param([...ids])}::text[]) and ${isPublic}`)
    .orderBy(asc(sql`lower(${grupos.nome})`), asc(grupos.id));
  if (found.length === 0) return;
  const names = found.slice(0, 5).map((g) => g.nome);
  const more = found.length > 5 ? ` e mais ${found.length - 5}` : '';
  throw invalid(`Grupos públicos (qualquer pessoa pode entrar) ${what}: ${names.join(', ')}${more}.`);
}

/**
 * The ids once each, when every one is a group the directory sync keeps; otherwise 400 naming the others (a panel's
 * links and an RLS role's groups alike).
 */
export async function knownGroups(db: Db, groupIds: readonly string[]): Promise<string[]> {
  const ids = [...new Set(groupIds)];
  if (ids.length === 0) return ids;
  const found = new Set(
    (await db.select({ id: grupos.id }).from(grupos).where(inArray(grupos.id, ids))).map((r) => r.id),
  );
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) throw unknownIds('Grupos', missing);
  return ids;
}
