import { useQuery } from '@tanstack/react-query';
import type { Assinatura, Assinaturas } from '@paineis/contract/subscriptions';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /assinaturas/todas (administrators): every subscription, whoever owns it. */
export async function getAllSubscriptions(): Promise<Assinatura[]> {
  const { data } = await api.get<Assinaturas>('/assinaturas/todas');
  return data.assinaturas;
}

export function useAllSubscriptions() {
  // Deliveries move 'Próximo envio' and 'Último envio' on: the list is read afresh on every visit.
  return useQuery({ queryKey: queryKeys.allSubscriptions, queryFn: getAllSubscriptions, staleTime: 0 });
}
