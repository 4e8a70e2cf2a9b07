import type { PainelComEmbed } from '@paineis/contract/panels';
import { api } from '../../../lib/api-client.ts';
import { earlyAnswer } from '../../../lib/early-answer.ts';

/** The early answer's key: the panel and the RLS role asked for. */
const keyOf = (id: number, papel: string | undefined) => `${id}\n${papel ?? ''}`;

async function fetchPanel(id: number, papel: string | undefined): Promise<PainelComEmbed> {
  const { data } = await api.get<PainelComEmbed>(`/paineis/${id}`, { params: papel ? { papel } : {} });
  return data;
}

const early = earlyAnswer<PainelComEmbed>();

/**
 * Asks for a panel before the viewer's code has arrived (app/first-screen.ts, when the app opens on the viewer). The
 * viewer takes the answer if it asks for the same panel and role: already arrived, its first render shows the panel.
 */
export function prefetchPanel(id: number, papel?: string): Promise<PainelComEmbed> {
  return early.prefetch(keyOf(id, papel), () => fetchPanel(id, papel));
}

/** GET /paineis/{id}: one panel with what is needed to embed its report; an admin may ask for one RLS role. */
export function getPanel(id: number, papel?: string): Promise<PainelComEmbed> {
  return early.takeOrAsk(keyOf(id, papel), () => fetchPanel(id, papel));
}

/** The early answer, taken, when it has arrived: the viewer's first render shows it, with no second request. */
export function takeArrivedPanel(id: number, papel?: string): PainelComEmbed | undefined {
  return early.takeArrived(keyOf(id, papel));
}
