import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AtualizacaoPainel, AtualizacoesPaineis, SaudePainel } from '@paineis/contract/power-bi';
import { api } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

/*
 * What Power BI says of each panel, as the list and the viewer show it: when its data was last refreshed (everyone)
 * and whether its report can still be opened (admins). The API reads both in the background, so these answers are
 * cheap; each is asked for once per screen (the screen's route keeps it fresh, useKeepPowerBiStatusFresh), and a
 * row (or the viewer's header) picks its own panel's entry out, never asking by itself.
 */

/** How often a screen asks again: the API itself reads Power BI every few minutes. */
const REFRESH_MS = 5 * 60_000;

/** GET /paineis/atualizacoes: by panel id, the last refresh of each panel the person may open. */
export async function getFreshness(): Promise<AtualizacoesPaineis> {
  const { data } = await api.get<AtualizacoesPaineis>('/paineis/atualizacoes');
  return data;
}

/** GET /paineis/saude (admins): the last check of each panel's report. */
export async function getPanelHealth(): Promise<SaudePainel[]> {
  const { data } = await api.get<SaudePainel[]>('/paineis/saude');
  return data;
}

export const freshnessQuery = queryOptions({
  queryKey: queryKeys.freshness,
  queryFn: getFreshness,
  staleTime: REFRESH_MS,
});

export const panelHealthQuery = queryOptions({
  queryKey: queryKeys.panelHealth,
  queryFn: getPanelHealth,
  staleTime: REFRESH_MS,
});

/**
 * Asks for the answers as the screen opens and again every few minutes while it stays open. Called once per screen
 * (its route): each row asking on its own would set a timer per row. Reads nothing of the answers, so the screen
 * does not re-render when they arrive.
 */
export function useKeepPowerBiStatusFresh(isAdmin: boolean) {
  useQuery({ ...freshnessQuery, refetchInterval: REFRESH_MS });
  useQuery({ ...panelHealthQuery, enabled: isAdmin, refetchInterval: REFRESH_MS });
}

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

// The health answer is a list: indexed once per answer, so that each row finds its panel at once.
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
