import { DIAS_SEMANA } from '@paineis/contract/subscription-constants';
import type { Assinatura } from '@paineis/contract/subscriptions';

/** What a schedule is made of, as a subscription carries it. */
export type SubscriptionSchedule = Pick<Assinatura, 'frequencia' | 'hora' | 'diaSemana' | 'diaMes' | 'fusoHorario'>;

/** The time zone of this browser (IANA), which a person reads their own hours in. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * A subscription's schedule as its pages say it: 'Diária às 07:00', 'Toda segunda-feira às 07:00', 'Todo dia 5 às
 * 07:00'. The zone follows in brackets, ' (Asia/Tokyo)', unless it is `usualZone`: the pages pass the browser's,
 * since the web app does not know the portal's default and an hour without its zone reads as the reader's own.
 */
export function describeSchedule(schedule: SubscriptionSchedule, usualZone?: string): string {
  const at = `às ${schedule.hora}`;
  let text: string;
  if (schedule.frequencia === 'semanal') {
    const weekday = DIAS_SEMANA[schedule.diaSemana ?? 0];
    // Sábado and domingo are masculine: 'Todo sábado', 'Todo domingo'.
    const every = schedule.diaSemana === 6 || schedule.diaSemana === 7 ? 'Todo' : 'Toda';
    text = weekday ? `${every} ${weekday} ${at}` : `Semanal ${at}`;
  } else if (schedule.frequencia === 'mensal') {
    text = schedule.diaMes ? `Todo dia ${schedule.diaMes} ${at}` : `Mensal ${at}`;
  } else {
    text = `Diária ${at}`;
  }
  return schedule.fusoHorario === usualZone ? text : `${text} (${schedule.fusoHorario})`;
}
