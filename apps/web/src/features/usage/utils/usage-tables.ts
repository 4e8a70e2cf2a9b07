import type { UsoPainel } from '@paineis/contract/usage';

/** How many panels 'Painéis mais vistos' and 'Painéis menos vistos' show. */
export const TOP_PAINEIS = 10;
/** Rows a long table shows on the page; its CSV holds every row. */
export const MAX_LINHAS = 100;

const opened = (paineis: readonly UsoPainel[]) => paineis.filter((p) => p.visualizacoes > 0);
const byName = (a: UsoPainel, b: UsoPainel) => a.nomePainel.localeCompare(b.nomePainel, 'pt-BR');

/** The most viewed panels of the period, most first (the server's order, ties by name). */
export const mostViewed = (paineis: readonly UsoPainel[]) =>
  opened(paineis)
    .sort((a, b) => b.visualizacoes - a.visualizacoes || byName(a, b))
    .slice(0, TOP_PAINEIS);

/** The opened panels with the fewest views, fewest first: the never opened ones have a table of their own. */
export const leastViewed = (paineis: readonly UsoPainel[]) =>
  opened(paineis)
    .sort((a, b) => a.visualizacoes - b.visualizacoes || byName(a, b))
    .slice(0, TOP_PAINEIS);

/** The panels nobody opened in the period, by name. */
export const neverOpened = (paineis: readonly UsoPainel[]) => paineis.filter((p) => p.visualizacoes === 0).sort(byName);

const slowest = (p: UsoPainel) => p.carregadoP95 ?? p.renderizadoP95 ?? -1;

/** The panels with a load time reported in the period, the slowest (p95 until loaded) first. */
export const withLoadTimes = (paineis: readonly UsoPainel[]) =>
  paineis
    .filter(
      (p) =>
        p.carregadoP50 !== null || p.carregadoP95 !== null || p.renderizadoP50 !== null || p.renderizadoP95 !== null,
    )
    .sort((a, b) => slowest(b) - slowest(a) || byName(a, b));
