import { unparse } from 'papaparse';
import { formatDate, formatDateTime } from '../../../lib/format.ts';

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

/** Excel reads a UTF-8 file as its legacy code page unless it starts with a byte order mark: accents would break. */
const BOM = '\uFEFF';

/**
 * A CSV as a pt-BR Excel opens it with a double click: `;` between fields (`,` is its decimal separator), CRLF
 * line ends and a BOM. Papaparse quotes what needs quoting, and escapes values that Excel would run as a formula
 * (a name starting with '=', '+', '-' or '@'). Empty values are empty fields.
 */
export function toCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  const csv = unparse(
    {
      fields: columns.map((column) => column.header),
      data: rows.map((row) => columns.map((column) => column.value(row) ?? '')),
    },
    { delimiter: ';', newline: '\r\n', escapeFormulae: true },
  );
  return BOM + csv;
}

/** Saves a CSV through the browser's download, as `fileName`. */
export function downloadCsv(fileName: string, csv: string) {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The download has started once click() returns; the next task frees the blob.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A date and time as Excel pt-BR reads it as a date: '23/11/2026 14:05:09' (the page's comma would make it text). */
export const csvDateTime = (iso: string | null) => (iso ? formatDateTime(new Date(iso)).replace(',', '') : '');

/** A day of GET /uso/por-dia ('2026-11-23') as '23/11/2026'. */
export const csvDay = (dia: string) => formatDate(parseDay(dia));

/** 'YYYY-MM-DD' as a local date (new Date('2026-11-23') would be midnight UTC, the day before in Brazil). */
export function parseDay(dia: string): Date {
  const [year, month, day] = dia.split('-').map(Number);
  return new Date(year!, month! - 1, day);
}
