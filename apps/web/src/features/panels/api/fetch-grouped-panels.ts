import type { GrupoPaineis } from '@paineis/contract/panels';
import { api } from '../../../lib/api-client.ts';
import { earlyAnswer } from '../../../lib/early-answer.ts';

const KEY = 'agrupados';

async function fetchGroupedPanels(): Promise<GrupoPaineis[]> {
  const { data } = await api.get<GrupoPaineis[]>('/paineis/agrupados');
  return data;
}

const early = earlyAnswer<GrupoPaineis[]>();

/** Asks for the panel list's groups as the app starts on `/` (app/first-screen.ts), before the list's code is there. */
export function prefetchGroupedPanels(): Promise<GrupoPaineis[]> {
  return early.prefetch(KEY, fetchGroupedPanels);
}

/** GET /paineis/agrupados: the visible panels by classification, in the server's order (the early answer, once). */
export function getGroupedPanels(): Promise<GrupoPaineis[]> {
  return early.takeOrAsk(KEY, fetchGroupedPanels);
}

/** The early answer, taken, when it has arrived: the list's first render shows it, with no second request. */
export function takeArrivedGroupedPanels(): GrupoPaineis[] | undefined {
  return early.takeArrived(KEY);
}
