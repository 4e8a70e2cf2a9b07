import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Assinatura, AssinaturaBody } from '@paineis/contract/subscriptions';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * POST /assinaturas: subscribes the person to a panel (201, with its next delivery); an administrator's may name
 * other people and groups (`destinatarios`).
 */
export async function createSubscription(body: AssinaturaBody): Promise<Assinatura> {
  return (await api.post<Assinatura>('/assinaturas', body)).data;
}

export function useCreateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSubscription,
    // Every list of subscriptions (the key is their prefix): the person's own and, for an administrator, all of them.
    // Not awaited: the dialog closes at once, and a list reads itself anew when shown.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.subscriptions }),
  });
}
