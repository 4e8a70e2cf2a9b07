import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Assinatura } from '@paineis/contract/subscriptions';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** DELETE /assinaturas/{id} (204): nothing more is sent. */
export async function deleteSubscription(id: string): Promise<void> {
  await api.delete(`/assinaturas/${id}`);
}

export function useDeleteSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSubscription,
    onSuccess: async (_, id) => {
      queryClient.setQueryData<Assinatura[]>(queryKeys.subscriptions, (list) => list?.filter((a) => a.id !== id));
      await queryClient.invalidateQueries({ queryKey: queryKeys.subscriptions });
    },
  });
}
