import { sql } from 'drizzle-orm';
import { rows, type Database, type Db } from './client.ts';

/**
 * Cached data sets, each with a version that statement triggers bump on every write to the tables behind it
 * (migrations 0001 and 0005): panels and classifications, people, the panels' links, their RLS roles, and
 * revoked session tokens.
 */
export type DataSet = 'paineis' | 'usuarios' | 'vinculos' | 'rls' | 'revogacoes';

const CHANNEL = 'versoes_dados';

async function readVersions(db: Db): Promise<Map<string, number>> {
  const found = await rows<{ nome: string; versao: string | number }>(db, sql`select nome, versao from versoes_dados`);
  return new Map(found.map((r) => [r.nome, Number(r.versao)]));
}

export async function dataVersion(db: Db, set: DataSet): Promise<number> {
  return (await readVersions(db)).get(set) ?? 0;
}

/**
 * The versions of one database, held in memory and pushed by the database (docs/decisions/009-in-memory-reads.md):
 * every bump notifies channel 'versoes_dados', which every instance listens to. A cached read then costs no
 * round trip. It asks the database instead:
 * - while the channel is down (from a lost connection until it listens again and has re-read every version);
 * - once after this process itself wrote on PostgreSQL, whose notification may still be on its way: what a
 *   request wrote, the next request on the same instance reads (on PGlite the notification arrives first).
 */
class VersionFeed {
  private readonly versions = new Map<string, number>();
  /** Per set, how many notifications arrived: a read of the table that began before one must not undo it. */
  private readonly notified = new Map<string, number>();
  private up = false;
  private generation = 0;
  private writes = 0;
  private confirmedWrites = 0;
  users = 0;
  stop: (() => Promise<void>) | null = null;

  constructor(private readonly db: Db) {}

  message(payload: string) {
    const at = payload.lastIndexOf(':');
    const set = payload.slice(0, at);
    const version = Number(payload.slice(at + 1));
    if (!set || !Number.isFinite(version)) return;
    this.versions.set(set, version);
    this.notified.set(set, (this.notified.get(set) ?? 0) + 1);
  }

  state(up: boolean) {
    const generation = ++this.generation;
    this.up = false;
    if (!up) return;
    // Notifications sent while the channel was down are lost: read everything again before trusting memory.
    this.refresh().then(
      () => {
        if (generation === this.generation) this.up = true;
      },
      () => {
        // The database is unreachable: stay in fallback; every request asks it (and fails as it would anyway).
      },
    );
  }

  written() {
    this.writes += 1;
  }

  get live() {
    return this.up && this.confirmedWrites === this.writes;
  }

  async current(sets: readonly DataSet[]): Promise<number[]> {
    if (!this.live) await this.refresh();
    return sets.map((set) => this.versions.get(set) ?? 0);
  }

  private async refresh() {
    const writes = this.writes;
    const notifiedBefore = new Map(this.notified);
    const fresh = await readVersions(this.db);
    for (const [set, version] of fresh) {
      if ((this.notified.get(set) ?? 0) === (notifiedBefore.get(set) ?? 0)) this.versions.set(set, version);
    }
    this.confirmedWrites = Math.max(this.confirmedWrites, writes);
  }
}

const feeds = new WeakMap<Db, VersionFeed>();

/**
 * Starts listening for this database's version bumps (an app does at start; apps sharing a database share one
 * feed). Returns the function that stops it when the last user is gone. Without a feed, every cached read asks
 * the database for its versions.
 */
export async function startVersionFeed(
  database: Database,
  options: { reconnectDelayMs?: number } = {},
): Promise<() => Promise<void>> {
  let feed = feeds.get(database.db);
  if (!feed) {
    const created = new VersionFeed(database.db);
    feed = created;
    feeds.set(database.db, created);
    const stopWrites = database.onWrite(() => created.written());
    const stopListening = await database.listen(CHANNEL, {
      message: (payload) => created.message(payload),
      state: (up) => created.state(up),
      ...options,
    });
    created.stop = async () => {
      stopWrites();
      await stopListening();
    };
  }
  feed.users += 1;
  const mine = feed;
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    mine.users -= 1;
    if (mine.users > 0) return;
    feeds.delete(database.db);
    await mine.stop?.();
  };
}

/** Whether this database's versions are served from memory now (for health and tests). */
export function versionFeedLive(db: Db): boolean {
  return feeds.get(db)?.live ?? false;
}

async function versionsOf(db: Db, sets: readonly DataSet[]): Promise<string> {
  const feed = feeds.get(db);
  if (feed) return (await feed.current(sets)).join('.');
  const all = await readVersions(db);
  return sets.map((set) => all.get(set) ?? 0).join('.');
}

/**
 * A value computed from some data sets and kept until one of them changes: one load per change instead of
 * loading and decoding thousands of rows per request. Kept per database (tests run several apps in one process).
 * Callers must not modify what it returns.
 */
export class VersionedCache<T> {
  private readonly entries = new WeakMap<Db, { version: string; value: Promise<T> }>();

  constructor(
    private readonly sets: readonly DataSet[],
    private readonly load: (db: Db) => Promise<T>,
  ) {}

  async get(db: Db): Promise<T> {
    // The version is read before the load starts, so what is loaded is never older than the version it is kept under.
    const version = await versionsOf(db, this.sets);
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
    return entry.value;
  }
}

/**
 * The same, one value per key (a person's links, a panel's roles), loaded on first use and all dropped when a
 * data set changes. At most `capacity` keys are kept; the oldest go first.
 */
export class VersionedKeyedCache<K, V> {
  private readonly entries = new WeakMap<Db, { version: string; values: Map<K, Promise<V>> }>();

  constructor(
    private readonly sets: readonly DataSet[],
    private readonly load: (db: Db, key: K) => Promise<V>,
    private readonly capacity = 10_000,
  ) {}

  async get(db: Db, key: K): Promise<V> {
    const version = await versionsOf(db, this.sets);
    let entry = this.entries.get(db);
    if (entry?.version !== version) {
      entry = { version, values: new Map() };
      this.entries.set(db, entry);
    }
    const { values } = entry;
    let value = values.get(key);
    if (!value) {
      if (values.size >= this.capacity) values.delete(values.keys().next().value as K);
      const loading = this.load(db, key);
      value = loading;
      values.set(key, loading);
      loading.catch(() => {
        if (values.get(key) === loading) values.delete(key);
      });
    }
    return value;
  }
}
