import { beforeEach, describe, expect, it } from 'vitest';
import type { PoliticaCapacidade } from '@paineis/contract/capacity';
import type { StandInAzureCapacity } from '@paineis/microsoft-stand-ins/types';
import { useTestApp } from '../../../test/context.ts';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import { CapacityClient } from '../../integrations/azure/capacity-client.ts';
import { SYSTEM_ACTOR } from '../audit/audit.ts';
import { CAPACITY_MESSAGES, CapacityControl } from './capacity.ts';
import { DEFAULT_POLICY } from './capacity-policy.ts';
import { capacityRow, latestChanges } from './capacity.repository.ts';

/**
 * The rule that wakes the capacity for working hours and pauses it when idle outside them (CapacityControl.tick),
 * on a test clock, against the stand-in's Azure Resource Manager.
 */

const capacity: StandInAzureCapacity = {
  subscriptionId: '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
  resourceGroup: 'rg-paineis',
  name: 'paineisregra',
  kind: 'embedded',
  sku: 'A1',
};
const NAME = capacity.name;
const MINUTE = 60_000;
/** Monday 30 November 2026, at a São Paulo time (UTC−3). */
const monday = (hhmm: string) => Date.parse(`2026-11-30T${hhmm}:00-03:00`);

describe('the capacity’s rule', () => {
  const standIns = useStandIns({
    people: [],
    capacities: [capacity],
    capacityTimings: { resumeMs: 60_000, suspendMs: 60_000, scaleMs: 60_000 },
  });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current, {
      POWER_BI_CAPACITY_ID: standIns.current.capacities.resourceId(NAME),
    }),
  }));
  let now = 0;
  let control: CapacityControl;
  beforeEach(() => {
    const arm = standIns.current.capacities;
    arm.reset();
    arm.setRole(NAME, true);
    arm.resume(NAME);
    const resource = ctx.config.capacity!.resource;
    const client = new CapacityClient(standIns.current.managementUrl, ctx.app.entra!, resource);
    control = new CapacityControl(ctx.db, client, ctx.app.log, () => now, { resource });
  });

  const arm = () => standIns.current.capacities;
  const reasons = async () => (await latestChanges(ctx.db, 50)).map((c) => [c.estado, c.motivo]).reverse();
  const setPolicy = (politica: Partial<PoliticaCapacidade>) =>
    control.setPolicy({ actor: SYSTEM_ACTOR, nome: 'Teste' }, { ...DEFAULT_POLICY, ...politica });
  /** Moves the clock and runs the rule, ending any operation it started as Azure would in time. */
  const tickAt = async (at: number) => {
    now = at;
    await control.tick();
  };

  it('wakes a paused capacity when working hours begin in the policy’s zone, not before', async () => {
    // Tokyo's Monday 09:00 is Monday 00:00 UTC, Sunday 21:00 in São Paulo.
    await setPolicy({ fusoHorario: 'Asia/Tokyo', horario: [{ diaSemana: 1, inicio: '09:00', fim: '18:00' }] });
    arm().pause(NAME);
    await tickAt(Date.parse('2026-11-29T23:59:00Z'));
    expect(arm().state(NAME)).toBe('paused');
    expect(await reasons()).toEqual([['pausada', 'externo']]);
    await tickAt(Date.parse('2026-11-30T00:00:00Z'));
    expect(arm().state(NAME)).toBe('resuming');
    arm().settle();
    await tickAt(Date.parse('2026-11-30T00:01:00Z'));
    expect(await reasons()).toEqual([
      ['pausada', 'externo'],
      ['retomando', 'horario'],
      ['ativa', 'horario'],
    ]);
  });

  it('pauses after the idle minutes outside working hours, counting from the last activity', async () => {
    await tickAt(monday('19:00')); // the first reading
    now = monday('19:10');
    control.noteActivity();
    await control.activityWritten();
    await tickAt(monday('19:39'));
    expect(arm().state(NAME)).toBe('running');
    await tickAt(monday('19:40'));
    expect(arm().state(NAME)).toBe('pausing');
    const [paused] = await latestChanges(ctx.db, 1);
    expect(paused).toMatchObject({
      estado: 'pausando',
      motivo: 'ociosidade',
      detalhe: CAPACITY_MESSAGES.ociosa(30),
    });
    expect(paused!.em.getTime()).toBe(monday('19:40'));
  });

  it('never pauses for idleness inside working hours, nor with no idle limit', async () => {
    await tickAt(monday('08:00'));
    await tickAt(monday('18:59'));
    expect(arm().state(NAME)).toBe('running');
    await setPolicy({ pausarAposMinutosOcioso: null });
    await tickAt(monday('23:00'));
    expect(arm().state(NAME)).toBe('running');
    expect(arm().calls.filter((c) => c.action === 'suspend')).toEqual([]);
  });

  it('holds an administrator’s pause within working hours until the next stretch', async () => {
    await tickAt(monday('09:00'));
    now = monday('10:00');
    await control.pause({ actor: SYSTEM_ACTOR, nome: 'Ana Admin' }, 'Manutenção');
    arm().settle();
    await tickAt(monday('10:05'));
    expect(arm().state(NAME)).toBe('paused');
    await tickAt(monday('18:59'));
    expect(arm().state(NAME)).toBe('paused');
    // Tuesday's hours wake it.
    await tickAt(monday('08:00') + 24 * 60 * MINUTE);
    expect(arm().state(NAME)).toBe('resuming');
  });

  it('scales to the working-hours SKU and back to its own outside them, then pauses when idle', async () => {
    await setPolicy({ skuHorario: 'A2' });
    await tickAt(monday('08:00'));
    expect(arm().state(NAME)).toBe('scaling');
    expect((await capacityRow(ctx.db))?.skuBase).toBe('A1');
    arm().settle();
    await tickAt(monday('08:01'));
    expect(arm().sku(NAME)).toBe('A2');
    await tickAt(monday('19:00'));
    expect(arm().state(NAME)).toBe('scaling');
    arm().settle();
    await tickAt(monday('19:01'));
    expect(arm().sku(NAME)).toBe('A1');
    expect((await capacityRow(ctx.db))?.skuBase).toBeNull();
    // Idle since the last change (19:00's scaling ended at 19:01).
    await tickAt(monday('19:31'));
    expect(arm().state(NAME)).toBe('pausing');
    expect((await latestChanges(ctx.db, 50)).map((c) => [c.estado, c.sku, c.motivo]).reverse()).toEqual([
      ['ativa', 'A1', 'externo'],
      ['escalando', 'A2', 'horario'],
      ['ativa', 'A2', 'horario'],
      ['escalando', 'A1', 'horario'],
      ['ativa', 'A1', 'horario'],
      ['pausando', 'A1', 'ociosidade'],
    ]);
  });

  it('records a change made outside the portal, without acting on it outside working hours', async () => {
    await tickAt(monday('20:00'));
    arm().pause(NAME);
    await tickAt(monday('20:01'));
    arm().resume(NAME);
    await tickAt(monday('20:02'));
    expect(await reasons()).toEqual([
      ['ativa', 'externo'],
      ['pausada', 'externo'],
      ['ativa', 'externo'],
    ]);
    expect(arm().calls.filter((c) => c.action !== 'get')).toEqual([]);
  });

  it('without the Azure role: does nothing, keeps the missing role as the message, and blocks no opening', async () => {
    arm().setRole(NAME, false);
    await tickAt(monday('23:00'));
    const row = await capacityRow(ctx.db);
    expect(row).toMatchObject({ estado: 'desconhecida', mensagem: CAPACITY_MESSAGES.semPapel('embedded') });
    expect(await latestChanges(ctx.db, 10)).toEqual([]);
    expect(await control.forOpening({ isAdmin: false, nome: 'Bia' })).toBeNull();
    expect(await control.isRunning()).toBe(true);
  });

  it('writes the last activity at most once a minute, however many openings', async () => {
    now = monday('20:00');
    control.noteActivity();
    await control.activityWritten();
    expect((await capacityRow(ctx.db))?.ultimaAtividade?.getTime()).toBe(monday('20:00'));
    for (let s = 1; s < 60; s++) {
      now = monday('20:00') + s * 1000;
      control.noteActivity();
    }
    await control.activityWritten();
    expect((await capacityRow(ctx.db))?.ultimaAtividade?.getTime()).toBe(monday('20:00'));
    now = monday('20:01');
    control.noteActivity();
    await control.activityWritten();
    expect((await capacityRow(ctx.db))?.ultimaAtividade?.getTime()).toBe(monday('20:01'));
  });
});
