import { describe, expect, it } from 'vitest';
import { assinatura } from '../../../test/data-generators.ts';
import {
  browserTimeZone,
  DEFAULT_SCHEDULE,
  describeMoment,
  describeSchedule,
  scheduleBody,
  scheduleOf,
  schedulePatch,
  timeZoneChoices,
  validHour,
  type SubscriptionSchedule,
} from './subscription-schedule.ts';

const SAO_PAULO = 'America/Sao_Paulo';
const schedule = (overrides: Partial<SubscriptionSchedule>): SubscriptionSchedule => ({
  frequencia: 'diaria',
  hora: '07:00',
  diaSemana: null,
  diaMes: null,
  fusoHorario: SAO_PAULO,
  ...overrides,
});

describe('describeSchedule', () => {
  it('says each kind of schedule in Portuguese', () => {
    expect(describeSchedule(schedule({}), SAO_PAULO)).toBe('Diária às 07:00');
    expect(describeSchedule(schedule({ frequencia: 'semanal', diaSemana: 1 }), SAO_PAULO)).toBe(
      'Toda segunda-feira às 07:00',
    );
    expect(describeSchedule(schedule({ frequencia: 'semanal', diaSemana: 5, hora: '18:30' }), SAO_PAULO)).toBe(
      'Toda sexta-feira às 18:30',
    );
    expect(describeSchedule(schedule({ frequencia: 'mensal', diaMes: 5 }), SAO_PAULO)).toBe('Todo dia 5 às 07:00');
  });

  it('agrees sábado and domingo, which are masculine', () => {
    expect(describeSchedule(schedule({ frequencia: 'semanal', diaSemana: 6 }), SAO_PAULO)).toBe('Todo sábado às 07:00');
    expect(describeSchedule(schedule({ frequencia: 'semanal', diaSemana: 7 }), SAO_PAULO)).toBe(
      'Todo domingo às 07:00',
    );
  });

  it('names the zone when it is not the usual one, and always when none is usual', () => {
    expect(describeSchedule(schedule({ fusoHorario: 'Asia/Tokyo' }), SAO_PAULO)).toBe('Diária às 07:00 (Asia/Tokyo)');
    expect(describeSchedule(schedule({ frequencia: 'mensal', diaMes: 28, fusoHorario: 'Asia/Tokyo' }))).toBe(
      'Todo dia 28 às 07:00 (Asia/Tokyo)',
    );
    expect(describeSchedule(schedule({}))).toBe('Diária às 07:00 (America/Sao_Paulo)');
  });
});

describe("the schedule fields' values", () => {
  it('start a new subscription as a PDF every Monday at 07:00 in the portal’s zone', () => {
    expect(scheduleBody(DEFAULT_SCHEDULE)).toEqual({
      formato: 'PDF',
      frequencia: 'semanal',
      hora: '07:00',
      diaSemana: 1,
    });
  });

  it('send on creation only the day the frequency uses, and a zone only when one was chosen', () => {
    const value = { ...DEFAULT_SCHEDULE, diaSemana: 5, diaMes: 15 };
    expect(scheduleBody({ ...value, frequencia: 'mensal', fusoHorario: 'Asia/Tokyo' })).toEqual({
      formato: 'PDF',
      frequencia: 'mensal',
      hora: '07:00',
      diaMes: 15,
      fusoHorario: 'Asia/Tokyo',
    });
    expect(scheduleBody({ ...value, frequencia: 'diaria' })).toEqual({
      formato: 'PDF',
      frequencia: 'diaria',
      hora: '07:00',
    });
  });

  it('send every field on edit, clearing the day the frequency no longer uses', () => {
    const editing = assinatura({ frequencia: 'semanal', diaSemana: 3, hora: '09:15', fusoHorario: 'Asia/Tokyo' });
    const value = scheduleOf(editing);
    // The day the subscription does not use starts at 1, ready if the frequency changes.
    expect(value).toEqual({
      formato: 'PDF',
      frequencia: 'semanal',
      diaSemana: 3,
      diaMes: 1,
      hora: '09:15',
      fusoHorario: 'Asia/Tokyo',
    });
    const monthly = { ...value, frequencia: 'mensal' as const, diaMes: 28 };
    expect(schedulePatch(monthly)).toEqual({ ...monthly, diaSemana: null });
    expect(schedulePatch({ ...value, frequencia: 'diaria' })).toMatchObject({ diaSemana: null, diaMes: null });
  });

  it('take a complete hour only', () => {
    const at = (hora: string) => validHour({ ...DEFAULT_SCHEDULE, hora });
    expect([at('00:00'), at('23:59'), at('07:00')]).toEqual([true, true, true]);
    expect([at(''), at('7:00'), at('24:00'), at('07:60'), at('07:00:00')]).toEqual([false, false, false, false, false]);
  });

  it("list the browser's zone first, then the subscription's own even if the browser does not know it, each once", () => {
    const zones = timeZoneChoices('Etc/Desconhecida');
    expect(zones.slice(0, 2)).toEqual([browserTimeZone(), 'Etc/Desconhecida']);
    expect(zones).toContain('Asia/Tokyo');
    expect(new Set(zones).size).toBe(zones.length);
    expect(timeZoneChoices(browserTimeZone())).toEqual(timeZoneChoices());
  });
});

describe('describeMoment', () => {
  // 2026-12-01 11:00 UTC is 08:00 in São Paulo (UTC−3) and 20:00 in Tokyo (UTC+9).
  const moment = '2026-12-01T11:00:00.000Z';

  it("writes a moment in the subscription's own zone, named when it is not the reader's", () => {
    expect(describeMoment(moment, SAO_PAULO, 'UTC')).toBe('01/12/2026 08:00 (America/Sao_Paulo)');
    expect(describeMoment(moment, 'Asia/Tokyo', SAO_PAULO)).toBe('01/12/2026 20:00 (Asia/Tokyo)');
  });

  it("leaves the zone out when it is the reader's, and says '—' for no moment", () => {
    expect(describeMoment(moment, SAO_PAULO, SAO_PAULO)).toBe('01/12/2026 08:00');
    expect(describeMoment(null, SAO_PAULO, SAO_PAULO)).toBe('—');
  });

  it('writes midnight as 00:00 and crosses the date line with the zone', () => {
    expect(describeMoment('2026-12-01T03:00:00.000Z', SAO_PAULO, 'UTC')).toBe('01/12/2026 00:00 (America/Sao_Paulo)');
    expect(describeMoment('2026-12-31T20:30:00.000Z', 'Asia/Tokyo', 'UTC')).toBe('01/01/2027 05:30 (Asia/Tokyo)');
  });
});
