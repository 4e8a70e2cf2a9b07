import type { Db } from '../../db/client.ts';
import type { EmbeddingService } from '../../integrations/power-bi/embedding-service.ts';
import type { PreparedJson } from '../../lib/prepared-json.ts';
import type { OpeningRecorder, OpeningTimes } from '../usage/usage.ts';
import { openPanel, requireVisiblePanel } from './panel-access.ts';
import { preparedOpening } from './panel-answers.ts';
import type { Requester } from './requester.ts';

/** What opening a panel needs of the app. */
export interface OpeningDeps {
  db: Db;
  embedding: EmbeddingService;
  openingRecorder: OpeningRecorder;
}

/** The report's embed token for this person, with their RLS identity (panel-access.ts decides who and which roles). */
async function embed(deps: OpeningDeps, id: number, requester: Requester, papel: string | undefined) {
  const { panel, roles } = await openPanel(deps.db, id, requester, papel);
  return { panel, embedding: await deps.embedding.embedFor(panel, { ...requester, roles }) };
}

/**
 * GET /paineis/{id}: the panel with its embed token, as prepared bytes, and the opening recorded in the background
 * (usage); `openingId` is the record's id, for the viewer's report of its load times.
 */
export async function openForViewing(
  deps: OpeningDeps,
  id: number,
  requester: Requester,
  papel: string | undefined,
): Promise<{ answer: PreparedJson; openingId: string }> {
  const { panel, embedding } = await embed(deps, id, requester, papel);
  const openingId = deps.openingRecorder.record({
    usuarioId: requester.id,
    painelId: panel.id,
    identidade: embedding.identity?.username ?? null,
    papeis: embedding.identity?.roles ?? [],
    requestId: embedding.requestId,
    tokenDoCache: embedding.fromCache,
  });
  return { answer: preparedOpening(panel, embedding.info, true), openingId };
}

/** GET /paineis/{id}/token: a new embed token, to renew it without reloading the report. */
export async function renewedToken(
  deps: OpeningDeps,
  id: number,
  requester: Requester,
  papel: string | undefined,
): Promise<PreparedJson> {
  const { panel, embedding } = await embed(deps, id, requester, papel);
  return preparedOpening(panel, embedding.info, false);
}

/** The viewer's load times and errors for one of this person's openings of a panel they may still open. */
export async function reportOpeningTimes(
  deps: OpeningDeps,
  requester: Requester,
  times: Omit<OpeningTimes, 'usuarioId'>,
): Promise<void> {
  await requireVisiblePanel(deps.db, times.painelId, requester);
  deps.openingRecorder.report({ ...times, usuarioId: requester.id });
}
