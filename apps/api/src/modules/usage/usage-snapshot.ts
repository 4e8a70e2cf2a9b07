import type { UsoDia, UsoPainel } from '@paineis/contract/usage';
import type { Db } from '../../db/client.ts';
import { panelsForUsage, viewRowsSince, viewsPerDayBetween, type ViewRow } from './usage.repository.ts';

/** The longest period '/uso' offers: the snapshot holds this many days. */
export const SNAPSHOT_DAYS = 90;

/**
 * The views of the whole days before today, held in memory per panel (docs/decisions/011-usage-snapshot.md): a day
 * that is over no longer changes, so the heavy part of every '/uso' answer is read from the database once a day. A
 * year of views is about 250,000 rows in 90 days, and any aggregate over them takes longer than the budget even on
 * PostgreSQL; the panels are so many that a day-by-panel rollup would hold as many rows as the views themselves.
 * Each answer adds today's views, read live (a few thousand rows), so it is never out of date.
 */
interface Snapshot {
  /** The first instant after the snapshot: midnight today, when it was made; views from then on are read live. */
  end: Date;
  /** The calendar day of `end` (YYYY-MM-DD) in the portal's time zone. */
  endDay: string;
  perDay: Map<string, UsoDia>;
  byPanel: Map<number, Columns>;
}

/** One panel's views, as columns: day offset before `end` (1 = yesterday), person, times, error, instant. */
interface Columns {
  daysAgo: number[];
  person: number[];
  loaded: (number | null)[];
  rendered: (number | null)[];
  failed: boolean[];
  count: number[];
  at: number[];
}

const people = new Map<string, number>();
const personIndex = (id: string | null) => {
  if (id === null) return -1;
  let index = people.get(id);
  if (index === undefined) people.set(id, (index = people.size));
  return index;
};

function columnsOf(rows: ViewRow[], endDay: string): Map<number, Columns> {
  const end = Date.parse(`${endDay}T00:00:00Z`);
  const byPanel = new Map<number, Columns>();
  for (const r of rows) {
    let c = byPanel.get(r.painelId);
    if (!c)
      byPanel.set(
        r.painelId,
        (c = { daysAgo: [], person: [], loaded: [], rendered: [], failed: [], count: [], at: [] }),
      );
    c.daysAgo.push(Math.round((end - Date.parse(`${r.dia}T00:00:00Z`)) / 86_400_000));
    c.person.push(personIndex(r.usuarioId));
    c.loaded.push(r.carregadoMs);
    c.rendered.push(r.renderizadoMs);
    c.failed.push(r.comErro);
    c.count.push(r.quantidade);
    c.at.push(r.momento);
  }
  return byPanel;
}

/** The nearest-rank percentile (as percentile_disc) of values already sorted; null for none. */
function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

/** A panel's row of '/uso' as far as views make it (the data exports are counted live, usage.ts). */
type ViewFigures = Omit<UsoPainel, 'exportacoesDados'>;

export class UsageSnapshots {
  private snapshot: Snapshot | null = null;
  private making: Promise<Snapshot> | null = null;

  constructor(
    private readonly db: Db,
    readonly timeZone: string,
  ) {}

  /** Views and distinct people per day, for the last `dias` days including today (days without views: zeros). */
  async perDay(dias: number): Promise<UsoDia[]> {
    const snapshot = await this.current();
    const live = await viewsPerDayBetween(this.db, this.timeZone, snapshot.end, null);
    const known = new Map([...snapshot.perDay, ...live.map((d) => [d.dia, d] as const)]);
    const today = todayIn(this.timeZone);
    return Array.from({ length: dias }, (_, i) => {
      const dia = addDays(today, i - dias + 1);
      return known.get(dia) ?? { dia, visualizacoes: 0, pessoas: 0 };
    });
  }

  /** Every panel with its views, people, last view, load times and errors in the period, most viewed first. */
  async perPanel(dias: number): Promise<ViewFigures[]> {
    const snapshot = await this.current();
    const [panels, liveRows] = await Promise.all([
      panelsForUsage(this.db),
      viewRowsSince(this.db, this.timeZone, snapshot.end),
    ]);
    const live = columnsOf(liveRows, snapshot.endDay);
    // Whole days before today that the period covers: from yesterday back to `dias - 1` days ago; the snapshot
    // may be a day or more old, and then the live rows hold the days since it was made.
    const today = todayIn(this.timeZone);
    const staleDays = Math.round(
      (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${snapshot.endDay}T00:00:00Z`)) / 86_400_000,
    );
    const oldest = dias - 1 - staleDays; // in days before snapshot.end
    const answer = panels.map((panel): ViewFigures => {
      const loaded: number[] = [];
      const rendered: number[] = [];
      const who = new Set<number>();
      let views = 0;
      let errors = 0;
      let last = -Infinity;
      const add = (c: Columns | undefined, within: (daysAgo: number) => boolean) => {
        if (!c) return;
        for (let i = 0; i < c.daysAgo.length; i++) {
          if (!within(c.daysAgo[i]!)) continue;
          views += c.count[i]!;
          if (c.person[i]! >= 0) who.add(c.person[i]!);
          if (c.loaded[i] != null) loaded.push(c.loaded[i]!);
          if (c.rendered[i] != null) rendered.push(c.rendered[i]!);
          if (c.failed[i]) errors += 1;
          if (c.at[i]! > last) last = c.at[i]!;
        }
      };
      add(snapshot.byPanel.get(panel.painelId), (ago) => ago <= oldest);
      // Live rows are on or after snapshot.end (daysAgo ≤ 0), or a day the period still covers.
      add(live.get(panel.painelId), (ago) => ago <= oldest);
      loaded.sort((a, b) => a - b);
      rendered.sort((a, b) => a - b);
      return {
        ...panel,
        visualizacoes: views,
        pessoas: who.size,
        ultimaVisualizacao: views ? new Date(last).toISOString() : null,
        carregadoP50: percentile(loaded, 0.5),
        carregadoP95: percentile(loaded, 0.95),
        renderizadoP50: percentile(rendered, 0.5),
        renderizadoP95: percentile(rendered, 0.95),
        erros: errors,
      };
    });
    return answer.sort(
      (a, b) =>
        b.visualizacoes - a.visualizacoes ||
        a.nomePainel.localeCompare(b.nomePainel, 'pt-BR') ||
        a.painelId - b.painelId,
    );
  }

  /** The snapshot of the whole days before today; an older one is served while the new one is made. */
  private async current(): Promise<Snapshot> {
    const today = todayIn(this.timeZone);
    if (this.snapshot && this.snapshot.endDay === today) return this.snapshot;
    this.making ??= this.make(today).finally(() => (this.making = null));
    if (this.snapshot) {
      // Yesterday's snapshot with the live rows since is still exact; the new one replaces it when ready.
      this.making.catch(() => undefined);
      return this.snapshot;
    }
    return this.making;
  }

  private async make(endDay: string): Promise<Snapshot> {
    const end = startOfDay(endDay, this.timeZone);
    const start = startOfDay(addDays(endDay, -SNAPSHOT_DAYS), this.timeZone);
    const [rows, perDay] = await Promise.all([
      viewRowsSince(this.db, this.timeZone, start, end),
      viewsPerDayBetween(this.db, this.timeZone, start, end),
    ]);
    const snapshot = {
      end,
      endDay,
      perDay: new Map(perDay.map((d) => [d.dia, d])),
      byPanel: columnsOf(rows, endDay),
    };
    this.snapshot = snapshot;
    return snapshot;
  }
}

/** Today's date (YYYY-MM-DD) in a time zone. */
function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The instant a calendar day begins in a time zone (its offset read at noon UTC of that day: DST-safe enough). */
function startOfDay(day: string, timeZone: string): Date {
  const noon = new Date(`${day}T12:00:00Z`);
  const local = new Date(noon.toLocaleString('en-US', { timeZone }));
  const utc = new Date(noon.toLocaleString('en-US', { timeZone: 'UTC' }));
  return new Date(Date.parse(`${day}T00:00:00Z`) - (local.getTime() - utc.getTime()));
}
