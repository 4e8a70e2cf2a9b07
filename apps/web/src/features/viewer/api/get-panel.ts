import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';
import { getPanel, takeArrivedPanel } from './fetch-panel.ts';

const panelKey = (id: number, papel: string | undefined) => [...queryKeys.panel(id), 'embed', papel ?? null] as const;

export function usePanel(id: number, papel?: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: panelKey(id, papel),
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
  // Each opening is one of the person's recents: leaving the viewer marks them stale, so the list asks again.
  useEffect(
    () => () => void queryClient.invalidateQueries({ queryKey: queryKeys.recents, refetchType: 'none' }),
    [queryClient],
  );
  // Closing the viewer forgets the answer at once, so opening the panel again within gcTime asks the server again: a
  // new opening is recorded (usage, 'Recentes') and the token is fresh. After a turn of the event loop, and only
  // with nobody observing it, since StrictMode unmounts and mounts again at once in development.
  useEffect(
    () => () => {
      setTimeout(() => {
        const cache = queryClient.getQueryCache();
        const cached = cache.find({ queryKey: panelKey(id, papel), exact: true });
        if (cached && cached.getObserversCount() === 0) cache.remove(cached);
      }, 0);
    },
    [queryClient, id, papel],
  );
  return query;
}
