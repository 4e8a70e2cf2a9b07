import {
  DIAS_SEMANA,
  intervaloRotulo,
  MAX_INTERVALO_HORAS,
  PROXIMO_APOS_ATUALIZACAO,
  QUANDO_ATUALIZADOS,
  type FormatoAssinatura,
  type Frequencia,
} from '@paineis/contract/subscription-constants';
import type { Assinatura, AssinaturaBody, AssinaturaPatchBody } from '@paineis/contract/subscriptions';
import { formatDateMinutes } from '../../../lib/format.ts';

/** What a schedule is made of, as a subscription carries it. */
export type SubscriptionSchedule = Pick<
  Assinatura,
  'frequencia' | 'hora' | 'diaSemana' | 'diaMes' | 'intervaloHoras' | 'fusoHorario'
>;

/** The time zone of this browser (IANA), which a person reads their own hours in. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * A subscription's schedule as its pages say it: 'Diária às 07:00', 'Toda segunda-feira às 07:00', 'Todo dia 5 às
 * 07:00'. The zone follows in brackets, ' (Asia/Tokyo)', unless it is `usualZone`: the pages pass the browser's,
 * since the web app does not know the portal's default and an hour without its zone reads as the reader's own.
 * One sent after each refresh has no hour, and so no zone: 'Quando os dados forem atualizados', with its quiet window
 * when it has one (', no máximo uma vez a cada 6 horas'; docs/requirements.md#subscriptions).
 */
export function describeSchedule(schedule: SubscriptionSchedule, usualZone?: string): string {
  if (schedule.frequencia === 'apos-atualizacao') {
    return schedule.intervaloHoras === null
      ? QUANDO_ATUALIZADOS
      : `${QUANDO_ATUALIZADOS}, ${intervaloRotulo(schedule.intervaloHoras)}`;
  }
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
  const { text, zoneName } = momentParts(iso, zone, usualZone);
  return zoneName === null ? text : `${text} (${zoneName})`;
}

/**
 * describeMoment's two parts, for a narrow column that puts the zone on a line of its own: the date and time, and the
 * zone's name (null when it is `usualZone`, when there is no moment, or when this browser does not know the zone).
 */
export function momentParts(
  iso: string | null,
  zone: string,
  usualZone?: string,
): { text: string; zoneName: string | null } {
  if (!iso) return { text: '—', zoneName: null };
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
    return { text: formatDateMinutes(date), zoneName: null };
  }
  const text = `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
  return { text, zoneName: zone === usualZone ? null : zone };
}

type NextOf = Pick<Assinatura, 'frequencia' | 'ativa' | 'proximoEnvio' | 'fusoHorario'>;

/**
 * 'Próximo envio' in its two parts (momentParts): a subscription sent after each refresh, while active, waits for the
 * next one, 'após a próxima atualização' (the API sends no `proximoEnvio` for it); paused, '—' as any other.
 */
export function nextParts(assinatura: NextOf, usualZone?: string): { text: string; zoneName: string | null } {
  if (assinatura.frequencia === 'apos-atualizacao' && assinatura.ativa) {
    return { text: PROXIMO_APOS_ATUALIZACAO, zoneName: null };
  }
  return momentParts(assinatura.proximoEnvio, assinatura.fusoHorario, usualZone);
}

/** 'Próximo envio' as one text, as describeMoment writes it. */
export function describeNext(assinatura: NextOf, usualZone?: string): string {
  const { text, zoneName } = nextParts(assinatura, usualZone);
  return zoneName === null ? text : `${text} (${zoneName})`;
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
  /** Kept while 'apos-atualizacao' is chosen (not sent then), so that a kind with a clock comes back with it. */
  hora: string;
  /** 'apos-atualizacao' only: 'Enviar no máximo uma vez a cada N horas' is ticked (else every refresh is sent). */
  limitarIntervalo: boolean;
  /** That N as its field holds it (whole hours, 1 to MAX_INTERVALO_HORAS), kept while unticked. */
  intervaloHoras: string;
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
  limitarIntervalo: false,
  intervaloHoras: '24',
  fusoHorario: '',
};

/**
 * A subscription's schedule as the form starts from it; the day its frequency does not use starts at 1, and one sent
 * after each refresh starts from the default hour should its kind change.
 */
export function scheduleOf(assinatura: Assinatura): ScheduleValue {
  return {
    formato: assinatura.formato,
    frequencia: assinatura.frequencia,
    diaSemana: assinatura.diaSemana ?? 1,
    diaMes: assinatura.diaMes ?? 1,
    hora: assinatura.hora ?? DEFAULT_SCHEDULE.hora,
    limitarIntervalo: assinatura.intervaloHoras !== null,
    intervaloHoras: String(assinatura.intervaloHoras ?? DEFAULT_SCHEDULE.intervaloHoras),
    fusoHorario: assinatura.fusoHorario,
  };
}

type ScheduleKeys = 'formato' | 'frequencia' | 'hora' | 'diaSemana' | 'diaMes' | 'intervaloHoras' | 'fusoHorario';

/** The quiet window sent: its hours when ticked, else null (every refresh). */
const intervalOf = (value: ScheduleValue) => (value.limitarIntervalo ? Number(value.intervaloHoras) : null);

/**
 * The schedule's part of POST /assinaturas: only the day its frequency needs, no zone for the portal's; for
 * 'apos-atualizacao', no hour but its quiet window (null: every refresh).
 */
export function scheduleBody(value: ScheduleValue): Pick<AssinaturaBody, ScheduleKeys> {
  const { formato, frequencia, diaSemana, diaMes, hora, fusoHorario } = value;
  return {
    formato,
    frequencia,
    ...(frequencia === 'apos-atualizacao' ? { intervaloHoras: intervalOf(value) } : { hora }),
    ...(frequencia === 'semanal' && { diaSemana }),
    ...(frequencia === 'mensal' && { diaMes }),
    ...(fusoHorario && { fusoHorario }),
  };
}

/**
 * The schedule's part of PATCH /assinaturas/{id}: every field, what its frequency does not use cleared (null). The
 * hour, which PATCH cannot clear, is left out for 'apos-atualizacao' (the server drops it with the kind).
 */
export function schedulePatch(value: ScheduleValue): Pick<AssinaturaPatchBody, ScheduleKeys> {
  const { formato, frequencia, diaSemana, diaMes, hora, fusoHorario } = value;
  return {
    formato,
    frequencia,
    ...(frequencia !== 'apos-atualizacao' && { hora }),
    diaSemana: frequencia === 'semanal' ? diaSemana : null,
    diaMes: frequencia === 'mensal' ? diaMes : null,
    intervaloHoras: frequencia === 'apos-atualizacao' ? intervalOf(value) : null,
    fusoHorario,
  };
}

/** What 'Hora' must hold; the time field gives it, or nothing while it is incomplete. */
const HOUR = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
export const BAD_HOUR = 'Informe a hora no formato HH:MM.';
export const BAD_INTERVAL = `Informe um número inteiro de horas, de 1 a ${MAX_INTERVALO_HORAS}.`;

/** Whether the hour may be sent: complete, or not needed ('apos-atualizacao' has none). */
export const validHour = (value: ScheduleValue) => value.frequencia === 'apos-atualizacao' || HOUR.test(value.hora);

/** Whether the quiet window may be sent: whole hours from 1 to MAX_INTERVALO_HORAS, or not asked for. */
export function validInterval(value: ScheduleValue): boolean {
  if (value.frequencia !== 'apos-atualizacao' || !value.limitarIntervalo) return true;
  const hours = Number(value.intervaloHoras);
  return /^[0-9]+$/.test(value.intervaloHoras) && hours >= 1 && hours <= MAX_INTERVALO_HORAS;
}

let knownZones: readonly string[] | undefined;
/**
 * The IANA zones this browser knows, its own first, then `kept` (a subscription's zone, listed even if the browser
 * does not know it), each once. The server refuses a zone it does not know with its own message.
 */
export function timeZoneChoices(kept?: string): string[] {
  knownZones ??= typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([browserTimeZone(), ...(kept ? [kept] : []), ...knownZones])];
}
