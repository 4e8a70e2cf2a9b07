import { DateTime } from 'luxon';
import type { Frequencia } from '@paineis/contract/subscriptions';

/**
 * When a subscription is sent: a local time in its time zone, daily, on a weekday or on a day of the month; or, for
 * 'apos-atualizacao', after each refresh of its panel's data (./refresh-deliveries.ts), with no time.
 */
export interface Schedule {
  frequencia: Frequencia;
  /** 'HH:MM', local to `fusoHorario`; null for 'apos-atualizacao'. */
  hora: string | null;
  /** ISO weekday (1 Monday … 7 Sunday), for 'semanal'. */
  diaSemana: number | null;
  /** 1 to 28, for 'mensal'. */
  diaMes: number | null;
  /** An IANA time zone. */
  fusoHorario: string;
}

const onDay = (schedule: Schedule, day: DateTime) =>
  schedule.frequencia === 'diaria' ||
  (schedule.frequencia === 'semanal' && day.weekday === schedule.diaSemana) ||
  (schedule.frequencia === 'mensal' && day.day === schedule.diaMes);

/** Of a local time that happens twice (clocks went back), the first instant; luxon gives the later one. */
function firstAt(at: DateTime): DateTime {
  for (const minutes of [60, 30]) {
    const earlier = at.minus({ minutes });
    if (earlier.hour === at.hour && earlier.minute === at.minute && earlier.day === at.day) return earlier;
  }
  return at;
}

/**
 * The first occurrence strictly after `after`. Local times are read in the subscription's time zone with its rules on
 * that date (luxon's zone data is the runtime's): a time skipped when clocks go forward is sent that much later (02:30
 * on a day that has no 02:30 goes at 03:30), and a time that happens twice when clocks go back is sent once, at the
 * first.
 */
export function nextOccurrence(schedule: Schedule, after: Date): Date {
  if (schedule.hora === null) throw new Error(`sem hora: ${JSON.stringify(schedule)}`);
  const [hour, minute] = schedule.hora.split(':').map(Number) as [number, number];
  const start = DateTime.fromJSDate(after, { zone: schedule.fusoHorario }).startOf('day');
  // A month and a week cover every kind; two are plenty for a day's time that a clock change moved.
  for (let offset = 0; offset <= 62; offset++) {
    const day = start.plus({ days: offset });
    if (!onDay(schedule, day)) continue;
    const at = firstAt(
      DateTime.fromObject(
        { year: day.year, month: day.month, day: day.day, hour, minute },
        { zone: schedule.fusoHorario },
      ),
    );
    // When a repeated time's first instant is past, that day's occurrence happened: the second is not another.
    if (at.toMillis() > after.getTime()) return at.toJSDate();
  }
  throw new Error(`nenhuma ocorrência em 62 dias para ${JSON.stringify(schedule)}`);
}

/** The next occurrence on the clock, or null for a subscription sent after each refresh (it has none). */
export const nextOnClock = (schedule: Schedule, after: Date): Date | null =>
  schedule.frequencia === 'apos-atualizacao' ? null : nextOccurrence(schedule, after);
