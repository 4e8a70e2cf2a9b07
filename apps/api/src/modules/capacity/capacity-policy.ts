import { DateTime } from 'luxon';
import type { PoliticaCapacidade } from '@paineis/contract/capacity';

/**
 * The policy before an administrator saves one: weekdays 08:00–19:00 in São Paulo, a pause after 30 idle minutes
 * outside them, anyone may wake the capacity by opening a panel. The price is Azure's list price per hour of an A1
 * in US dollars (Power BI Embedded pricing page, pay-as-you-go); administrators put their own prices and currency.
 */
export const DEFAULT_POLICY: PoliticaCapacidade = {
  horario: [1, 2, 3, 4, 5].map((diaSemana) => ({ diaSemana, inicio: '08:00', fim: '19:00' })),
  fusoHorario: 'America/Sao_Paulo',
  pausarAposMinutosOcioso: 30,
  quemRetomaAoAbrir: 'todos',
  precoPorHora: { A1: 1.0081 },
  skuHorario: null,
  contato: null,
};

/** The stretch of working hours `at` falls in, as instants, or null outside every stretch. */
export function workingStretch(
  policy: Pick<PoliticaCapacidade, 'horario' | 'fusoHorario'>,
  at: Date,
): { start: Date; end: Date } | null {
  const local = DateTime.fromJSDate(at, { zone: policy.fusoHorario });
  // The contract counts 0 = Sunday … 6 = Saturday; luxon 1 = Monday … 7 = Sunday.
  const weekday = local.weekday % 7;
  for (const faixa of policy.horario) {
    if (faixa.diaSemana !== weekday) continue;
    const start = timeOn(local, faixa.inicio);
    const end = timeOn(local, faixa.fim);
    if (start <= local && local < end) return { start: start.toJSDate(), end: end.toJSDate() };
  }
  return null;
}

const timeOn = (day: DateTime, hhmm: string) => {
  const [hour, minute] = hhmm.split(':').map(Number) as [number, number];
  return day.set({ hour, minute, second: 0, millisecond: 0 });
};
