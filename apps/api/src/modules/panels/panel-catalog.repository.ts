import { eq, inArray } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { Painel } from '@paineis/contract/panels';
import type { Db } from '../../db/client.ts';
import { classificacoes, painelGrupos, painelUsuarios } from '../../db/schema.ts';
import { VersionedCache, VersionedKeyedCache } from '../../db/versioned-cache.ts';
import { byNome } from '../../lib/collation.ts';
import { groupsOfPerson } from '../users/users.service.ts';
import { selectPanels, toPanel } from './panel-lookup.repository.ts';
import type { Requester } from './requester.ts';

/**
 * The panel catalogue in memory (docs/decisions/009-in-memory-reads.md): every panel and classification, and each
 * person's links, loaded on first use and kept until their data changes on any instance.
 */

/** What decides which panels a person sees: who they are and whether they administer the portal. */
export type Viewer = Pick<Requester, 'id' | 'isAdmin'>;

/**
 * Every panel and classification, in screen order (classifications by name, panels by ordem, unclassified
 * last), loaded once per change of either table, with each panel by id. Callers must not modify what it returns.
 */
const catalog = new VersionedCache(['paineis'], async (db) => {
  const [rows, classes] = await Promise.all([
    selectPanels(db, undefined),
    db
      .select({
        id: classificacoes.id,
        nome: classificacoes.nome,
        descricao: classificacoes.descricao,
        ativo: classificacoes.ativo,
      })
      .from(classificacoes),
  ]);
  classes.sort((a, b) => byNome(a, b) || a.id - b.id);
  const rank = new Map(classes.map((c, i) => [c.id, i]));
  const rankOf = (p: Painel) => rank.get(p.classificacaoId) ?? classes.length;
  // Array.prototype.sort is stable, so each group keeps the ordem the query gave it.
  const panels = rows.map(toPanel).sort((a, b) => rankOf(a) - rankOf(b));
  return { panels, classes, byId: new Map(panels.map((p) => [p.id, p])) };
});

/**
 * The ids of the panels each person may open: linked to them, or to a group they belong to at any depth
 * (docs/decisions/018-access-by-group.md). Loaded on first use and kept until any link or any group's membership
 * changes.
 */
const linkedIds = new VersionedKeyedCache(
  ['vinculos', 'grupos'],
  async (db, userId: string) => {
    const groups = [...(await groupsOfPerson(db, userId))];
    const direct = db
      .select({ id: painelUsuarios.painelId })
      .from(painelUsuarios)
      .where(eq(painelUsuarios.usuarioId, userId));
    const linked =
      groups.length === 0
        ? await direct
        : await union(
            direct,
            db.select({ id: painelGrupos.painelId }).from(painelGrupos).where(inArray(painelGrupos.grupoId, groups)),
          );
    return new Set(linked.map((r) => r.id));
  },
  50_000,
);

/** The ids of the panels linked to a non-admin; null for an admin, who sees everything. */
async function visibleIds(db: Db, requester: Viewer): Promise<Set<number> | null> {
  return requester.isAdmin ? null : linkedIds.get(db, requester.id);
}

/** The classifications, and the panels this person may see, in screen order. From memory. */
export async function visibleCatalog(db: Db, requester: Viewer) {
  const [value, ids] = await Promise.all([catalog.get(db), visibleIds(db, requester)]);
  return { classes: value.classes, panels: ids ? value.panels.filter((p) => ids.has(p.id)) : value.panels };
}

/** The panel if this person may see it: any panel for an admin, a linked one for everyone else. From memory. */
export async function findVisiblePanel(db: Db, id: number, requester: Viewer): Promise<Painel | null> {
  const now = visiblePanelNow(db, id, requester);
  if (now !== undefined) return now;
  const [{ byId }, ids] = await Promise.all([catalog.get(db), visibleIds(db, requester)]);
  return visibleIn(byId, ids, id);
}

/**
 * findVisiblePanel without waiting: undefined when the catalogue or this person's links are not in memory. Every
 * opening of a panel asks this, and nearly always both are there.
 */
export function visiblePanelNow(db: Db, id: number, requester: Viewer): Painel | null | undefined {
  const loaded = catalog.peek(db);
  const linked = requester.isAdmin ? null : linkedIds.peek(db, requester.id);
  return loaded && linked !== undefined ? visibleIn(loaded.byId, linked, id) : undefined;
}

function visibleIn(byId: Map<number, Painel>, ids: Set<number> | null, id: number): Painel | null {
  const panel = byId.get(id);
  return panel && (!ids || ids.has(id)) ? panel : null;
}

/** The ids of every panel this person may see, in screen order. From memory. */
export async function visiblePanelIds(db: Db, requester: Viewer): Promise<number[]> {
  return (await visibleCatalog(db, requester)).panels.map((p) => p.id);
}

/** A panel by id from the catalogue, whoever may see it; null when there is none. From memory. */
export async function catalogPanel(db: Db, id: number): Promise<Painel | null> {
  return (await catalog.get(db)).byId.get(id) ?? null;
}
