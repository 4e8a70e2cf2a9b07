import { describe, expect, it } from 'vitest';
import { assinatura, assinaturaAposAtualizacao } from '../../../test/data-generators.ts';
import {
  browserTimeZone,
  DEFAULT_SCHEDULE,
  describeMoment,
  describeNext,
  describeSchedule,
  momentParts,
  scheduleBody,
  scheduleOf,
  schedulePatch,
  timeZoneChoices,
  validHour,
  validInterval,
  type SubscriptionSchedule,
} from './subscription-schedule.ts';

const SAO_PAULO = 'America/Sao_Paulo';
const schedule = (overrides: Partial<SubscriptionSchedule>): SubscriptionSchedule => ({
  frequencia: 'diaria',
  hora: '07:00',
  diaSemana: null,
  diaMes: null,
  intervaloHoras: null,
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

  it('says a subscription sent after each refresh waits for the data, with its quiet window, and no zone', () => {
    const afterRefresh = (intervaloHoras: number | null) =>
      schedule({ frequencia: 'apos-atualizacao', hora: null, intervaloHoras, fusoHorario: 'Asia/Tokyo' });
    expect(describeSchedule(afterRefresh(null), SAO_PAULO)).toBe('Quando os dados forem atualizados');
    expect(describeSchedule(afterRefresh(6), SAO_PAULO)).toBe(
      'Quando os dados forem atualizados, no máximo uma vez a cada 6 horas',
    );
    expect(describeSchedule(afterRefresh(1))).toBe('Quando os dados forem atualizados, no máximo uma vez por hora');
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
      limitarIntervalo: false,
      intervaloHoras: '24',
      fusoHorario: 'Asia/Tokyo',
    });
    const monthly = { ...value, frequencia: 'mensal' as const, diaMes: 28 };
    expect(schedulePatch(monthly)).toEqual({
      formato: 'PDF',
      frequencia: 'mensal',
      hora: '09:15',
      diaSemana: null,
      diaMes: 28,
      intervaloHoras: null,
      fusoHorario: 'Asia/Tokyo',
    });
    expect(schedulePatch({ ...value, frequencia: 'diaria' })).toMatchObject({ diaSemana: null, diaMes: null });
  });

  it("send no hour for 'apos-atualizacao', and its quiet window only when one is asked for", () => {
    const afterRefresh = { ...DEFAULT_SCHEDULE, frequencia: 'apos-atualizacao' as const };
    expect(scheduleBody(afterRefresh)).toEqual({
      formato: 'PDF',
      frequencia: 'apos-atualizacao',
      intervaloHoras: null,
    });
    expect(scheduleBody({ ...afterRefresh, limitarIntervalo: true, intervaloHoras: '12', fusoHorario: 'UTC' })).toEqual(
      { formato: 'PDF', frequencia: 'apos-atualizacao', intervaloHoras: 12, fusoHorario: 'UTC' },
    );
    // PATCH cannot clear the hour: it is left out, and both days cleared.
    expect(schedulePatch({ ...afterRefresh, limitarIntervalo: true, intervaloHoras: '168' })).toEqual({
      formato: 'PDF',
      frequencia: 'apos-atualizacao',
      diaSemana: null,
      diaMes: null,
      intervaloHoras: 168,
      fusoHorario: '',
    });
  });

  it('start from a subscription sent after each refresh with its window, and the default hour should it change', () => {
    expect(scheduleOf(assinaturaAposAtualizacao())).toMatchObject({
      frequencia: 'apos-atualizacao',
      hora: '07:00',
      limitarIntervalo: true,
      intervaloHoras: '6',
    });
    expect(scheduleOf(assinaturaAposAtualizacao({ intervaloHoras: null }))).toMatchObject({
      limitarIntervalo: false,
      intervaloHoras: '24',
    });
  });

  it('take a quiet window of whole hours from 1 to 168, when asked for', () => {
    const afterRefresh = { ...DEFAULT_SCHEDULE, frequencia: 'apos-atualizacao' as const, limitarIntervalo: true };
    const window = (intervaloHoras: string) => validInterval({ ...afterRefresh, intervaloHoras });
    expect([window('1'), window('24'), window('168')]).toEqual([true, true, true]);
    expect([window(''), window('0'), window('169'), window('1.5'), window('-2')]).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    // Not asked for, or not this kind: nothing to check.
    expect(validInterval({ ...afterRefresh, limitarIntervalo: false, intervaloHoras: '' })).toBe(true);
    expect(validInterval({ ...DEFAULT_SCHEDULE, limitarIntervalo: true, intervaloHoras: '' })).toBe(true);
    // No hour for this kind.
    expect(validHour({ ...afterRefresh, hora: '' })).toBe(true);
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

  it('gives the date and the zone apart, for a column that puts the zone on its own line', () => {
    expect(momentParts(moment, SAO_PAULO, 'UTC')).toEqual({ text: '01/12/2026 08:00', zoneName: SAO_PAULO });
    expect(momentParts(moment, SAO_PAULO, SAO_PAULO)).toEqual({ text: '01/12/2026 08:00', zoneName: null });
    expect(momentParts(null, SAO_PAULO, 'UTC')).toEqual({ text: '—', zoneName: null });
  });
});

describe('describeNext', () => {
  it("says 'após a próxima atualização' for an active subscription sent after each refresh", () => {
    expect(describeNext(assinaturaAposAtualizacao(), 'UTC')).toBe('após a próxima atualização');
    // Paused: what any paused subscription shows.
    expect(describeNext(assinaturaAposAtualizacao({ ativa: false, situacao: 'pausada' }), 'UTC')).toBe('—');
    expect(describeNext(assinatura({ proximoEnvio: '2026-12-01T11:00:00.000Z' }), 'UTC')).toBe(
      '01/12/2026 08:00 (America/Sao_Paulo)',
    );
  });
});
