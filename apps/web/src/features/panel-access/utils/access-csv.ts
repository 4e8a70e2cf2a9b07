import { unparse } from 'papaparse';
import type { PanelAccessPerson } from './access-reasons.ts';
import { reasonsText } from './access-reasons.ts';

/** Excel reads a UTF-8 file as its legacy code page unless it starts with a byte order mark: accents would break. */
const BOM = '\uFEFF';

/**
 * 'Quem tem acesso' as a CSV: Nome, E-mail, Motivos (joined by '; '). As the usage screen's CSVs are written (a pt-BR
 * Excel opens them with a double click): `;` between fields, CRLF line ends, a BOM, and values Excel would run as a
 * formula escaped.
 */
export function panelAccessCsv(pessoas: readonly PanelAccessPerson[]): string {
  const csv = unparse(
    {
      fields: ['Nome', 'E-mail', 'Motivos'],
      data: pessoas.map((p) => [p.nome, p.email, reasonsText(p.motivos)]),
    },
    { delimiter: ';', newline: '\r\n', escapeFormulae: true },
  );
  return BOM + csv;
}

export const panelAccessCsvName = (painelId: number) => `quem-tem-acesso-painel-${painelId}.csv`;

/** Saves a CSV through the browser's download, as `fileName`. */
export function downloadAccessCsv(fileName: string, csv: string) {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The download has started once click() returns; the next task frees the blob.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
