import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Assinatura, AssinaturaPatchBody } from '@paineis/contract/subscriptions';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export interface UpdateSubscriptionInput {
  id: string;
  body: AssinaturaPatchBody;
}

/**
 * PATCH /assinaturas/{id}: its schedule, format or content, or `ativa` to pause and resume it (an administrator may
 * pause and resume anyone's, nothing more).
 */
export async function updateSubscription({ id, body }: UpdateSubscriptionInput): Promise<Assinatura> {
  return (await api.patch<Assinatura>(`/assinaturas/${id}`, body)).data;
}

export function useUpdateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSubscription,
    onSuccess: async (updated) => {
      // The answer is the row as it is now (its next delivery included): shown at once in the person's own list and
      // in every subscription (an administrator pauses anyone's), then both read again with the rest (the key is
      // their prefix).
      const replace = (list: Assinatura[] | undefined) => list?.map((a) => (a.id === updated.id ? updated : a));
      queryClient.setQueryData<Assinatura[]>(queryKeys.subscriptions, replace);
      queryClient.setQueryData<Assinatura[]>(queryKeys.allSubscriptions, replace);
      await queryClient.invalidateQueries({ queryKey: queryKeys.subscriptions });
    },
  });
}
