import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { SQL } from 'drizzle-orm';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /**
   * Listens on a notification channel until the returned function is called. PostgreSQL: on a connection of its
   * own, opened again after it is lost (`state` says when it is up); PGlite: in this process, always up, and a
   * notification arrives before the statement that sent it answers.
   */
  listen(channel: string, handlers: ChannelHandlers): Promise<() => Promise<void>>;
  /**
   * Called once a statement that may have written (anything but a select, a commit included) has answered on
   * this process's connections: what this process wrote may not have been notified yet. PostgreSQL only.
   */
  onWrite(listener: () => void): () => void;
}

export interface ChannelHandlers {
  message(payload: string): void;
  /** Whether notifications are flowing: false from a lost connection until it is open and listening again. */
  state(up: boolean): void;
  /** How long to wait before opening a lost connection again (PostgreSQL). Default 500 ms. */
  reconnectDelayMs?: number;
}

export type DatabaseTarget =
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob | File }
  | { kind: 'postgres'; url: string; poolSize?: number };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') {
    const writeListeners = new Set<() => void>();
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      Client: writeTrackingClient(() => writeListeners.forEach((listener) => listener())),
    });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => undefined);
    return {
      kind: 'postgres',
      db: drizzlePostgres({ client: pool, schema }) as unknown as Db,
      close: () => pool.end(),
      listen: (channel, handlers) => listenPostgres(target.url, channel, handlers),
      onWrite: (listener) => {
        writeListeners.add(listener);
        return () => writeListeners.delete(listener);
      },
    };
  }
  const release = target.dataDir ? lockDataDir(target.dataDir) : () => undefined;
  const client = await PGlite.create({
    ...(target.dataDir ? { dataDir: target.dataDir } : {}),
    ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
  });
  return {
    kind: 'pglite',
    db: drizzlePglite({ client, schema }) as unknown as Db,
    close: async () => {
      await client.close();
      release();
    },
    listen: async (channel, handlers) => {
      const stop = await client.listen(channel, (payload) => handlers.message(payload));
      handlers.state(true);
      return stop;
    },
    onWrite: () => () => undefined,
  };
}

/** A pg client class that reports every statement that may have written, once it has answered. */
function writeTrackingClient(written: () => void): typeof pg.Client {
  return class extends pg.Client {
    override query(...args: unknown[]): never {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
      if (/^\s*select\b/i.test(text ?? '')) return super.query(...(args as [string])) as never;
      // The pool calls with a callback; drizzle's transactions await a promise. Either way, reported first.
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (...results: unknown[]) => {
          written();
          return (callback as (...r: unknown[]) => unknown)(...results);
        };
      }
      // Typed as the one-string form; every form passes through unchanged.
      const result = super.query(...(args as [string])) as Promise<unknown> | undefined;
      if (result && typeof result.then === 'function') result.then(written, written);
      return result as never;
    }
  };
}

/** LISTEN on a connection of its own; a lost connection is reported and opened again until stopped. */
async function listenPostgres(url: string, channel: string, handlers: ChannelHandlers): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  const delay = handlers.reconnectDelayMs ?? 500;
  const lost = () => {
    if (stopped) return;
    handlers.state(false);
    client?.removeAllListeners();
    void client?.end().catch(() => undefined);
    client = null;
    clearTimeout(retry);
    retry = setTimeout(() => void open(), delay);
  };
  const open = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: url, application_name: `paineis-${channel}` });
    client = next;
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.message(message.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`listen "${channel.replaceAll('"', '""')}"`);
      if (client === next && !stopped) handlers.state(true);
    } catch {
      if (client === next) lost();
    }
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const last = client;
    client = null;
    last?.removeAllListeners();
    await last?.end().catch(() => undefined);
  };
}

export class DataDirInUseError extends Error {}

/**
 * PGlite has one writer and no locking of its own: two processes on one folder would corrupt it.
 * A lock file with the owner's pid keeps a second process out; a stale one (dead pid) is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lock = path.join(path.dirname(dataDir), `${path.basename(dataDir)}.lock`);
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
  } catch {
    const owner = Number(readFileSync(lock, 'utf8'));
    if (owner && owner !== process.pid && isAlive(owner)) {
      throw new DataDirInUseError(
        `A pasta de dados ${dataDir} já está em uso pelo processo ${owner}. Pare-o antes, ou use outro DATA_DIR.`,
      );
    }
    writeFileSync(lock, String(process.pid));
  }
  return () => rmSync(lock, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs raw SQL and returns its rows (PGlite and node-postgres both answer `{ rows }`). */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}
