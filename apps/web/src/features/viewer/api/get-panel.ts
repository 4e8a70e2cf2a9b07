import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';
import { getPanel, takeArrivedPanel } from './fetch-panel.ts';

export function usePanel(id: number, papel?: string) {
  return useQuery({
    queryKey: [...queryKeys.panel(id), 'embed', papel ?? null],
    queryFn: () => getPanel(id, papel),
    enabled: Number.isInteger(id) && id > 0,
    // The early answer, when it has arrived: the viewer's first render shows the panel, with no second request.
    initialData: () => takeArrivedPanel(id, papel),
    // An embed token is personal and short-lived: ask again each time the viewer opens (the early answer is that
    // asking), and keep nothing once it has closed. Not gcTime 0: a query nobody observes yet is dropped when that
    // time is up, and React may take longer than 0 ms between rendering the viewer and subscribing it, so the viewer
    // would fetch again and render twice (the report embedded twice).
    staleTime: 0,
    gcTime: 1_000,
    refetchOnMount: false,
  });
}
