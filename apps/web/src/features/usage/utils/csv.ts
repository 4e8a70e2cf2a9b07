// The usage screen's dates as its CSVs write them (lib/csv.ts writes the files).
import { formatDate, formatDateTime } from '../../../lib/format.ts';

/** A date and time as Excel pt-BR reads it as a date: '23/11/2026 14:05:09' (the page's comma would make it text). */
export const csvDateTime = (iso: string | null) => (iso ? formatDateTime(new Date(iso)).replace(',', '') : '');

/** A day of GET /uso/por-dia ('2026-11-23') as '23/11/2026'. */
export const csvDay = (dia: string) => formatDate(parseDay(dia));

/** 'YYYY-MM-DD' as a local date (new Date('2026-11-23') would be midnight UTC, the day before in Brazil). */
export function parseDay(dia: string): Date {
  const [year, month, day] = dia.split('-').map(Number);
  return new Date(year!, month! - 1, day);
}
