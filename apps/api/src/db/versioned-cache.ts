import { sql } from 'drizzle-orm';
import { rows, type Db } from './client.ts';

export type DataSet = 'paineis' | 'usuarios';

export async function dataVersion(db: Db, set: DataSet): Promise<number> {
  const [row] = await rows<{ versao: string | number }>(db, sql`select versao from versoes_dados where nome = ${set}`);
  return Number(row?.versao ?? 0);
}

/**
 * A value computed from one data set and kept until that set changes. The version lives in the database
 * (bumped by triggers on every write), so every API instance sees every change on its next request:
 * one indexed read instead of loading and decoding thousands of rows.
 */
export class VersionedCache<T> {
  // Per database: two apps in one process (tests) each have their own data and their own versions.
  private readonly entries = new WeakMap<Db, { version: number; value: Promise<T> }>();

  constructor(
    private readonly set: DataSet,
    private readonly load: (db: Db) => Promise<T>,
  ) {}

  async get(db: Db): Promise<{ version: number; value: T }> {
    const version = await dataVersion(db, this.set);
    let entry = this.entries.get(db);
    if (entry?.version !== version) {
      // Requests arriving together share one load; a failed load is not kept.
      const value = this.load(db);
      entry = { version, value };
      this.entries.set(db, entry);
      value.catch(() => {
        if (this.entries.get(db)?.value === value) this.entries.delete(db);
      });
    }
    return { version, value: await entry.value };
  }
}
