import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { insertOpenings, updateOpeningTimes, type NewOpening, type OpeningTimes } from './usage.repository.ts';

/**
 * How often the pending records are written, and how many wait at most before a write starts at once: small batches
 * often, so that no one write holds the embedded database (on the event loop) for more than a few milliseconds.
 */
const FLUSH_EVERY_MS = 250;
const FLUSH_AT = 200;
/**
 * Rows in one statement at most, with a turn of the event loop between statements. On PGlite a statement runs on the
 * event loop, for about 1 ms plus 45 µs a row (200 rows: 11 ms); a backlog of 1,000 held every request for 46 ms,
 * and 100,000 (a database that refused writes a while) for seconds. Smaller statements were measured worse: at 500
 * distinct openings a second, 50-row statements raised the loop's p99 delay (median 13 ms against 7 ms), each
 * statement costing its 1 ms again; so a normal batch stays one statement, and only a backlog is cut.
 */
export const ROWS_PER_WRITE = FLUSH_AT;
/** While the database refuses them, records wait in memory up to this many; then the oldest are dropped (logged). */
const MAX_PENDING = 100_000;

/**
 * Views of panels, recorded without making the opening wait (docs/requirements.md#usage): `record` only queues the
 * row, and a timer writes the queue in one statement every FLUSH_EVERY_MS (or at once past FLUSH_AT rows). The viewer's
 * report of its load times follows by id; while its view is still queued, it is merged into it. `close` writes what
 * is left, so a graceful shutdown loses nothing.
 */
export class OpeningRecorder {
  private views: NewOpening[] = [];
  /** The batch being written: not in the table yet, no longer in `views`. */
  private writingViews: NewOpening[] = [];
  /** The views of the batch being filled, by person, panel and identity. */
  private queued = new Map<string, NewOpening>();
  private times: OpeningTimes[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private closed = false;
  /** Openings recorded, rows written and the time their writes took (the benchmark reports the costs). */
  readonly stats = { recorded: 0, written: 0, writeMs: 0 };

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Queues one view; returns its id, for the viewer's report. The same person opening the same panel with the same
   * identity again before the batch is written (a reload storm, a script) adds to that view's `quantidade` instead
   * of a row: every opening is counted, and a burst cannot turn into a write per request.
   */
  record(view: Omit<NewOpening, 'id' | 'momento' | 'quantidade' | 'carregadoMs' | 'renderizadoMs' | 'erros'>): string {
    this.stats.recorded += 1;
    const key = keyOf(view);
    const repeated = this.queued.get(key);
    if (repeated) {
      repeated.quantidade += 1;
      return repeated.id;
    }
    const queued: NewOpening = {
      ...view,
      id: randomUUID(),
      momento: new Date(),
      quantidade: 1,
      carregadoMs: null,
      renderizadoMs: null,
      erros: [],
    };
    this.views.push(queued);
    this.queued.set(key, queued);
    this.schedule(this.views.length >= FLUSH_AT);
    return queued.id;
  }

  /** Queues the viewer's report for one of this person's views of this panel. */
  report(times: OpeningTimes): void {
    const queued = this.views.find(
      (v) => v.id === times.id && v.usuarioId === times.usuarioId && v.painelId === times.painelId,
    );
    if (queued) Object.assign(queued, pickTimes(times));
    else this.times.push(times);
    this.schedule(this.times.length >= FLUSH_AT);
  }

  /**
   * The panels this person opened whose views are not written yet, with when: what they opened a moment ago counts
   * among their recents before the batch reaches the table.
   */
  unwrittenOpeningsOf(usuarioId: string): { painelId: number; momento: Date }[] {
    return [...this.writingViews, ...this.views]
      .filter((v) => v.usuarioId === usuarioId)
      .map((v) => ({ painelId: v.painelId, momento: v.momento }));
  }

  /** Writes everything queued, including what is queued while it writes (tests, closing). */
  async flush(): Promise<void> {
    while (this.writing || this.views.length > 0 || this.times.length > 0) {
      await (this.writing ?? this.startWrite(true));
    }
  }

  /**
   * One write at a time. Under load it writes again at once only while FLUSH_AT or more are queued, else on the
   * timer: a write per request, or back-to-back commits of a few rows, would keep the database's own process busy
   * on the cores the portal serves from.
   */
  private startWrite(all: boolean): Promise<void> {
    this.writing = this.drain(all).finally(() => {
      this.writing = null;
      if (this.views.length > 0 || this.times.length > 0) this.retryLater();
    });
    return this.writing;
  }

  /**
   * Each round writes what is queued when it starts, ROWS_PER_WRITE rows a statement, letting the event loop turn
   * between statements (requests waiting meanwhile are served); then another round while the queue is long (`all`:
   * while anything is queued).
   */
  private async drain(all: boolean): Promise<void> {
    let written = 0;
    do {
      let views = this.views.length;
      let times = this.times.length;
      if (views === 0 && times === 0) return;
      while (views > 0 || times > 0) {
        if (written++ > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        views -= await this.writeChunk();
        times -= ROWS_PER_WRITE;
      }
    } while (
      all ? this.views.length + this.times.length > 0 : Math.max(this.views.length, this.times.length) >= FLUSH_AT
    );
  }

  /** One statement's worth (ROWS_PER_WRITE views, then as many reports) from the queue's head; the views written. */
  private async writeChunk(): Promise<number> {
    const views = this.views.splice(0, ROWS_PER_WRITE);
    const times = this.times.splice(0, ROWS_PER_WRITE);
    // Later openings of these views start new records (those of views still queued keep merging).
    for (const view of views) {
      const key = keyOf(view);
      if (this.queued.get(key) === view) this.queued.delete(key);
    }
    if (views.length === 0 && times.length === 0) return 0;
    this.writingViews = views;
    try {
      const started = performance.now();
      // Views first: a report may name a view of this very batch.
      if (views.length) await insertOpenings(this.db, views);
      if (times.length) await updateOpeningTimes(this.db, times);
      this.stats.written += views.length;
      this.stats.writeMs += performance.now() - started;
    } catch (err) {
      this.log.warn({ err, visualizacoes: views.length }, 'falha ao gravar visualizações; nova tentativa em seguida');
      this.views.unshift(...views);
      this.times.unshift(...times);
      const excess = this.views.length - MAX_PENDING;
      if (excess > 0) {
        this.views.splice(0, excess);
        this.log.error({ descartadas: excess }, 'visualizações descartadas: o banco não as aceita');
      }
      this.times.splice(0, Math.max(0, this.times.length - MAX_PENDING));
      throw err;
    } finally {
      this.writingViews = [];
    }
    return views.length;
  }

  /** Stops the timer and writes what is queued; records made afterwards are written at once. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** A write now (closed, or the queue is long), or within FLUSH_EVERY_MS; a failed write is tried again later. */
  private schedule(now: boolean): void {
    if (this.writing) return; // the write under way, or the timer after it, takes what is queued next
    if (this.closed || now) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      void this.startWrite(this.closed).catch(() => undefined); // tried again on the timer
    } else this.retryLater();
  }

  private retryLater(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      if (!this.writing) void this.startWrite(false).catch(() => undefined);
    }, FLUSH_EVERY_MS).unref();
  }
}

/** Openings with the same key, queued in one batch, are one record with its `quantidade`. */
function keyOf(view: Pick<NewOpening, 'usuarioId' | 'painelId' | 'identidade' | 'papeis'>): string {
  return `${view.usuarioId}\n${view.painelId}\n${view.identidade ?? ''}\n${view.papeis.join('\n')}`;
}

function pickTimes(times: OpeningTimes): Partial<NewOpening> {
  return {
    ...(times.carregadoMs == null ? {} : { carregadoMs: times.carregadoMs }),
    ...(times.renderizadoMs == null ? {} : { renderizadoMs: times.renderizadoMs }),
    ...(times.erros?.length ? { erros: times.erros } : {}),
  };
}
