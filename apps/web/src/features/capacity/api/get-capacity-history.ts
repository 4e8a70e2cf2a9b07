import { useQuery } from '@tanstack/react-query';
import type { MudancaCapacidade } from '@paineis/contract/capacity';
import { api } from '../../../lib/api-client.ts';
import { capacityKeys } from './capacity-keys.ts';

/** GET /capacidade/historico: each change of state, newest first, with its reason. */
export async function getCapacityHistory(): Promise<MudancaCapacidade[]> {
  const { data } = await api.get<MudancaCapacidade[]>('/capacidade/historico');
  return data;
}

/**
 * `refreshMs`: as often as the state, so that a change the screen sees is also in the history; null: not asked for
 * (no capacity configured).
 */
export function useCapacityHistory(refreshMs: number | null) {
  return useQuery({
    queryKey: capacityKeys.history,
    queryFn: getCapacityHistory,
    enabled: refreshMs !== null,
    staleTime: 0,
    refetchInterval: refreshMs ?? false,
  });
}
