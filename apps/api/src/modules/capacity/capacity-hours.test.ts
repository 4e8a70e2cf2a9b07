import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { EstadoCapacidade } from '@paineis/contract/capacity';
import { monthHours, type StateChange } from './capacity-hours.ts';
import { DEFAULT_POLICY, workingStretch } from './capacity-policy.ts';

/** The month's hours and cost counted from the history (GET /capacidade's `mes`, and the benchmark's). */

const SP = 'America/Sao_Paulo';
const at = (iso: string, zone = SP) => DateTime.fromISO(iso, { zone }).toJSDate();
const change = (iso: string, estado: EstadoCapacidade, sku: string | null = 'A1', zone = SP): StateChange => ({
  em: at(iso, zone),
  estado,
  sku,
});
const precoPorHora = { A1: 1, A2: 2 };

describe('monthHours', () => {
  it('counts running and paused hours per local day, and the cost against always on', () => {
    const mes = monthHours({
      changes: [
        change('2026-10-20T10:00', 'ativa'), // before the month: the month begins running
        change('2026-11-01T19:00', 'pausando'),
        change('2026-11-01T19:01', 'pausada'),
        change('2026-11-02T07:59', 'retomando'),
        change('2026-11-02T08:00', 'ativa'),
      ],
      now: at('2026-11-02T12:00'),
      fusoHorario: SP,
      precoPorHora,
      skuAtual: 'A1',
    });
    expect(mes.mes).toBe('2026-11');
    // Nov 1: 19:01 running (00:00–19:01); Nov 2: 07:59 → 12:00 = 4:01 running.
    expect(mes.dias).toEqual([
      { dia: '2026-11-01', horasAtiva: 19.02, custo: 19.02 },
      { dia: '2026-11-02', horasAtiva: 4.02, custo: 4.02 },
    ]);
    expect(mes.horasAtiva).toBe(23.03);
    expect(mes.horasPausada).toBe(12.97);
    expect(mes.custoSempreAtiva).toBe(36);
    expect(mes.custoEstimado).toBe(23.03);
    expect(mes.economia).toBe(12.97);
  });

  it('cuts a stretch at local midnight, in the policy’s zone, not UTC’s', () => {
    const mes = monthHours({
      changes: [change('2026-11-01T00:00', 'pausada'), change('2026-11-01T22:00', 'ativa')],
      now: at('2026-11-02T02:00'),
      fusoHorario: SP,
      precoPorHora,
      skuAtual: 'A1',
    });
    expect(mes.dias.map((d) => d.horasAtiva)).toEqual([2, 2]);
    expect(mes.horasPausada).toBe(22);
  });

  it('prices each stretch at the SKU it ran on', () => {
    const mes = monthHours({
      changes: [
        change('2026-11-01T00:00', 'ativa', 'A1'),
        change('2026-11-01T08:00', 'escalando', 'A2'),
        change('2026-11-01T08:01', 'ativa', 'A2'),
        change('2026-11-01T18:00', 'pausada', 'A2'),
      ],
      now: at('2026-11-01T20:00'),
      fusoHorario: SP,
      precoPorHora,
      skuAtual: 'A2',
    });
    expect(mes.horasAtiva).toBe(18);
    expect(mes.custoEstimado).toBe(8 + 10 * 2);
    expect(mes.custoSempreAtiva).toBe(8 + 12 * 2);
    expect(mes.economia).toBe(4);
  });

  it('counts a day of 23 hours where clocks go forward, and no earlier month’s hours', () => {
    const berlin = 'Europe/Berlin';
    const mes = monthHours({
      changes: [change('2026-02-27T10:00', 'pausada', 'A1', berlin)],
      now: at('2026-03-30T00:00', berlin),
      fusoHorario: berlin,
      precoPorHora,
      skuAtual: 'A1',
    });
    expect(mes.mes).toBe('2026-03');
    expect(mes.horasPausada).toBe(29 * 24 - 1);
    expect(mes.horasAtiva).toBe(0);
    expect(mes.dias).toHaveLength(30);
  });

  it('counts time of unknown state as billed, and a SKU without a price as free', () => {
    const mes = monthHours({
      changes: [change('2026-11-01T06:00', 'pausada', 'F2')],
      now: at('2026-11-01T12:00'),
      fusoHorario: SP,
      precoPorHora,
      skuAtual: 'A1',
    });
    expect(mes.horasAtiva).toBe(6);
    expect(mes.horasPausada).toBe(6);
    expect(mes.custoEstimado).toBe(0);
    expect(mes.custoSempreAtiva).toBe(0);
  });
});

describe('workingStretch', () => {
  it('finds the weekday’s hours in the policy’s zone', () => {
    // 2026-11-27 is a Friday: 08:00–19:00 in São Paulo is 11:00–22:00 UTC.
    expect(workingStretch(DEFAULT_POLICY, new Date('2026-11-27T10:59:00Z'))).toBeNull();
    expect(workingStretch(DEFAULT_POLICY, new Date('2026-11-27T11:00:00Z'))).toEqual({
      start: new Date('2026-11-27T11:00:00Z'),
      end: new Date('2026-11-27T22:00:00Z'),
    });
    expect(workingStretch(DEFAULT_POLICY, new Date('2026-11-27T22:00:00Z'))).toBeNull();
    // Saturday, and Sunday (diaSemana 0) when the policy lists it.
    expect(workingStretch(DEFAULT_POLICY, new Date('2026-11-28T15:00:00Z'))).toBeNull();
    const sunday = { ...DEFAULT_POLICY, horario: [{ diaSemana: 0, inicio: '10:00', fim: '12:00' }] };
    expect(workingStretch(sunday, new Date('2026-11-29T14:00:00Z'))).not.toBeNull();
  });
});
