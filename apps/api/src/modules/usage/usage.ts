import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/domain-failure.ts';
import { PreparedJson } from '../../lib/prepared-json.ts';
import {
  anonymiseViewsBefore,
  insertOpenings,
  panelViews,
  peopleWithoutSignInJson,
  purgeViewsBefore,
  recentPanelsOf,
  type NewOpening,
} from './usage.repository.ts';
import { SNAPSHOT_DAYS, UsageSnapshots } from './usage-snapshot.ts';
import type { OpeningRecorder } from './opening-recorder.ts';
import { dataExportsPerPanel } from './data-exports.repository.ts';
import { PANEL_NOT_FOUND } from '@paineis/contract/panels';

export { OpeningRecorder } from './opening-recorder.ts';
export type { NewOpening, OpeningTimes } from './usage.repository.ts';

const DAY_MS = 86_400_000;

/** Per database: the views of the days before today, held in memory (usage-snapshot.ts). */
const snapshots = new WeakMap<Db, UsageSnapshots>();
function snapshotsOf(db: Db, timeZone: string): UsageSnapshots {
  let held = snapshots.get(db);
  if (!held || held.timeZone !== timeZone) snapshots.set(db, (held = new UsageSnapshots(db, timeZone)));
  return held;
}

/** Makes the next answer read the past days again: after views of past days changed (the purge, tests). */
export function forgetUsageSnapshots(db: Db): void {
  snapshots.delete(db);
}

/**
 * Views of the past written at once (the demo's history, demo/demo-history.ts), in one statement as the recorder writes
 * its batches. Inside a transaction: once it commits, forgetUsageSnapshots(db) makes '/uso' read them.
 */
export async function seedOpenings(db: Db, views: NewOpening[]): Promise<void> {
  if (views.length > 0) await insertOpenings(db, views);
}

/** The answers of '/uso' (docs/requirements.md#usage), each for a period of `dias` days ending today. */
export function usageAnswers(db: Db, timeZone: string) {
  return {
    perDay: async (dias: number) => ({ dias, porDia: await snapshotsOf(db, timeZone).perDay(dias) }),
    // Thousands of panels: serialised as they are (the rows are ours), not checked against the schema one by one.
    // Data exports are few (each a person's click): counted live, whatever the snapshot holds.
    perPanel: async (dias: number) => {
      const [paineis, exports] = await Promise.all([
        snapshotsOf(db, timeZone).perPanel(dias),
        dataExportsPerPanel(db, dias, timeZone),
      ]);
      return new PreparedJson({
        dias,
        paineis: paineis.map((painel) => ({ ...painel, exportacoesDados: exports.get(painel.painelId) ?? 0 })),
      });
    },
    // Up to every person of the directory, as JSON made by the database.
    withoutSignIn: async (dias: number) => PreparedJson.fromJson(await peopleWithoutSignInJson(db, dias, timeZone)),
    panelDetail: async (painelId: number, dias: number) => {
      const detail = await panelViews(db, painelId, dias, timeZone);
      if (!detail) throw notFound(PANEL_NOT_FOUND);
      return { dias, ...detail };
    },
  };
}

/** The background job's part: views past retention go; with anonymisation on, older views lose their person. */
export async function purgeOldViews(db: Db, usage: Config['usage'], now = Date.now()): Promise<void> {
  await purgeViewsBefore(db, new Date(now - usage.retentionDays * DAY_MS));
  if (usage.anonymiseAfterDays > 0) await anonymiseViewsBefore(db, new Date(now - usage.anonymiseAfterDays * DAY_MS));
  // Anonymised views count no person any more: within the periods '/uso' shows, the snapshot is read again.
  if (usage.anonymiseAfterDays > 0 && usage.anonymiseAfterDays <= SNAPSHOT_DAYS) forgetUsageSnapshots(db);
}

/**
 * The last `limit` distinct panels this person opened, newest first, among `painelIds` (those they may still open):
 * the written views, and those the recorder still holds (written every 250 ms).
 */
export async function recentlyOpened(
  db: Db,
  recorder: OpeningRecorder,
  usuarioId: string,
  painelIds: number[],
  limit: number,
): Promise<number[]> {
  const allowed = new Set(painelIds);
  const unwritten = recorder.unwrittenOpeningsOf(usuarioId).filter((v) => allowed.has(v.painelId));
  const written = await recentPanelsOf(db, usuarioId, painelIds, limit);
  // Oldest first, the queue in the order it was opened: openings within one millisecond keep that order.
  const openings = [...written.reverse(), ...unwritten];
  const latest = new Map<number, { at: number; order: number }>();
  openings.forEach(({ painelId, momento }, order) => {
    const at = momento.getTime();
    const seen = latest.get(painelId);
    if (!seen || at >= seen.at) latest.set(painelId, { at, order });
  });
  return [...latest]
    .sort(([, a], [, b]) => b.at - a.at || b.order - a.order)
    .slice(0, limit)
    .map(([painelId]) => painelId);
}
