import { useQuery } from '@tanstack/react-query';
import type { Assinatura, Assinaturas } from '@paineis/contract/subscriptions';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /assinaturas: the person's own subscriptions. */
export async function getSubscriptions(): Promise<Assinatura[]> {
  return (await api.get<Assinaturas>('/assinaturas')).data.assinaturas;
}

export function useSubscriptions() {
  return useQuery({ queryKey: queryKeys.subscriptions, queryFn: getSubscriptions });
}
