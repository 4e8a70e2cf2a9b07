import type { PainelComEmbed } from '@paineis/contract/panels';
import { API_BASE } from '../../../config/api.ts';
import { api, ApiError } from '../../../lib/api-client.ts';
import { earlyAnswer } from '../../../lib/early-answer.ts';
import { readToken } from '../../../lib/session-storage.ts';

/**
 * The answer header that names the view the server recorded for this opening: VISUALIZACAO_HEADER of
 * @paineis/contract/usage, written out here because that module brings zod, which stays out of the browser.
 */
export const VIEW_HEADER = 'x-visualizacao-id';

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

/** A failed answer's body as the API client reads it: JSON when it parses, else its text. */
async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * GET /paineis/{id} made here rather than with `api.get`, which hands back no answer headers, and the view's id is
 * one. It fails as `api.get` would (an ApiError with the status and body), and a 401 is asked again through `api`, so
 * that the session ends the one way every other 401 ends it.
 */
async function fetchPanel(id: number, papel: string | undefined): Promise<OpenedPanel> {
  const path = `/paineis/${id}`;
  const target = new URL(`${API_BASE}${path}`, window.location.href);
  if (papel) target.searchParams.set('papel', papel);
  const headers: Record<string, string> = { Accept: 'application/json, text/plain, */*' };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  // The load times count from here (docs/requirements.md#usage): the moment the viewer asked for the panel.
  const askedAt = performance.now();
  let response: Response;
  try {
    response = await fetch(target, { headers });
  } catch (error) {
    throw new ApiError(`Falha de rede em GET ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (response.status === 401) {
    const { data } = await api.get<PainelComEmbed>(path, { params: { papel } });
    return { panel: data, view: null };
  }
  if (!response.ok) {
    throw new ApiError(`GET ${path} falhou com o status ${response.status}`, response.status, await bodyOf(response));
  }
  const panel = (await response.json()) as PainelComEmbed;
  const viewId = response.headers.get(VIEW_HEADER)?.trim();
  return { panel, view: viewId ? { id: viewId, askedAt } : null };
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
