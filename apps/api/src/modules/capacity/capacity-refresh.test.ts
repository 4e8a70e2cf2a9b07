import { beforeEach, describe, expect, it } from 'vitest';
import type { StandInAzureCapacity, StandInDataset, StandInReport } from '@paineis/microsoft-stand-ins/types';
import { useTestApp } from '../../../test/context.ts';
import { panelOver } from '../../../test/fixtures.ts';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import { scheduledRefreshes } from '../power-bi/refresh-schedules.ts';
import { CAPACITY_MESSAGES } from './capacity.ts';
import { latestChanges } from './capacity.repository.ts';

/**
 * Issue 40: the capacity is woken before the panels' datasets' scheduled refreshes (a paused capacity runs none), at
 * any hour, and paused again by the idle rule once the refresh is over. The schedules are read from the stand-in's
 * Power BI by the app's 'agendamentos' task, and the rule is the app's own, on a test clock, against the stand-in's
 * Azure Resource Manager.
 */

const capacity: StandInAzureCapacity = {
  subscriptionId: '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
  resourceGroup: 'rg-paineis',
  name: 'paineisatualizacao',
  kind: 'embedded',
  sku: 'A1',
};
const NAME = capacity.name;
const WS = '0a0a0a0a-0000-4000-8000-00000000c001';
const id = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
const report = (n: number, name: string): StandInReport => ({
  workspaceId: WS,
  reportId: id('0b0b0b0b', 950 + n),
  name,
  datasetId: id('0c0c0c0c', 950 + n),
  rls: false,
});
const reports = { vendas: report(1, 'Vendas'), diario: report(2, 'Diário'), aoVivo: report(3, 'Ao Vivo') };
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] as const;
const datasets = (diarioEnabled: boolean): StandInDataset[] => [
  {
    datasetId: reports.vendas.datasetId,
    refreshSchedule: {
      days: [...WEEKDAYS],
      times: ['06:00'],
      enabled: true,
      localTimeZoneId: 'E. South America Standard Time',
    },
  },
  {
    datasetId: reports.diario.datasetId,
    refreshSchedule: {
      days: ['Saturday', 'Sunday', ...WEEKDAYS],
      times: ['03:00'],
      enabled: diarioEnabled,
      localTimeZoneId: 'E. South America Standard Time',
    },
  },
  { datasetId: reports.aoVivo.datasetId, storageMode: 'DirectQuery' },
];

/** A São Paulo time (UTC−3) on a day of December 2026 (Tuesday the 1st, …), outside the default working hours. */
const at = (day: number, hhmm: string) => Date.parse(`2026-12-${String(day).padStart(2, '0')}T${hhmm}:00-03:00`);

describe('the capacity woken for scheduled refreshes', () => {
  const standIns = useStandIns({
    people: [],
    reports: Object.values(reports),
    capacities: [capacity],
    capacityTimings: { resumeMs: 60_000, suspendMs: 60_000, scaleMs: 60_000 },
  });
  // The app's capacity lives as long as this file: each test's clock starts on a later day than the one before.
  let now = 0;
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current, {
      POWER_BI_CAPACITY_ID: standIns.current.capacities.resourceId(NAME),
    }),
    capacity: { clock: () => now },
  }));
  const arm = () => standIns.current.capacities;
  const control = () => ctx.app.capacity!;
  const reasons = async () => (await latestChanges(ctx.db, 50)).map((c) => [c.estado, c.motivo]).reverse();
  const tickAt = async (time: number) => {
    now = time;
    await control().tick();
  };

  beforeEach(() => {
    arm().reset();
    arm().setRole(NAME, true);
    arm().resume(NAME);
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports(Object.values(reports));
    standIns.current.powerBi.setDatasets(datasets(false));
  });

  /** The panels, their datasets found by a freshness round while the capacity runs, and their schedules read. */
  async function panelsWithSchedules(time: number) {
    now = time;
    await panelOver(ctx.db, reports.vendas, { nomePainel: 'Vendas' });
    await panelOver(ctx.db, reports.diario, { nomePainel: 'Diário' });
    await panelOver(ctx.db, reports.aoVivo, { nomePainel: 'Ao Vivo' });
    await ctx.app.freshness!.run();
    await ctx.app.refreshSchedules!.run();
    // The DirectQuery dataset, found 'tempo-real' by the freshness round, has no schedule to ask for.
    const asked = standIns.current.powerBi.requests.filter((r) => r.path.endsWith('/refreshSchedule'));
    expect(asked.map((r) => r.path.split('/').at(-2)).sort()).toEqual(
      [reports.vendas.datasetId, reports.diario.datasetId].sort(),
    );
  }

  it('wakes a paused capacity 10 minutes before a scheduled refresh, outside working hours, not earlier', async () => {
    await panelsWithSchedules(at(1, '05:00'));
    arm().pause(NAME);
    await tickAt(at(1, '05:49'));
    expect(arm().state(NAME)).toBe('paused');
    await tickAt(at(1, '05:50'));
    expect(arm().state(NAME)).toBe('resuming');
    const [woken] = await latestChanges(ctx.db, 1);
    expect(woken).toMatchObject({
      estado: 'retomando',
      motivo: 'atualizacao',
      pessoa: null,
      detalhe: CAPACITY_MESSAGES.atualizacaoAgendada('06:00', ['Vendas']),
    });
    expect(woken!.detalhe).toBe('Atualização agendada às 06:00 dos dados de "Vendas".');
    expect(await reasons()).toEqual([
      ['ativa', 'externo'],
      ['pausada', 'externo'],
      ['retomando', 'atualizacao'],
    ]);
  });

  it('lets the idle rule pause it again once the refresh is over: from 15 minutes after its time', async () => {
    await panelsWithSchedules(at(2, '05:00'));
    arm().pause(NAME);
    await tickAt(at(2, '05:50'));
    arm().settle();
    await tickAt(at(2, '05:51'));
    expect(arm().state(NAME)).toBe('running');
    // Idle 30 minutes (the default policy) counted from 06:15, not from the resume at 05:51.
    await tickAt(at(2, '06:21'));
    await tickAt(at(2, '06:44'));
    expect(arm().state(NAME)).toBe('running');
    await tickAt(at(2, '06:45'));
    expect(arm().state(NAME)).toBe('pausing');
    const [paused] = await latestChanges(ctx.db, 1);
    expect(paused).toMatchObject({ estado: 'pausando', motivo: 'ociosidade', detalhe: CAPACITY_MESSAGES.ociosa(30) });
    expect(await reasons()).toEqual([
      ['ativa', 'externo'],
      ['pausada', 'externo'],
      ['retomando', 'atualizacao'],
      ['ativa', 'atualizacao'],
      ['pausando', 'ociosidade'],
    ]);
  });

  it('a disabled schedule wakes nothing; the same schedule enabled does', async () => {
    await panelsWithSchedules(at(3, '01:00'));
    arm().pause(NAME);
    for (const time of ['02:49', '02:50', '02:55', '03:00', '03:10']) await tickAt(at(3, time));
    expect(arm().state(NAME)).toBe('paused');
    expect(arm().calls.filter((c) => c.action === 'resume')).toEqual([]);

    standIns.current.powerBi.setDatasets(datasets(true));
    await ctx.app.refreshSchedules!.run();
    await tickAt(at(4, '02:49'));
    expect(arm().state(NAME)).toBe('paused');
    await tickAt(at(4, '02:50'));
    expect(arm().state(NAME)).toBe('resuming');
    const [woken] = await latestChanges(ctx.db, 1);
    expect(woken).toMatchObject({
      motivo: 'atualizacao',
      detalhe: CAPACITY_MESSAGES.atualizacaoAgendada('03:00', ['Diário']),
    });
  });

  it('reads a new panel’s dataset’s schedule after the panel’s own freshness round, not within the hour', async () => {
    now = at(7, '01:00');
    const vendas = await panelOver(ctx.db, reports.vendas, { nomePainel: 'Vendas' });
    await ctx.app.freshness!.run([String(vendas.id)]);
    await ctx.app.tasks.idle('agendamentos');
    expect(await scheduledRefreshes(ctx.db, new Date(at(7, '00:00')), new Date(at(7, '23:59')))).toEqual([
      { at: new Date(at(7, '06:00')), datasetId: reports.vendas.datasetId, paineis: ['Vendas'] },
    ]);
  });
});
