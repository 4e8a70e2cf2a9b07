import { SEM_CLASSIFICACAO_ID, SEM_CLASSIFICACAO_NOME } from '@paineis/contract/classifications';
import { PANEL_NOT_FOUND, type GrupoPaineis, type Painel, type PainelConfiguracoes } from '@paineis/contract/panels';
import type { Db } from '../../db/client.ts';
import { VersionedCache, VersionedKeyedCache } from '../../db/versioned-cache.ts';
import { notFound } from '../../lib/domain-failure.ts';
import { PreparedJson } from '../../lib/prepared-json.ts';
import { visibleCatalog, type Viewer } from './access-model.ts';
import { catalogPanel } from './panel-catalog.repository.ts';
import { requirePanel } from './panel-lookup.repository.ts';
import { linkedUsers } from './panel-users.repository.ts';
import { getRls } from './rls.repository.ts';

/**
 * The panel list screen's answers and a panel's editing data, grouped and serialised once per change of what they
 * show, from the catalogue in memory (panel-catalog.repository.ts).
 */

/** Every visible panel, grouped as the list screen shows them: classifications by name, then by ordem. */
async function listPanels(db: Db, requester: Viewer): Promise<Painel[]> {
  return (await visibleCatalog(db, requester)).panels;
}

/**
 * Groups for the list screen. Admins get every classification, empty ones included, so they can manage
 * them there; other users get only the groups holding panels they may see. 'Sem Classificação' comes last
 * and only when it holds panels.
 */
async function groupedPanels(db: Db, requester: Viewer): Promise<GrupoPaineis[]> {
  const { panels, classes } = await visibleCatalog(db, requester);
  const byClass = new Map<number, Painel[]>();
  for (const p of panels) {
    const list = byClass.get(p.classificacaoId) ?? [];
    list.push(p);
    byClass.set(p.classificacaoId, list);
  }
  const groups: GrupoPaineis[] = classes
    .filter((c) => requester.isAdmin || byClass.has(c.id))
    .map((c) => {
      const list = byClass.get(c.id) ?? [];
      return { ...c, quantidadePaineis: list.length, paineis: list };
    });
  const orphans = byClass.get(SEM_CLASSIFICACAO_ID);
  if (orphans) {
    groups.push({
      id: SEM_CLASSIFICACAO_ID,
      nome: SEM_CLASSIFICACAO_NOME,
      descricao: null,
      ativo: true,
      quantidadePaineis: orphans.length,
      paineis: orphans,
    });
  }
  return groups;
}

/**
 * A list answer as bytes, made once per change: one for admins (they all see everything), one per person for
 * the others (up to `capacity` people, the oldest dropped first).
 */
function preparedList(compute: (db: Db, requester: Viewer) => Promise<unknown>) {
  const forAdmins = new VersionedCache(
    ['paineis'],
    async (db) => new PreparedJson(await compute(db, { id: '', isAdmin: true })),
  );
  // A person's panels follow their links and their groups' membership (docs/decisions/018-access-by-group.md).
  const perPerson = new VersionedKeyedCache(
    ['paineis', 'vinculos', 'grupos'],
    async (db, id: string) => new PreparedJson(await compute(db, { id, isAdmin: false })),
    2_000,
  );
  return (db: Db, requester: Viewer): Promise<PreparedJson> =>
    requester.isAdmin ? forAdmins.get(db) : perPerson.get(db, requester.id);
}

export const listPanelsJson = preparedList(listPanels);
export const groupedPanelsJson = preparedList(groupedPanels);

const dadosJson = new VersionedKeyedCache(['paineis', 'rls'], async (db, id: number) => {
  const panel = await catalogPanel(db, id);
  return panel ? new PreparedJson({ ...panel, rlsConfigurations: await getRls(db, id) }) : null;
});

/** A panel with its RLS roles, for editing, as bytes made once per change of either. */
export async function findPanelDataJson(db: Db, id: number): Promise<PreparedJson> {
  const prepared = await dadosJson.get(db, id);
  if (!prepared) throw notFound(PANEL_NOT_FOUND);
  return prepared;
}

/** Everything configured on a panel: its report, its RLS roles and its linked users. */
export async function findPanelConfigurations(db: Db, id: number): Promise<PainelConfiguracoes> {
  const panel = await requirePanel(db, id);
  const [rlsConfigurations, usuariosVinculados] = await Promise.all([getRls(db, id), linkedUsers(db, id)]);
  return {
    painelId: id,
    nomePainel: panel.nomePainel,
    workspaceId: panel.workspaceId,
    reportId: panel.reportId,
    usaRls: panel.usaRls,
    rlsConfigurations,
    usuariosVinculados,
  };
}
