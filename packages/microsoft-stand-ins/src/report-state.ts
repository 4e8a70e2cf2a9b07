import { createHash } from 'node:crypto';

/**
 * The demo report's one slicer, 'Região', and the bookmark state that captures it. The embed host page draws and
 * captures it (embed-host-page.js speaks the same state format) and the export jobs apply it, so a saved view
 * changes what the portal shows and what it exports alike.
 */

/** The slicer's options; each region's factor is its share of the whole ('Todas' = the whole). */
export const REGIOES = [
  { nome: 'Todas', fator: 1 },
  { nome: 'Norte', fator: 0.08 },
  { nome: 'Nordeste', fator: 0.14 },
  { nome: 'Centro-Oeste', fator: 0.12 },
  { nome: 'Sudeste', fator: 0.48 },
  { nome: 'Sul', fator: 0.18 },
] as const;

export type Regiao = (typeof REGIOES)[number]['nome'];

export const REGIAO_PADRAO: Regiao = 'Todas';

export const MESES = ['Jan', 'Fev', 'Mar', 'Abr', 'Mai', 'Jun'];

export interface PageFigures {
  revenue: number;
  orders: number;
  margin: number;
  bars: number[];
}

/** Numbers that depend only on the page name, so every page looks different and the same page always alike. */
export function pageFigures(pageName: string): PageFigures {
  const bytes = createHash('sha256').update(pageName).digest();
  const at = (index: number) => bytes[index]!;
  return {
    revenue: 100_000 + ((at(0) << 16) | (at(1) << 8) | at(2)) * 0.6,
    orders: 100 + (((at(3) << 8) | at(4)) % 20_000),
    margin: 5 + (at(5) % 400) / 10,
    bars: MESES.map((_, index) => 15 + (at(6 + index) % 86)),
  };
}

export function regionFactor(regiao: string): number {
  return REGIOES.find((option) => option.nome === regiao)?.fator ?? 1;
}

/**
 * A page's figures with the slicer applied: sums scale with the region's share, the margin (a ratio) does not.
 * The page script rounds the same way, so the page and an export of it show the same numbers.
 */
export function regionFigures(pageName: string, regiao: string): PageFigures {
  const base = pageFigures(pageName);
  const factor = regionFactor(regiao);
  return {
    revenue: Math.round(base.revenue * factor),
    orders: Math.round(base.orders * factor),
    margin: base.margin,
    bars: base.bars.map((value) => Math.round(value * factor)),
  };
}

/** How the page and the exports write the figures, as Power BI formats them for pt-BR. */
export const formatos = {
  money: new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', maximumFractionDigits: 0 }),
  whole: new Intl.NumberFormat('pt-BR'),
  percent: new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
};

/** What a captured bookmark holds: the active page and the slicer's region. */
export interface ReportState {
  pagina: string;
  regiao: Regiao;
}

/**
 * A bookmark state as the embed host page captures it: base64 of JSON {v: 1, pagina, regiao}. Power BI's states are
 * opaque strings too; the portal must store and pass them back untouched. Tests use this to make one.
 */
export function encodeReportState(state: ReportState): string {
  return Buffer.from(JSON.stringify({ v: 1, pagina: state.pagina, regiao: state.regiao }), 'utf8').toString('base64');
}

/** The state a bookmark string holds, or null when it is not one the stand-in wrote (or names no such page). */
export function decodeReportState(text: unknown, pageNames: readonly string[]): ReportState | null {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { v, pagina, regiao } = parsed as Record<string, unknown>;
  if (v !== 1 || typeof pagina !== 'string' || !pageNames.includes(pagina)) return null;
  const region = REGIOES.find((option) => option.nome === regiao);
  return region ? { pagina, regiao: region.nome } : null;
}

// --- visuals and their data (exportData), as embed-host-page.js computes them --------------------------------

/** A visual of every page, as powerbi-client's getVisuals describes it (name, title, Power BI type). */
export interface StandInVisual {
  name: string;
  title: string;
  type: string;
}

/**
 * The visuals of each page: the three cards, the column chart, the filter pane's slicer, and two that Power BI
 * cannot export data from (a custom visual and an R visual), so that their exclusion can be tested.
 */
export const VISUAIS: readonly StandInVisual[] = [
  { name: 'cartaoReceita', title: 'Receita', type: 'card' },
  { name: 'cartaoPedidos', title: 'Pedidos', type: 'card' },
  { name: 'cartaoMargem', title: 'Margem', type: 'card' },
  { name: 'graficoVendasMes', title: 'Vendas por mês', type: 'columnChart' },
  { name: 'segmentacaoRegiao', title: 'Região', type: 'slicer' },
  { name: 'visualMapaCalor', title: 'Mapa de calor', type: 'PBI_CV_5F0C9A3E_4B1D_MapaDeCalor' },
  { name: 'visualPrevisaoR', title: 'Previsão (R)', type: 'scriptVisual' },
];

/** Power BI exports no data from custom visuals (PBI_CV_…) nor from R and Python visuals. */
export function exportsData(type: string): boolean {
  return !type.startsWith('PBI_CV_') && type !== 'scriptVisual' && type !== 'pythonVisual';
}

/** Microsoft's limit on exportData's rows. */
export const EXPORT_DATA_MAX_ROWS = 30_000;

/** Underlying rows of each page unless a report says otherwise (StandInReport.underlyingRows). */
export const LINHAS_SUBJACENTES_PADRAO = 60;

/** One sale: the rows behind every visual of a page. */
export interface LinhaVenda {
  mes: string;
  regiao: Regiao;
  vendedor: string;
  pedidos: number;
  unidades: number;
  receita: number;
  custo: number;
}

/** The regions a row can be in: every option of the slicer but 'Todas'. */
const REGIOES_DAS_LINHAS = REGIOES.slice(1).map((option) => option.nome);

/**
 * Row `index` of a page: month, region and seller cycle (6 months × 5 regions, then the next seller), the amounts
 * follow from the page's orders figure. Integers only, so the page script computes the very same rows.
 */
export function underlyingRow(pageName: string, index: number): LinhaVenda {
  const seed = pageFigures(pageName).orders;
  const unidades = 5 + ((seed + index * 37) % 91);
  const receita = unidades * (100 + ((seed + index * 13) % 400));
  return {
    mes: MESES[index % 6]!,
    regiao: REGIOES_DAS_LINHAS[Math.floor(index / 6) % 5]!,
    vendedor: `Vendedor ${Math.floor(index / 30) + 1}`,
    pedidos: 1 + ((seed + index * 11) % 20),
    unidades,
    receita,
    custo: Math.round((receita * (55 + ((seed + index * 7) % 30))) / 100),
  };
}

/**
 * The RLS rule of the demo's dataset: an effective identity with the role 'Diretoria' sees every row; any other sees
 * only the rows of one region, picked by its username (a hash of it, lower-cased). Null: every region.
 */
export function rlsRegion(identity: { username: string; roles?: readonly string[] } | null): Regiao | null {
  if (!identity) return null;
  if ((identity.roles ?? []).some((role) => role.toLowerCase() === 'diretoria')) return null;
  let hash = 0;
  for (const char of identity.username.toLowerCase()) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
  return REGIOES_DAS_LINHAS[hash % 5]!;
}

/** The rows a visual's export reads: the page's, then the RLS region, then the slicer's region. */
export function visibleRows(
  pageName: string,
  count: number,
  rlsRegiao: Regiao | null,
  slicer: Regiao = REGIAO_PADRAO,
): LinhaVenda[] {
  const rows: LinhaVenda[] = [];
  for (let index = 0; index < count; index += 1) {
    const row = underlyingRow(pageName, index);
    if (rlsRegiao && row.regiao !== rlsRegiao) continue;
    if (slicer !== REGIAO_PADRAO && row.regiao !== slicer) continue;
    rows.push(row);
  }
  return rows;
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(header: string[], rows: string[][]): string {
  return [header, ...rows].map((line) => line.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/**
 * What exportData answers for a visual: CSV with the numbers as Power BI formats them for pt-BR. 'Summarized' (0)
 * is the data grouped as the visual shows it, 'Underlying' (1) the rows, at most `maxRows` of either.
 */
export function exportVisualCsv(visualName: string, kind: 0 | 1, rows: LinhaVenda[], maxRows: number): string {
  const { money, whole, percent } = formatos;
  if (kind === 1) {
    return csv(
      ['Mês', 'Região', 'Vendedor', 'Pedidos', 'Unidades', 'Receita', 'Custo'],
      rows
        .slice(0, maxRows)
        .map((row) => [
          row.mes,
          row.regiao,
          row.vendedor,
          whole.format(row.pedidos),
          whole.format(row.unidades),
          money.format(row.receita),
          money.format(row.custo),
        ]),
    );
  }
  const sum = (pick: (row: LinhaVenda) => number) => rows.reduce((total, row) => total + pick(row), 0);
  switch (visualName) {
    case 'cartaoReceita':
      return csv(['Receita'], [[money.format(sum((row) => row.receita))]]);
    case 'cartaoPedidos':
      return csv(['Pedidos'], [[whole.format(sum((row) => row.pedidos))]]);
    case 'cartaoMargem': {
      const receita = sum((row) => row.receita);
      const margem = receita ? ((receita - sum((row) => row.custo)) / receita) * 100 : 0;
      return csv(['Margem'], [[`${percent.format(margem)}%`]]);
    }
    case 'graficoVendasMes':
      return csv(
        ['Mês', 'Unidades'],
        MESES.filter((mes) => rows.some((row) => row.mes === mes))
          .slice(0, maxRows)
          .map((mes) => [mes, whole.format(sum((row) => (row.mes === mes ? row.unidades : 0)))]),
      );
    default:
      return csv(
        ['Região'],
        REGIOES_DAS_LINHAS.filter((regiao) => rows.some((row) => row.regiao === regiao))
          .slice(0, maxRows)
          .map((regiao) => [regiao]),
      );
  }
}
