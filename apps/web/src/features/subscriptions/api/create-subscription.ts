import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Assinatura, AssinaturaBody } from '@paineis/contract/subscriptions';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /assinaturas: subscribes the person to a panel (201, with its next delivery). */
export async function createSubscription(body: AssinaturaBody): Promise<Assinatura> {
  return (await api.post<Assinatura>('/assinaturas', body)).data;
}

export function useCreateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSubscription,
    // Not awaited: the dialog closes at once; 'Minhas assinaturas' reads the list anew when opened.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.subscriptions }),
  });
}
