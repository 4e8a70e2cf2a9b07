import type { Painel } from '@paineis/contract/panels';
import type { Db } from '../../db/client.ts';
import { classificacoes } from '../../db/schema.ts';
import { VersionedCache } from '../../db/versioned-cache.ts';
import { byNome } from '../../lib/collation.ts';
import { selectPanels, toPanel } from './panel-lookup.repository.ts';

/**
 * The panel catalogue in memory (docs/decisions/009-in-memory-reads.md): every panel and classification, loaded on
 * first use and kept until either changes on any instance. Who sees which of them is the access model's
 * (access-model.ts).
 */

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

/** Every panel and classification, in screen order, with each panel by id. From memory. */
export const catalogue = (db: Db) => catalog.get(db);

/** The catalogue if memory holds it now, without waiting; undefined otherwise (then ask `catalogue`). */
export const catalogueNow = (db: Db) => catalog.peek(db);

/** A panel by id from the catalogue, whoever may see it; null when there is none. From memory. */
export async function catalogPanel(db: Db, id: number): Promise<Painel | null> {
  return (await catalog.get(db)).byId.get(id) ?? null;
}
