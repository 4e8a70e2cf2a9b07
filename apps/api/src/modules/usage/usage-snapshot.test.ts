import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, resetDatabase } from '../../../test/database.ts';
import { eventually } from '../../../test/eventually.ts';
import { opening, panel } from '../../../test/fixtures.ts';
import type { Database } from '../../db/client.ts';
import { UsageSnapshots } from './usage-snapshot.ts';
import { insertOpenings } from './usage.repository.ts';

/** UTC−3 all year: the portal's midnight is 03:00 UTC, so a UTC day would be wrong for three hours of each day. */
const TIME_ZONE = 'America/Sao_Paulo';

describe('the usage snapshot across midnight (docs/decisions/011-usage-snapshot.md)', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  beforeEach(async () => {
    await resetDatabase(database);
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await database.close();
  });

  /** One opening of a panel by a person at a local time in São Paulo (ISO without offset). */
  const view = (painelId: number, usuarioId: string, local: string) => ({
    ...opening(usuarioId, painelId),
    id: randomUUID(),
    momento: new Date(`${local}-03:00`),
    quantidade: 1,
    carregadoMs: null,
    renderizadoMs: null,
    erros: [],
  });
  const record = (...views: ReturnType<typeof view>[]) => insertOpenings(database.db, views);
  const figuresOf = async (snapshots: UsageSnapshots, dias: number, painelId: number) => {
    const found = (await snapshots.perPanel(dias)).find((p) => p.painelId === painelId)!;
    return { visualizacoes: found.visualizacoes, pessoas: found.pessoas, ultima: found.ultimaVisualizacao };
  };

  it('moves today to yesterday at the local midnight, exact both from the old snapshot and from the new one', async () => {
    const vendas = await panel(database.db, { nomePainel: 'Vendas' });
    // 23:50 on 10 March in São Paulo: already 11 March in UTC.
    vi.setSystemTime(new Date('2026-03-10T23:50:00-03:00'));
    await record(view(vendas.id, 'ana', '2026-03-09T12:00:00'), view(vendas.id, 'bia', '2026-03-10T08:00:00'));

    // Three portals' worth of snapshots, each made before midnight, so that each one's first answer after midnight
    // comes from yesterday's snapshot (the new one is made in the background meanwhile).
    const [forDays, forToday, forTwoDays] = [1, 2, 3].map(() => new UsageSnapshots(database.db, TIME_ZONE));
    expect(await forDays!.perDay(2)).toEqual([
      { dia: '2026-03-09', visualizacoes: 1, pessoas: 1 },
      { dia: '2026-03-10', visualizacoes: 1, pessoas: 1 },
    ]);
    expect(await figuresOf(forToday!, 1, vendas.id)).toEqual({
      visualizacoes: 1,
      pessoas: 1,
      ultima: '2026-03-10T11:00:00.000Z',
    });
    expect((await figuresOf(forTwoDays!, 2, vendas.id)).visualizacoes).toBe(2);

    // A minute before midnight: today's views are read live. A row that arrives late for a day already closed
    // (the 9th) is not: closed days are read once a day.
    await record(view(vendas.id, 'ana', '2026-03-10T23:59:00'), view(vendas.id, 'carla', '2026-03-09T13:00:00'));
    vi.setSystemTime(new Date('2026-03-10T23:59:30-03:00'));
    expect(await figuresOf(forToday!, 1, vendas.id)).toEqual({
      visualizacoes: 2,
      pessoas: 2,
      ultima: '2026-03-11T02:59:00.000Z',
    });

    // Ten minutes past midnight, with a view of the new day.
    vi.setSystemTime(new Date('2026-03-11T00:10:00-03:00'));
    await record(view(vendas.id, 'bia', '2026-03-11T00:05:00'));

    /** The 10th whole and the 11th as today, per day and for the panel: today only, then yesterday and today. */
    const expectTenthAndEleventh = async (perDay: UsageSnapshots, today: UsageSnapshots, twoDays: UsageSnapshots) => {
      expect(await perDay.perDay(2)).toEqual([
        { dia: '2026-03-10', visualizacoes: 2, pessoas: 2 },
        { dia: '2026-03-11', visualizacoes: 1, pessoas: 1 },
      ]);
      // Today only: the views of the 10th, read live a minute ago, no longer count.
      expect(await figuresOf(today, 1, vendas.id)).toEqual({
        visualizacoes: 1,
        pessoas: 1,
        ultima: '2026-03-11T03:05:00.000Z',
      });
      // Yesterday and today: the 10th's views (in the live rows now) and the 11th's.
      expect(await figuresOf(twoDays, 2, vendas.id)).toEqual({
        visualizacoes: 3,
        pessoas: 2,
        ultima: '2026-03-11T03:05:00.000Z',
      });
    };
    // From yesterday's snapshot plus the live rows since it.
    await expectTenthAndEleventh(forDays!, forToday!, forTwoDays!);

    // The new snapshot, made at midnight, read the closed days again: the late row of the 9th counts now.
    await eventually(async () =>
      expect((await forDays!.perDay(3))[0]).toEqual({ dia: '2026-03-09', visualizacoes: 2, pessoas: 2 }),
    );
    // And from it, the same answers as from the old one.
    await expectTenthAndEleventh(forDays!, forDays!, forDays!);
  });
});
