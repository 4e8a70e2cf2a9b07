import { DIAS_SEMANA, type FormatoAssinatura, type Frequencia } from '@paineis/contract/subscription-constants';
import type { Assinatura, AssinaturaBody, AssinaturaPatchBody } from '@paineis/contract/subscriptions';
import { formatDateMinutes } from '../../../lib/format.ts';

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

/**
 * A moment of a subscription ('Próximo envio', 'Último envio') in the subscription's own time zone, as its schedule
 * is written: '01/12/2026 08:00', then the zone in brackets unless it is `usualZone` (the browser's), so that it reads
 * beside 'Todo dia 1 às 08:00 (America/Sao_Paulo)'. '—' when there is none. A zone this browser does not know: the
 * browser's own time.
 */
export function describeMoment(iso: string | null, zone: string, usualZone?: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  let parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>>;
  try {
    parts = Object.fromEntries(
      new Intl.DateTimeFormat('pt-BR', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(date)
        .map((part) => [part.type, part.value]),
    );
  } catch {
    return formatDateMinutes(date);
  }
  const text = `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
  return zone === usualZone ? text : `${text} (${zone})`;
}

/** How the pages name each format. */
export const FORMATO_ROTULOS: Record<FormatoAssinatura, string> = { PDF: 'PDF', PPTX: 'PowerPoint' };

/** The zone choice that sends none: the server's USAGE_TIME_ZONE. */
export const PORTAL_ZONE = 'Padrão do portal';

/** The schedule as a form holds it: both days kept, so switching the frequency back and forth loses neither. */
export interface ScheduleValue {
  formato: FormatoAssinatura;
  frequencia: Frequencia;
  /** ISO weekday, 1 (Monday) to 7 (Sunday); sent for 'semanal' only. */
  diaSemana: number;
  /** 1 to MAX_DIA_MES; sent for 'mensal' only. */
  diaMes: number;
  hora: string;
  /** An IANA zone; '' is 'Padrão do portal' (offered when creating only). */
  fusoHorario: string;
}

/** A new subscription's schedule: a PDF every Monday at 07:00, in the portal's zone. */
export const DEFAULT_SCHEDULE: ScheduleValue = {
  formato: 'PDF',
  frequencia: 'semanal',
  diaSemana: 1,
  diaMes: 1,
  hora: '07:00',
  fusoHorario: '',
};

/** A subscription's schedule as the form starts from it; the day its frequency does not use starts at 1. */
export function scheduleOf(assinatura: Assinatura): ScheduleValue {
  return {
    formato: assinatura.formato,
    frequencia: assinatura.frequencia,
    diaSemana: assinatura.diaSemana ?? 1,
    diaMes: assinatura.diaMes ?? 1,
    hora: assinatura.hora,
    fusoHorario: assinatura.fusoHorario,
  };
}

type ScheduleKeys = 'formato' | 'frequencia' | 'hora' | 'diaSemana' | 'diaMes' | 'fusoHorario';

/** The schedule's part of POST /assinaturas: only the day its frequency needs, no zone for the portal's. */
export function scheduleBody(value: ScheduleValue): Pick<AssinaturaBody, ScheduleKeys> {
  const { formato, frequencia, diaSemana, diaMes, hora, fusoHorario } = value;
  return {
    formato,
    frequencia,
    hora,
    ...(frequencia === 'semanal' && { diaSemana }),
    ...(frequencia === 'mensal' && { diaMes }),
    ...(fusoHorario && { fusoHorario }),
  };
}

/** The schedule's part of PATCH /assinaturas/{id}: every field, the day its frequency does not use cleared (null). */
export function schedulePatch(value: ScheduleValue): Required<Pick<AssinaturaPatchBody, ScheduleKeys>> {
  const { formato, frequencia, diaSemana, diaMes, hora, fusoHorario } = value;
  return {
    formato,
    frequencia,
    hora,
    diaSemana: frequencia === 'semanal' ? diaSemana : null,
    diaMes: frequencia === 'mensal' ? diaMes : null,
    fusoHorario,
  };
}

/** What 'Hora' must hold; the time field gives it, or nothing while it is incomplete. */
const HOUR = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
export const BAD_HOUR = 'Informe a hora no formato HH:MM.';

/** Whether the schedule may be sent: the hour is complete (everything else is a choice from a list). */
export const validHour = (value: ScheduleValue) => HOUR.test(value.hora);

let knownZones: readonly string[] | undefined;
/**
 * The IANA zones this browser knows, its own first, then `kept` (a subscription's zone, listed even if the browser
 * does not know it), each once. The server refuses a zone it does not know with its own message.
 */
export function timeZoneChoices(kept?: string): string[] {
  knownZones ??= typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([browserTimeZone(), ...(kept ? [kept] : []), ...knownZones])];
}
