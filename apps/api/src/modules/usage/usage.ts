import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import {
  anonymiseViewsBefore,
  panelViews,
  peopleWithoutSignIn,
  purgeViewsBefore,
  usePerPanel,
  viewsPerDay,
} from './usage.repository.ts';

export { ViewRecorder } from './view-recorder.ts';

const DAY_MS = 86_400_000;

/** What '/uso' shows (docs/requirements.md#usage), each for a period of `dias` days ending today. */
export const usageQueries = (db: Db, timeZone: string) => ({
  perDay: (dias: number) => viewsPerDay(db, dias, timeZone),
  perPanel: (dias: number) => usePerPanel(db, dias, timeZone),
  withoutSignIn: (dias: number) => peopleWithoutSignIn(db, dias, timeZone),
  panelViews: (painelId: number, dias: number) => panelViews(db, painelId, dias, timeZone),
});

/** The background job's part: views past retention go; with anonymisation on, older views lose their person. */
export async function purgeOldViews(db: Db, usage: Config['usage'], now = Date.now()): Promise<void> {
  await purgeViewsBefore(db, new Date(now - usage.retentionDays * DAY_MS));
  if (usage.anonymiseAfterDays > 0) await anonymiseViewsBefore(db, new Date(now - usage.anonymiseAfterDays * DAY_MS));
}
