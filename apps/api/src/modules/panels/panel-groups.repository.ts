import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { GrupoVinculado } from '@paineis/contract/groups';
import type { Db } from '../../db/client.ts';
import { grupos, painelGrupos } from '../../db/schema.ts';
import { unknownIds } from '../../lib/domain-failure.ts';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit.ts';
import { auditedPanelChange, requirePanel } from './panel-lookup.repository.ts';

/** The groups linked to a panel, by name (docs/decisions/018-access-by-group.md). */
export async function linkedGroups(db: Db, painelId: number): Promise<GrupoVinculado[]> {
  return db
    .select({ id: grupos.id, nome: grupos.nome })
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
 * sync keeps (400 naming the others, and nothing changes). Audited as a change of the panel's links, each group
 * named by id with its name. Answers the new set.
 */
export async function replacePanelGroups(
  db: Db,
  painelId: number,
  groupIds: string[],
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<GrupoVinculado[]> {
  const forAudit = async (tx: Db) => ({
    grupos: Object.fromEntries((await linkedGroups(tx, painelId)).map((g) => [g.id, g.nome])),
  });
  await auditedPanelChange(db, painelId, actor, 'vinculos', forAudit, (tx) =>
    replaceGroupLinks(tx, painelId, groupIds),
  );
  return linkedGroups(db, painelId);
}

/** Replaces the panel's whole set of linked groups; every id must be a known group. Call inside a transaction. */
export async function replaceGroupLinks(db: Db, painelId: number, groupIds: string[]): Promise<void> {
  const ids = await knownGroups(db, groupIds);
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
    .select({ painelId: painelGrupos.painelId, id: grupos.id, nome: grupos.nome })
    .from(painelGrupos)
    .innerJoin(grupos, eq(grupos.id, painelGrupos.grupoId))
    .orderBy(asc(sql`lower(${grupos.nome})`), asc(grupos.id));
  const byPanel = new Map<number, GrupoVinculado[]>();
  for (const { painelId, id, nome } of found) {
    const list = byPanel.get(painelId);
    if (list) list.push({ id, nome });
    else byPanel.set(painelId, [{ id, nome }]);
  }
  return byPanel;
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
