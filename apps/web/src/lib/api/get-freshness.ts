import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AtualizacaoPainel, AtualizacoesPaineis } from '@paineis/contract/power-bi';
import { api } from '../api-client.ts';
import { queryKeys } from '../query-keys.ts';

/**
 * How often a screen asks again for what Power BI says of its panels (this and get-panel-health.ts): the API itself
 * reads Power BI every few minutes, in the background, so the answers are cheap.
 */
export const POWER_BI_STATUS_REFRESH_MS = 5 * 60_000;

/** GET /paineis/atualizacoes: by panel id, the last refresh of each panel the person may open. */
export async function getFreshness(): Promise<AtualizacoesPaineis> {
  const { data } = await api.get<AtualizacoesPaineis>('/paineis/atualizacoes');
  return data;
}

export const freshnessQuery = queryOptions({
  queryKey: queryKeys.freshness,
  queryFn: getFreshness,
  staleTime: POWER_BI_STATUS_REFRESH_MS,
});

/**
 * One panel's freshness, undefined until known (the list does not wait for it). Each row observes only its own
 * entry: an answer that changes one panel re-renders that row alone (the answer is shared structurally).
 */
export function usePanelFreshness(painelId: number): AtualizacaoPainel | undefined {
  const { data } = useQuery({
    ...freshnessQuery,
    // A row coming into view shows what is known; asking again is the screen's (the answer is fetched when none).
    refetchOnMount: false,
    select: (all: AtualizacoesPaineis) => (Object.hasOwn(all, painelId) ? all[painelId] : undefined),
  });
  return data;
}
