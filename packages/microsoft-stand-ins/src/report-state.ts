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
