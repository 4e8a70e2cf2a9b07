import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GrupoPaineis, Painel, ReorderItem } from '@paineis/contract/panels';
import { queryKeys } from '../../../lib/query-keys.ts';
import { restoreGroupedPanels, showGroupedPanels } from './get-grouped-panels.ts';
import { getPanelData } from './get-panel-data.ts';
import { panelUpdateBody, reorderPanels } from './reorder-panels.ts';
import { updatePanel } from './update-panel.ts';

export interface MoveVariables {
  /** The grouped list as it looks after the drop, shown before the server answers. */
  groups: GrupoPaineis[];
  painelId: number;
  classificacaoId: number;
  /** 1-based position in the new classification. */
  ordem: number;
  /** The new classification renumbered from 1, so the panel that was at `ordem` does not tie with it. */
  items: ReorderItem[];
}

/**
 * Moving to another classification is saved by a panel update (docs/requirements.md#drag-reorder):
 * GET /paineis/{id}/dados, then PUT /paineis/{id} with the new classification and ordem, then the target group's
 * renumbering.
 */
export async function movePanel({ painelId, classificacaoId, ordem, items }: MoveVariables): Promise<Painel> {
  const dados = await getPanelData(painelId);
  const painel = await updatePanel({ id: painelId, body: panelUpdateBody(dados, { classificacaoId, ordem }) });
  await reorderPanels(items);
  return painel;
}

export function useMovePanel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: movePanel,
    onMutate: ({ groups }) => showGroupedPanels(queryClient, groups),
    onError: (_error, _variables, context) => restoreGroupedPanels(queryClient, context?.previous),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.panels, refetchType: 'none' }),
  });
}
