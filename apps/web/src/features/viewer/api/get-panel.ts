import { useQuery } from '@tanstack/react-query';
import type { PainelComEmbed } from '@paineis/contract/panels';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

async function fetchPanel(id: number, papel: string | undefined): Promise<PainelComEmbed> {
  const { data } = await api.get<PainelComEmbed>(`/paineis/${id}`, { params: papel ? { papel } : {} });
  return data;
}

interface EarlyAnswer {
  id: number;
  papel: string | undefined;
  answer: Promise<PainelComEmbed>;
  /** Set once the answer has arrived. */
  value?: PainelComEmbed;
}

/** The answer asked for as the app started (prefetchPanel), kept for the viewer's first request. */
let early: EarlyAnswer | null = null;

/** The early answer, if it is for this panel and role; any other request drops it. Taken once. */
function takeEarly(id: number, papel: string | undefined): EarlyAnswer | null {
  const taken = early;
  early = null;
  return taken && taken.id === id && taken.papel === papel ? taken : null;
}

/**
 * Asks for a panel before the viewer's code has arrived (app/first-screen.ts, when the app opens on the viewer). The
 * viewer takes the answer if it asks for the same panel and role: already arrived, its first render shows the panel.
 */
export function prefetchPanel(id: number, papel?: string): Promise<PainelComEmbed> {
  const entry: EarlyAnswer = { id, papel, answer: fetchPanel(id, papel) };
  // Handled by whoever takes it; one nobody takes must not be reported as unhandled.
  entry.answer.then(
    (value) => (entry.value = value),
    () => undefined,
  );
  early = entry;
  return entry.answer;
}

/** GET /paineis/{id}: one panel with what is needed to embed its report; an admin may ask for one RLS role. */
export function getPanel(id: number, papel?: string): Promise<PainelComEmbed> {
  const prefetched = takeEarly(id, papel);
  // A failed early request is made again now, so that its error is handled as the viewer's own (a 401 signs out).
  return prefetched ? prefetched.answer.catch(() => fetchPanel(id, papel)) : fetchPanel(id, papel);
}

export function usePanel(id: number, papel?: string) {
  return useQuery({
    queryKey: [...queryKeys.panel(id), 'embed', papel ?? null],
    queryFn: () => getPanel(id, papel),
    enabled: Number.isInteger(id) && id > 0,
    // The early answer, when it has arrived: the viewer's first render shows the panel, with no second request.
    initialData: () => (early?.value && takeEarly(id, papel)?.value) || undefined,
    // An embed token is personal and short-lived: ask again each time the viewer opens (the early answer is that
    // asking), and keep nothing once it has closed. Not gcTime 0: a query nobody observes yet is dropped when that
    // time is up, and React may take longer than 0 ms between rendering the viewer and subscribing it, so the viewer
    // would fetch again and render twice (the report embedded twice).
    staleTime: 0,
    gcTime: 1_000,
    refetchOnMount: false,
  });
}
