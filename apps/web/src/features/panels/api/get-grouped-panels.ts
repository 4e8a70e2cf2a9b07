import { type QueryClient, useQuery } from '@tanstack/react-query';
import type { GrupoPaineis } from '@paineis/contract/panels';
import { queryKeys } from '../../../lib/query-keys.ts';
import { getGroupedPanels, takeArrivedGroupedPanels } from './fetch-grouped-panels.ts';

export function useGroupedPanels() {
  return useQuery({
    queryKey: queryKeys.groupedPanels,
    queryFn: getGroupedPanels,
    // The groups asked for as the app started, when they have arrived: the list's first render shows them.
    initialData: takeArrivedGroupedPanels,
  });
}

/**
 * Shows a drag's outcome at once (optimistic update) and returns what to restore if saving fails. Running
 * fetches are cancelled so they cannot overwrite it with the old order.
 */
export async function showGroupedPanels(queryClient: QueryClient, groups: GrupoPaineis[]) {
  await queryClient.cancelQueries({ queryKey: queryKeys.groupedPanels });
  const previous = queryClient.getQueryData<GrupoPaineis[]>(queryKeys.groupedPanels);
  queryClient.setQueryData(queryKeys.groupedPanels, groups);
  return { previous };
}

/** After a failed save: back to the old order at once, then to whatever the server really holds. */
export async function restoreGroupedPanels(queryClient: QueryClient, previous: GrupoPaineis[] | undefined) {
  if (previous) queryClient.setQueryData(queryKeys.groupedPanels, previous);
  await queryClient.invalidateQueries({ queryKey: queryKeys.panels });
}
