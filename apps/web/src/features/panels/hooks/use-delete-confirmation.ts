import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { GrupoPaineis, Painel } from '@paineis/contract/panels';
import type { ConfirmDialogProps } from '../../../components/confirm-dialog.tsx';
import { errorMessage, statusOf } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useDeletePanel } from '../api/delete-panel.ts';

export const DELETE_ERROR = 'Erro ao excluir item';
export const DELETE_CONFIRMATION =
  'Tem certeza que deseja excluir este painel/classificação? Esta ação não pode ser desfeita.';

type PendingDelete = { kind: 'painel'; painel: Painel } | { kind: 'classificacao'; grupo: GrupoPaineis };

interface DeleteConfirmationOptions {
  /** Deletes a classification, rejecting with the server's error (app/ passes the classifications feature's call). */
  onDeleteClassification: (id: number) => Promise<void>;
  /** Shows a failed delete's message; null clears the last one as a delete is asked for. */
  onNotice: (notice: string | null) => void;
}

/**
 * The panel list's delete flow, for a panel or a whole classification: ask, confirm in the one dialog, delete, and
 * reload the list where the server's answer calls for it.
 */
export function useDeleteConfirmation({ onDeleteClassification, onNotice }: DeleteConfirmationOptions) {
  const queryClient = useQueryClient();
  const deletePanel = useDeletePanel();
  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null);
  // Separate from pendingDelete so the dialog keeps its text while it fades out.
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const ask = useCallback(
    (pending: PendingDelete) => {
      onNotice(null);
      setPendingDelete(pending);
      setConfirming(true);
    },
    [onNotice],
  );
  const askDeletePanel = useCallback((painel: Painel) => ask({ kind: 'painel', painel }), [ask]);
  const askDeleteGroup = useCallback((grupo: GrupoPaineis) => ask({ kind: 'classificacao', grupo }), [ask]);

  async function confirmDelete() {
    if (!pendingDelete) return;
    setDeleting(true);
    try {
      if (pendingDelete.kind === 'painel') {
        await deletePanel.mutateAsync(pendingDelete.painel.id);
      } else {
        await onDeleteClassification(pendingDelete.grupo.id);
        // Its panels now sit under 'Sem Classificação': reload whatever the caller refreshed or not.
        await queryClient.invalidateQueries({ queryKey: queryKeys.groupedPanels });
      }
    } catch (e) {
      onNotice(errorMessage(e, DELETE_ERROR));
      // Already gone (another admin deleted it): show the list as it is now.
      if (statusOf(e) === 404) void queryClient.invalidateQueries({ queryKey: queryKeys.groupedPanels });
    } finally {
      setDeleting(false);
      setConfirming(false);
    }
  }

  const dialog: ConfirmDialogProps = {
    show: confirming,
    title: pendingDelete?.kind === 'classificacao' ? 'Excluir Classificação' : 'Excluir Painel',
    message: DELETE_CONFIRMATION,
    confirmLabel: 'Excluir',
    variant: 'danger',
    busy: deleting,
    onConfirm: () => void confirmDelete(),
    onCancel: () => setConfirming(false),
  };

  return { askDeletePanel, askDeleteGroup, dialog };
}
