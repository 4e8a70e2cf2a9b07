import { sql } from 'drizzle-orm';
import { rows, type Database, type Db } from './client.ts';

/**
 * Cached data sets, each with a version that statement triggers bump on every write to the tables behind it
 * (migrations 0001, 0005, 0009 and 0011): panels and classifications, people, the panels' links, their RLS roles,
 * revoked session tokens, groups, and the Power BI side read in the background (each panel's last refresh, and its
 * health).
 */
export type DataSet = 'paineis' | 'usuarios' | 'vinculos' | 'rls' | 'revogacoes' | 'grupos' | 'atualizacoes' | 'saude';

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
  /** Bumped whenever a version held here changes, so each set list's joined key is built once per change. */
  private changes = 0;
  private readonly keys = new Map<readonly DataSet[], { changes: number; key: string }>();
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
    // Versions only grow. A notification still on its way when a refresh read a later version from the table must
    // not take memory back to it: the cache loaded under the later one would look stale until the next bump.
    const held = this.versions.get(set);
    if (held !== undefined && version <= held) return;
    this.versions.set(set, version);
    this.changes += 1;
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

  async current(sets: readonly DataSet[]): Promise<string> {
    if (!this.live) await this.refresh();
    return this.joined(sets);
  }

  /**
   * The sets' versions as one key, from memory and without waiting, or null while memory cannot be trusted (then
   * `current` asks the database). Every cached read of every request starts here.
   */
  currentNow(sets: readonly DataSet[]): string | null {
    return this.live ? this.joined(sets) : null;
  }

  private joined(sets: readonly DataSet[]): string {
    let memo = this.keys.get(sets);
    if (memo?.changes !== this.changes) {
      memo = { changes: this.changes, key: sets.map((set) => this.versions.get(set) ?? 0).join('.') };
      this.keys.set(sets, memo);
    }
    return memo.key;
  }

  private async refresh() {
    const writes = this.writes;
    const notifiedBefore = new Map(this.notified);
    const fresh = await readVersions(this.db);
    for (const [set, version] of fresh) {
      if ((this.notified.get(set) ?? 0) === (notifiedBefore.get(set) ?? 0)) this.versions.set(set, version);
    }
    this.changes += 1;
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
  if (feed) return feed.current(sets);
  const all = await readVersions(db);
  return sets.map((set) => all.get(set) ?? 0).join('.');
}

/** The sets' versions when memory holds them (a live feed), without waiting; null otherwise. */
const versionsNow = (db: Db, sets: readonly DataSet[]): string | null => feeds.get(db)?.currentNow(sets) ?? null;

/**
 * A value computed from some data sets and kept until one of them changes: one load per change instead of
 * loading and decoding thousands of rows per request. Kept per database (tests run several apps in one process).
 * Callers must not modify what it returns.
 */
export class VersionedCache<T> {
  private readonly entries = new WeakMap<Db, Loaded<T>>();

  constructor(
    private readonly sets: readonly DataSet[],
    private readonly load: (db: Db) => Promise<T>,
  ) {}

  get(db: Db): Promise<T> {
    const entry = this.entries.get(db);
    // The hot path: versions in memory and the value loaded under them, without an await of its own.
    if (entry && entry.version === versionsNow(db, this.sets)) return entry.value;
    return this.getFresh(db);
  }

  /** The value if memory holds it for the current versions, loaded; undefined otherwise (then `get` it). */
  peek(db: Db): T | undefined {
    const entry = this.entries.get(db);
    return entry?.loaded && entry.version === versionsNow(db, this.sets) ? entry.loaded.value : undefined;
  }

  private async getFresh(db: Db): Promise<T> {
    // The version is read before the load starts, so what is loaded is never older than the version it is kept under.
    const version = await versionsOf(db, this.sets);
    let entry = this.entries.get(db);
    if (entry?.version !== version) {
      // Requests arriving together share one load; a failed load is not kept.
      const loaded = loading(version, this.load(db));
      entry = loaded;
      this.entries.set(db, loaded);
      loaded.value.catch(() => {
        if (this.entries.get(db) === loaded) this.entries.delete(db);
      });
    }
    return entry.value;
  }
}

/** A value loading or loaded under a version; once loaded, `loaded` holds it for synchronous reads. */
interface Loaded<T> {
  version: string;
  value: Promise<T>;
  loaded?: { value: T };
}

function loading<T>(version: string, value: Promise<T>): Loaded<T> {
  const entry: Loaded<T> = { version, value };
  value.then(
    (loaded) => {
      entry.loaded = { value: loaded };
    },
    () => undefined,
  );
  return entry;
}

/**
 * The same, one value per key (a person's links, a panel's roles), loaded on first use and all dropped when a
 * data set changes. At most `capacity` keys are kept; the oldest go first.
 */
export class VersionedKeyedCache<K, V> {
  private readonly entries = new WeakMap<Db, { version: string; values: Map<K, Loaded<V>> }>();

  constructor(
    private readonly sets: readonly DataSet[],
    private readonly load: (db: Db, key: K) => Promise<V>,
    private readonly capacity = 10_000,
  ) {}

  get(db: Db, key: K): Promise<V> {
    const entry = this.entries.get(db);
    // The hot path, as VersionedCache's.
    if (entry && entry.version === versionsNow(db, this.sets)) {
      const hit = entry.values.get(key);
      if (hit) return hit.value;
    }
    return this.getFresh(db, key);
  }

  /** The key's value if memory holds it for the current versions, loaded; undefined otherwise (then `get` it). */
  peek(db: Db, key: K): V | undefined {
    const entry = this.entries.get(db);
    if (!entry || entry.version !== versionsNow(db, this.sets)) return undefined;
    const hit = entry.values.get(key);
    return hit?.loaded?.value;
  }

  private async getFresh(db: Db, key: K): Promise<V> {
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
      const loaded = loading(version, this.load(db, key));
      value = loaded;
      values.set(key, loaded);
      loaded.value.catch(() => {
        if (values.get(key) === loaded) values.delete(key);
      });
    }
    return value.value;
  }
}
