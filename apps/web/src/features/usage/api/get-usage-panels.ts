import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PeriodoUso } from '@paineis/contract/usage-audit-constants';
import type { UsoPaineis } from '@paineis/contract/usage';
import { api } from '../../../lib/api-client.ts';
import { usageKeys } from './usage-keys.ts';

/** GET /uso/paineis?dias=N: every panel, most viewed first, the never opened ones with zero views. */
export async function getUsagePanels(dias: PeriodoUso): Promise<UsoPaineis> {
  const { data } = await api.get<UsoPaineis>('/uso/paineis', { params: { dias } });
  return data;
}

export function useUsagePanels(dias: PeriodoUso) {
  return useQuery({
    queryKey: usageKeys.panels(dias),
    queryFn: () => getUsagePanels(dias),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}
