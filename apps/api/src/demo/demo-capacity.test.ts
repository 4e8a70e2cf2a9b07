import { describe, expect, it } from 'vitest';
import { monthHours } from '../modules/capacity/capacity-hours.ts';
import { DEFAULT_POLICY } from '../modules/capacity/capacity-policy.ts';
import { demoCapacityHistory } from './demo-capacity.ts';

/** São Paulo is UTC−3: a local time's instant. */
const local = (isoWithoutZone: string) => new Date(`${isoWithoutZone}-03:00`).getTime();

describe("the demo capacity's month so far", () => {
  // Friday 6 November 2026, 21:00 in São Paulo.
  const now = new Date(local('2026-11-06T21:00:00'));
  const changes = demoCapacityHistory(
    [
      { at: local('2026-11-01T15:00:00'), email: 'ana@empresa.com.br' }, // Sunday afternoon
      { at: local('2026-11-01T15:20:00'), email: 'bia@empresa.com.br' },
      { at: local('2026-11-06T18:50:00'), email: 'caio@empresa.com.br' }, // Friday, before the end of the stretch
    ],
    now,
  );
  const at = (em: Date) => em.toISOString();

  it('runs through working hours, wakes for an opening outside them, and pauses after 30 idle minutes', () => {
    const sunday = changes.filter((c) => c.em.getTime() < local('2026-11-02T00:00:00'));
    expect(sunday.map((c) => [at(c.em), c.estado, c.motivo, c.pessoa])).toEqual([
      [at(new Date(local('2026-11-01T00:00:00'))), 'pausada', 'ociosidade', null],
      [at(new Date(local('2026-11-01T15:00:00'))), 'retomando', 'abertura', 'ana@empresa.com.br'],
      [at(new Date(local('2026-11-01T15:00:10'))), 'ativa', 'abertura', 'ana@empresa.com.br'],
      // 30 minutes after Bia's opening, not Ana's.
      [at(new Date(local('2026-11-01T15:50:00'))), 'pausando', 'ociosidade', null],
      [at(new Date(local('2026-11-01T15:50:30'))), 'pausada', 'ociosidade', null],
    ]);
    const monday = changes.filter(
      (c) => c.em.getTime() >= local('2026-11-02T00:00:00') && c.em.getTime() < local('2026-11-03T00:00:00'),
    );
    expect(monday.map((c) => [at(c.em), c.estado, c.motivo])).toEqual([
      [at(new Date(local('2026-11-02T08:00:00'))), 'retomando', 'horario'],
      [at(new Date(local('2026-11-02T08:00:10'))), 'ativa', 'horario'],
      [at(new Date(local('2026-11-02T19:00:00'))), 'pausando', 'ociosidade'],
      [at(new Date(local('2026-11-02T19:00:30'))), 'pausada', 'ociosidade'],
    ]);
    // Friday: Caio's opening at 18:50 keeps it on until 19:20.
    expect(
      changes.some((c) => at(c.em) === at(new Date(local('2026-11-06T19:20:00'))) && c.estado === 'pausando'),
    ).toBe(true);
  });

  it('ends running, as the stand-in starts, and its hours are the weekdays and the woken half hour', () => {
    expect(changes.at(-1)).toMatchObject({ estado: 'ativa' });
    const month = monthHours({
      changes,
      now,
      fusoHorario: DEFAULT_POLICY.fusoHorario,
      precoPorHora: DEFAULT_POLICY.precoPorHora,
      skuAtual: 'A1',
    });
    // 5 weekdays × 11 h, Friday's extra 20 minutes, Sunday's 50 minutes, and the end's resume: about 57 h of 141.
    expect(month.horasAtiva).toBeGreaterThan(56);
    expect(month.horasAtiva).toBeLessThan(58);
    expect(month.economia).toBeGreaterThan(0);
  });
});
