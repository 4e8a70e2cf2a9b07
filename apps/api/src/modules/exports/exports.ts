import type { Db } from '../../db/client.ts';
import { purgeExportsBefore } from './exports.repository.ts';

/** Power BI keeps an export's file for about a day; a job's record is of no use after that. */
export const EXPORT_RETENTION_MS = 24 * 60 * 60_000;

/** The background job's part: export records older than a day go. */
export async function purgeOldExports(db: Db, now = Date.now()): Promise<void> {
  await purgeExportsBefore(db, new Date(now - EXPORT_RETENTION_MS));
}
