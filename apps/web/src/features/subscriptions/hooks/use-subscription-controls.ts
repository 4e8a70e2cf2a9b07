import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Assinatura } from '@paineis/contract/subscriptions';
import type { ConfirmDialogProps } from '../../../components/confirm-dialog.tsx';
import { errorMessage, statusOf } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useDeleteSubscription } from '../api/delete-subscription.ts';
import { useUpdateSubscription } from '../api/update-subscription.ts';

export const PAUSE_ERROR = 'Não foi possível alterar a assinatura.';
export const DELETE_ERROR = 'Não foi possível excluir a assinatura.';

interface SubscriptionControlsOptions {
  /** Shows a refusal's message; null clears the last one as another change is asked for. */
  onNotice: (text: string | null) => void;
  /** What the confirmation says of the subscription about to be deleted. */
  deleteMessage: (assinatura: Assinatura) => string;
}

/**
 * 'Pausar' / 'Retomar' and 'Excluir' (after a confirmation), as 'Minhas assinaturas' offers them to an owner and
 * 'Assinaturas' to an administrator, for anyone's: one flow, so both pages word and refresh alike.
 */
export function useSubscriptionControls({ onNotice, deleteMessage }: SubscriptionControlsOptions) {
  const queryClient = useQueryClient();
  const update = useUpdateSubscription();
  const remove = useDeleteSubscription();
  // Kept apart from `confirming` so that the dialog keeps its text while it fades out.
  const [toDelete, setToDelete] = useState<Assinatura | null>(null);
  const [confirming, setConfirming] = useState(false);

  const fail = (e: unknown, fallback: string) => {
    onNotice(errorMessage(e, fallback));
    // Gone meanwhile (deleted elsewhere): every list as it is now.
    if (statusOf(e) === 404) void queryClient.invalidateQueries({ queryKey: queryKeys.subscriptions });
  };

  const toggle = (a: Assinatura) => {
    onNotice(null);
    update.mutate({ id: a.id, body: { ativa: !a.ativa } }, { onError: (e) => fail(e, PAUSE_ERROR) });
  };
  const isToggling = (a: Assinatura) => update.isPending && update.variables.id === a.id;

  const askDelete = (a: Assinatura) => {
    onNotice(null);
    setToDelete(a);
    setConfirming(true);
  };
  const confirmDelete = () => {
    if (!toDelete) return;
    onNotice(null);
    remove.mutate(toDelete.id, {
      onError: (e) => fail(e, DELETE_ERROR),
      onSettled: () => setConfirming(false),
    });
  };

  const deleteDialog: ConfirmDialogProps = {
    show: confirming,
    title: 'Excluir assinatura',
    message: toDelete ? deleteMessage(toDelete) : '',
    confirmLabel: 'Excluir',
    variant: 'danger',
    busy: remove.isPending,
    onConfirm: confirmDelete,
    onCancel: () => setConfirming(false),
  };

  return { toggle, isToggling, askDelete, deleteDialog };
}
