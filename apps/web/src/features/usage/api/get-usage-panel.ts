import { useQuery } from '@tanstack/react-query';
import type { PeriodoUso } from '@paineis/contract/usage-audit-constants';
import type { UsoDetalhePainel } from '@paineis/contract/usage';
import { api } from '../../../lib/api-client.ts';
import { usageKeys } from './usage-keys.ts';

/** GET /uso/paineis/{id}?dias=N: the newest openings of one panel in the period, and how many there were. */
export async function getUsagePanel(id: number, dias: PeriodoUso): Promise<UsoDetalhePainel> {
  const { data } = await api.get<UsoDetalhePainel>(`/uso/paineis/${id}`, { params: { dias } });
  return data;
}

/** Asked for only while a panel is chosen (`id` null: none). */
export function useUsagePanel(id: number | null, dias: PeriodoUso) {
  return useQuery({
    queryKey: usageKeys.panel(id ?? 0, dias),
    queryFn: () => getUsagePanel(id!, dias),
    enabled: id !== null,
    staleTime: 0,
  });
}
