import { useQuery } from '@tanstack/react-query';
import type { Capacidade } from '@paineis/contract/capacity';
import type { EstadoCapacidade } from '@paineis/contract/capacity-constants';
import { api } from '../../../lib/api-client.ts';
import { capacityKeys } from './capacity-keys.ts';

/** While the capacity changes state, the screen follows it this often; otherwise every half minute. */
export const CHANGING_REFETCH_MS = 3_000;
export const STEADY_REFETCH_MS = 30_000;
const CHANGING: readonly EstadoCapacidade[] = ['pausando', 'retomando', 'escalando'];

/** GET /capacidade: its state, SKU and kind, the policy, and this month's hours and cost. */
export async function getCapacity(): Promise<Capacidade> {
  const { data } = await api.get<Capacidade>('/capacidade');
  return data;
}

export function useCapacity() {
  return useQuery({
    queryKey: capacityKeys.capacity,
    queryFn: getCapacity,
    staleTime: 0,
    // Live: Azure's state moves on its own (a pause by the idle rule, a resume by an opening).
    refetchInterval: (query) =>
      query.state.data && CHANGING.includes(query.state.data.estado) ? CHANGING_REFETCH_MS : STEADY_REFETCH_MS,
  });
}
