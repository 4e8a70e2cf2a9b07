import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Assinatura, AssinaturaBody } from '@paineis/contract/subscriptions';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /assinaturas: a subscription, here for the people and groups in `destinatarios`. */
export async function createSubscription(body: AssinaturaBody): Promise<Assinatura> {
  const { data } = await api.post<Assinatura>('/assinaturas', body);
  return data;
}

export function useCreateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSubscription,
    // Every list of subscriptions: this one, and the administrator's own (they may have named themselves).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.subscriptions }),
  });
}
