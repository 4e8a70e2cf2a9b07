import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GrupoPaineis, PainelBody, PainelDados, ReorderItem } from '@paineis/contract/panels';
import { api, statusOf } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { restoreGroupedPanels, showGroupedPanels } from './get-grouped-panels.ts';
import { getPanelData } from './get-panel-data.ts';
import { updatePanel } from './update-panel.ts';

/**
 * The PUT /paineis/{id} body that keeps a panel as it is but for `changes`. rlsConfigurations is left out on
 * purpose: the server then keeps the panel's RLS roles untouched.
 */
export function panelUpdateBody(
  dados: PainelDados,
  changes: Pick<PainelBody, 'classificacaoId' | 'ordem'>,
): PainelBody {
  return {
    nomePainel: dados.nomePainel,
    workspaceId: dados.workspaceId,
    reportId: dados.reportId,
    usaRls: dados.usaRls,
    classificacaoId: dados.classificacaoId,
    ordem: dados.ordem,
    ...changes,
  };
}

/**
 * docs/requirements.md#reorder-405-fallback: without the reorder endpoint, each panel is fetched and updated with its
 * new ordem.
 */
async function reorderOneByOne(items: readonly ReorderItem[]) {
  let next = 0;
  // A few at a time: quicker than one by one, without a burst of hundreds of requests.
  const worker = async () => {
    while (next < items.length) {
      const { painelId, novaOrdem } = items[next++]!;
      const dados = await getPanelData(painelId);
      await updatePanel({ id: painelId, body: panelUpdateBody(dados, { ordem: novaOrdem }) });
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, items.length) }, worker));
}

/** POST /paineis/reorder (all or nothing on the server); a 405 falls back to one update per panel. */
export async function reorderPanels(items: readonly ReorderItem[]): Promise<void> {
  if (items.length === 0) return;
  try {
    await api.post('/paineis/reorder', items);
  } catch (error) {
    if (statusOf(error) !== 405) throw error;
    await reorderOneByOne(items);
  }
}

export interface ReorderVariables {
  /** The grouped list as it looks after the drop, shown before the server answers. */
  groups: GrupoPaineis[];
  items: ReorderItem[];
}

export function useReorderPanels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ items }: ReorderVariables) => reorderPanels(items),
    onMutate: ({ groups }) => showGroupedPanels(queryClient, groups),
    onError: (_error, _variables, context) => restoreGroupedPanels(queryClient, context?.previous),
    // The list already shows the saved order; other cached panel data (ordem) is only marked stale.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.panels, refetchType: 'none' }),
  });
}
