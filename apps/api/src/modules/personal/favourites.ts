import { RECENTES } from '@paineis/contract/personal';
import type { Db } from '../../db/client.ts';
import { panelsVisibleTo, requireVisiblePanel } from '../panels/panel-access.ts';
import type { Requester } from '../panels/requester.ts';
import { recentlyOpened, type OpeningRecorder } from '../usage/usage.ts';
import { addFavourite, favouritePanelIds } from './favourites.repository.ts';

/**
 * Favourites and recently opened panels (docs/requirements.md#personal), each person's own and only among the panels
 * they may still open: a panel whose access they lost leaves both lists.
 */

/** This person's favourites, in the list screen's order. */
export async function favouritesOf(db: Db, requester: Requester): Promise<{ paineis: number[] }> {
  const [visible, favourites] = await Promise.all([
    panelsVisibleTo(db, requester),
    favouritePanelIds(db, requester.id),
  ]);
  return { paineis: visible.filter((id) => favourites.has(id)) };
}

/** Marks a panel this person may open as a favourite (404 for any other, as if it did not exist). */
export async function markFavourite(db: Db, requester: Requester, painelId: number): Promise<void> {
  await requireVisiblePanel(db, painelId, requester);
  await addFavourite(db, requester.id, painelId);
}

/** The last RECENTES distinct panels this person opened, newest first. */
export async function recentsOf(db: Db, recorder: OpeningRecorder, requester: Requester) {
  const visible = await panelsVisibleTo(db, requester);
  return { paineis: await recentlyOpened(db, recorder, requester.id, visible, RECENTES) };
}
