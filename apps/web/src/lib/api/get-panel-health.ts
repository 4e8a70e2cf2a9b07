import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SaudePainel } from '@paineis/contract/power-bi';
import { api } from '../api-client.ts';
import { queryKeys } from '../query-keys.ts';
import { POWER_BI_STATUS_REFRESH_MS } from './get-freshness.ts';

/** GET /paineis/saude (admins): the last check of each panel's report. */
export async function getPanelHealth(): Promise<SaudePainel[]> {
  const { data } = await api.get<SaudePainel[]>('/paineis/saude');
  return data;
}

export const panelHealthQuery = queryOptions({
  queryKey: queryKeys.panelHealth,
  queryFn: getPanelHealth,
  staleTime: POWER_BI_STATUS_REFRESH_MS,
});

// The answer is a list: indexed once per answer, so that each row finds its panel at once.
const healthIndexes = new WeakMap<SaudePainel[], Map<number, SaudePainel>>();
function healthIndex(all: SaudePainel[]): Map<number, SaudePainel> {
  let index = healthIndexes.get(all);
  if (!index) {
    index = new Map(all.map((saude) => [saude.painelId, saude]));
    healthIndexes.set(all, index);
  }
  return index;
}

/** One panel's last health check; asked for only when `enabled` (admins: the API refuses others). */
export function usePanelHealth(painelId: number, enabled: boolean): SaudePainel | undefined {
  const { data } = useQuery({
    ...panelHealthQuery,
    enabled,
    refetchOnMount: false,
    select: (all: SaudePainel[]) => healthIndex(all).get(painelId),
  });
  return enabled ? data : undefined;
}
