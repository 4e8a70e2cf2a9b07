import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EnvioSolicitado } from '@paineis/contract/subscriptions';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /assinaturas/{id}/enviar-agora: a delivery now, besides the schedule's (202, with the server's message). */
export async function sendSubscriptionNow(id: string): Promise<EnvioSolicitado> {
  return (await api.post<EnvioSolicitado>(`/assinaturas/${id}/enviar-agora`)).data;
}

export function useSendSubscriptionNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendSubscriptionNow,
    // A refused send may have found the subscription changed (access lost): the list says so.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: queryKeys.subscriptions }),
  });
}
