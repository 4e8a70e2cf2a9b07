import { unparse } from 'papaparse';

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
