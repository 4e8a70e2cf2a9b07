import { describe, expect, it } from 'vitest';
import { describeSchedule, type SubscriptionSchedule } from './subscription-schedule.ts';

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
