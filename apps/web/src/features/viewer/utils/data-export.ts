import { parse } from 'papaparse';
import type { ReportVisual } from '../embedding/report-embedder.ts';

/** Power BI exports no data from custom visuals (PBI_CV_…) nor from R and Python visuals. */
export function exportsData(visual: Pick<ReportVisual, 'type'>): boolean {
  return !visual.type.startsWith('PBI_CV_') && visual.type !== 'scriptVisual' && visual.type !== 'pythonVisual';
}

const KINDS: Record<string, string> = {
  card: 'Cartão',
  multiRowCard: 'Cartão de várias linhas',
  kpi: 'KPI',
  gauge: 'Medidor',
  slicer: 'Segmentação de dados',
  table: 'Tabela',
  tableEx: 'Tabela',
  pivotTable: 'Matriz',
  columnChart: 'Gráfico de colunas',
  clusteredColumnChart: 'Gráfico de colunas agrupadas',
  stackedColumnChart: 'Gráfico de colunas empilhadas',
  barChart: 'Gráfico de barras',
  clusteredBarChart: 'Gráfico de barras agrupadas',
  lineChart: 'Gráfico de linhas',
  areaChart: 'Gráfico de área',
  pieChart: 'Gráfico de pizza',
  donutChart: 'Gráfico de rosca',
  scatterChart: 'Gráfico de dispersão',
  map: 'Mapa',
  filledMap: 'Mapa coroplético',
  treemap: 'Treemap',
  waterfallChart: 'Gráfico de cascata',
};

/** The visual's kind in Portuguese, as the dialog lists it; Power BI's own type name for others. */
export const visualKind = (type: string) => KINDS[type] ?? type;

/** Characters no file name may hold on Windows, macOS or Linux, and control characters. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[<>:"/\\|?*\u0000-\u001f]+/g;

/** '<painel> - <página> - <visual>.csv', without what a file system refuses, at most 180 characters before '.csv'. */
export function dataExportFileName(painel: string, pagina: string, visual: string): string {
  const clean = (text: string) => text.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim();
  const name = [painel, pagina, visual].map(clean).filter(Boolean).join(' - ');
  // A trailing dot or space is dropped by Windows, so the name would change.
  const cut = name.slice(0, 180).replace(/[. ]+$/, '');
  return `${cut || 'dados'}.csv`;
}

/** The data rows of Power BI's CSV (the header row not counted; quoted line breaks are one row). */
export function csvRowCount(csv: string): number {
  const rows = parse<string[]>(csv, { skipEmptyLines: true }).data;
  return Math.max(rows.length - 1, 0);
}

/** Excel reads a UTF-8 file as its legacy code page unless it starts with a byte order mark: accents would break. */
export const csvBlob = (csv: string) =>
  new Blob([csv.startsWith('\uFEFF') ? csv : `\uFEFF${csv}`], { type: 'text/csv;charset=utf-8' });

/** Power BI's reason for refusing (its IError's detailedMessage or message), from powerbi-client or the demo host. */
export function powerBiReason(error: unknown): string | null {
  const body = error instanceof Error && 'body' in error ? error.body : error;
  if (typeof body !== 'object' || body === null) return null;
  const { detailedMessage, message } = body as { detailedMessage?: unknown; message?: unknown };
  if (typeof detailedMessage === 'string' && detailedMessage) return detailedMessage;
  return typeof message === 'string' && message ? message : null;
}
