import type { PainelComEmbed } from '@paineis/contract/panels';
import { VISUALIZACAO_HEADER } from '@paineis/contract/usage-audit-constants';
import { api } from '../../../lib/api-client.ts';
import { earlyAnswer } from '../../../lib/early-answer.ts';

/** The answer header that names the view the server recorded for this opening. */
export const VIEW_HEADER = VISUALIZACAO_HEADER;

/** One opening's view record (docs/requirements.md#usage), and when the viewer asked for it (performance.now()). */
export interface PanelView {
  id: string;
  askedAt: number;
}

/** A panel as one opening got it: the viewer reports its load times to `view` (null: the answer named none). */
export interface OpenedPanel {
  panel: PainelComEmbed;
  view: PanelView | null;
}

/** The early answer's key: the panel and the RLS role asked for. */
const keyOf = (id: number, papel: string | undefined) => `${id}\n${papel ?? ''}`;

/** GET /paineis/{id}, with the view the server recorded for this opening (its answer header). */
async function fetchPanel(id: number, papel: string | undefined): Promise<OpenedPanel> {
  // The load times count from here (docs/requirements.md#usage): the moment the viewer asked for the panel.
  const askedAt = performance.now();
  const { data, headers } = await api.get<PainelComEmbed>(`/paineis/${id}`, { params: { papel } });
  const viewId = headers.get(VIEW_HEADER)?.trim();
  return { panel: data, view: viewId ? { id: viewId, askedAt } : null };
}

const early = earlyAnswer<OpenedPanel>();

/**
 * Asks for a panel before the viewer's code has arrived (app/first-screen.ts, when the app opens on the viewer). The
 * viewer takes the answer if it asks for the same panel and role: already arrived, its first render shows the panel.
 */
export function prefetchPanel(id: number, papel?: string): Promise<OpenedPanel> {
  return early.prefetch(keyOf(id, papel), () => fetchPanel(id, papel));
}

/**
 * GET /paineis/{id}: one panel with what is needed to embed its report, and the view the server recorded; an admin
 * may ask for one RLS role.
 */
export function getPanel(id: number, papel?: string): Promise<OpenedPanel> {
  return early.takeOrAsk(keyOf(id, papel), () => fetchPanel(id, papel));
}

/** The early answer, taken, when it has arrived: the viewer's first render shows it, with no second request. */
export function takeArrivedPanel(id: number, papel?: string): OpenedPanel | undefined {
  return early.takeArrived(keyOf(id, papel));
}
