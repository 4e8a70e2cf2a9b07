import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PeriodoUso } from '@paineis/contract/usage-audit-constants';
import type { UsoPorDia } from '@paineis/contract/usage';
import { api } from '../../../lib/api-client.ts';
import { usageKeys } from './usage-keys.ts';

/** GET /uso/por-dia?dias=N: views and distinct people on each day of the period, days without views included. */
export async function getUsagePerDay(dias: PeriodoUso): Promise<UsoPorDia> {
  const { data } = await api.get<UsoPorDia>('/uso/por-dia', { params: { dias } });
  return data;
}

export function useUsagePerDay(dias: PeriodoUso) {
  return useQuery({
    queryKey: usageKeys.perDay(dias),
    queryFn: () => getUsagePerDay(dias),
    // Views keep coming in: the page shows them as of its opening, not as of half a minute ago.
    staleTime: 0,
    // Switching the period keeps the last one on screen until the new one arrives.
    placeholderData: keepPreviousData,
  });
}
