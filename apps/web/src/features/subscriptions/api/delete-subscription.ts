import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Assinatura } from '@paineis/contract/subscriptions';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** DELETE /assinaturas/{id} (204): nothing more is sent. The owner's, or anyone's for an administrator. */
export async function deleteSubscription(id: string): Promise<void> {
  await api.delete(`/assinaturas/${id}`);
}

export function useDeleteSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSubscription,
    onSuccess: async (_, id) => {
      // Gone at once from the person's own list and from every subscription (an administrator deletes anyone's),
      // then both read again (the key is their prefix).
      const without = (list: Assinatura[] | undefined) => list?.filter((a) => a.id !== id);
      queryClient.setQueryData<Assinatura[]>(queryKeys.subscriptions, without);
      queryClient.setQueryData<Assinatura[]>(queryKeys.allSubscriptions, without);
      await queryClient.invalidateQueries({ queryKey: queryKeys.subscriptions });
    },
  });
}
