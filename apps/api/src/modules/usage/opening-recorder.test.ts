import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, resetDatabase } from '../../../test/database.ts';
import { eventually } from '../../../test/eventually.ts';
import { opening } from '../../../test/fixtures.ts';
import { rows, type Database, type Db } from '../../db/client.ts';
import { OpeningRecorder, ROWS_PER_WRITE } from './opening-recorder.ts';

/** opening-recorder.ts's FLUSH_EVERY_MS and MAX_PENDING, as the requirements' behaviour pins them. */
const FLUSH_EVERY_MS = 250;
const MAX_PENDING = 100_000;

/** What the recorder logged, level and message, with the fields it named. */
interface Logged {
  level: 'warn' | 'error';
  fields: Record<string, unknown>;
  message: string;
}

function memoryLog(lines: Logged[]): FastifyBaseLogger {
  const at =
    (level: Logged['level']) =>
    (fields: Record<string, unknown>, message: string): void => {
      lines.push({ level, fields, message });
    };
  const quiet = () => undefined;
  const log = { warn: at('warn'), error: at('error'), info: quiet, debug: quiet, trace: quiet, fatal: quiet };
  return { ...log, child: () => log, level: 'warn', silent: quiet } as unknown as FastifyBaseLogger;
}

describe('OpeningRecorder while the database refuses writes (docs/requirements.md#usage)', () => {
  let database: Database;
  /** The real database, except that every statement fails while `refusing` is set. */
  let refusing = false;
  let db: Db;
  let logged: Logged[];

  beforeAll(async () => {
    database = await openTestDatabase();
    db = new Proxy(database.db, {
      get(target, property, receiver) {
        if (property === 'execute' && refusing) {
          return () => Promise.reject(new Error('could not extend file: No space left on device'));
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  });
  beforeEach(async () => {
    await resetDatabase(database);
    refusing = false;
    logged = [];
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await database.close();
  });

  const stored = () =>
    rows<{ id: string; usuario_id: string; painel_id: number; quantidade: number }>(
      database.db,
      sql`select id, usuario_id, painel_id, quantidade from visualizacoes order by painel_id`,
    );

  it('keeps a failed write, with the records made meanwhile, and writes them all on the timer', async () => {
    const recorder = new OpeningRecorder(db, memoryLog(logged));
    refusing = true;
    const first = recorder.record(opening('ana', 1));
    // The same person and panel again before the write: one view standing for two openings.
    expect(recorder.record(opening('ana', 1))).toBe(first);

    // The timer's write fails: logged as a warning, the view stays queued.
    await vi.advanceTimersByTimeAsync(FLUSH_EVERY_MS);
    await eventually(() => expect(logged).toHaveLength(1));
    expect(logged[0]).toMatchObject({
      level: 'warn',
      fields: { visualizacoes: 1 },
      message: 'falha ao gravar visualizações; nova tentativa em seguida',
    });
    expect(logged[0]!.fields.err).toBeInstanceOf(Error);

    // Openings while the database refuses join the queue.
    const second = recorder.record(opening('ana', 2));
    expect(recorder.unwrittenOpeningsOf('ana').map((v) => v.painelId)).toEqual([1, 2]);

    // The database accepts writes again: nothing is written before the timer, everything when it fires.
    refusing = false;
    await vi.advanceTimersByTimeAsync(FLUSH_EVERY_MS - 1);
    expect(await stored()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await eventually(async () => expect(await stored()).toHaveLength(2));
    expect(await stored()).toEqual([
      { id: first, usuario_id: 'ana', painel_id: 1, quantidade: 2 },
      { id: second, usuario_id: 'ana', painel_id: 2, quantidade: 1 },
    ]);
    expect(recorder.unwrittenOpeningsOf('ana')).toEqual([]);
    expect(logged).toHaveLength(1);
    await recorder.close();
  });

  it('tries again on every tick while the database refuses, losing nothing', async () => {
    const recorder = new OpeningRecorder(db, memoryLog(logged));
    refusing = true;
    recorder.record(opening('ana', 1));
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await vi.advanceTimersByTimeAsync(FLUSH_EVERY_MS);
      await eventually(() => expect(logged).toHaveLength(attempt));
    }
    expect(logged.every((line) => line.level === 'warn')).toBe(true);
    expect(recorder.unwrittenOpeningsOf('ana')).toHaveLength(1);

    refusing = false;
    await vi.advanceTimersByTimeAsync(FLUSH_EVERY_MS);
    await eventually(async () => expect(await stored()).toHaveLength(1));
    await recorder.close();
  });

  it(`past ${MAX_PENDING} waiting records drops the oldest, with an error in the log`, async () => {
    const recorder = new OpeningRecorder(db, memoryLog(logged));
    refusing = true;
    // The oldest opening is the first person's; then MAX_PENDING more, each a panel of its own (no folding).
    recorder.record(opening('primeira', 0));
    for (let painelId = 1; painelId <= MAX_PENDING; painelId += 1) recorder.record(opening('outra', painelId));
    expect(recorder.unwrittenOpeningsOf('primeira')).toHaveLength(1);

    // Past FLUSH_AT records a write started at once; it fails, and only MAX_PENDING may wait.
    await eventually(() => expect(logged.map((line) => line.level)).toEqual(['warn', 'error']));
    expect(logged[1]).toEqual({
      level: 'error',
      fields: { descartadas: 1 },
      message: 'visualizações descartadas: o banco não as aceita',
    });
    expect(recorder.unwrittenOpeningsOf('primeira')).toEqual([]);
    const kept = recorder.unwrittenOpeningsOf('outra');
    expect(kept).toHaveLength(MAX_PENDING);
    expect(kept[0]!.painelId).toBe(1);
    expect(kept.at(-1)!.painelId).toBe(MAX_PENDING);
    // Not closed: closing would write the 100,000 rows, which this test is not about.
  });
});

describe('OpeningRecorder on the event loop (docs/requirements.md#usage)', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  beforeEach(async () => {
    await resetDatabase(database);
  });
  afterAll(async () => {
    await database.close();
  });

  it(`writes a long queue ${ROWS_PER_WRITE} rows a statement, letting the event loop turn between statements`, async () => {
    // Turns of the event loop, counted by a chain of setImmediate callbacks (one a turn).
    let turns = 0;
    let counting = true;
    const count = () => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    /** Each statement: the turn it started in, and the rows the table gained. */
    const statements: { turn: number; rows: number }[] = [];
    const stored = async () =>
      (await rows<{ n: number }>(database.db, sql`select count(*)::int as n from visualizacoes`))[0]!.n;
    const db = new Proxy(database.db, {
      get(target, property, receiver) {
        if (property === 'execute') {
          return async (query: Parameters<Db['execute']>[0]) => {
            const turn = turns;
            const before = await stored();
            const result = await target.execute(query);
            statements.push({ turn, rows: (await stored()) - before });
            return result;
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const recorder = new OpeningRecorder(db, memoryLog([]));

    // A backlog of distinct openings (nothing folds): 2.5 statements' worth, then a clean stop.
    const openings = ROWS_PER_WRITE * 2 + ROWS_PER_WRITE / 2;
    for (let painelId = 1; painelId <= openings; painelId += 1) recorder.record(opening('ana', painelId));
    await recorder.close();
    counting = false;

    expect(await stored()).toBe(openings);
    expect(statements.map((s) => s.rows)).toEqual([ROWS_PER_WRITE, ROWS_PER_WRITE, ROWS_PER_WRITE / 2]);
    // Each statement began in a later turn of the loop than the one before: requests waiting were served between.
    for (let i = 1; i < statements.length; i += 1) {
      expect(statements[i]!.turn).toBeGreaterThan(statements[i - 1]!.turn);
    }
  });
});
