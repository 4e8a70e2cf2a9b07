/**
 * Values of favourites, recents, saved views and export that need no schema. Imports nothing (no zod), so the web
 * app can use them at run time; personal.ts exports the same values for the API.
 */

/** How many recently opened panels `/` shows. */
export const RECENTES = 5;

/** How many saved views one person may keep on one panel. */
export const MAX_VISOES_POR_PAINEL = 50;

export const FORMATOS_EXPORTACAO = ['PDF', 'PPTX'] as const;
export type FormatoExportacao = (typeof FORMATOS_EXPORTACAO)[number];

/** The export's messages: the web app shows `falhou` when Power BI's job fails. */
export const MENSAGENS_EXPORTACAO = {
  desativada: 'A exportação está desativada para este painel.',
  naoEncontrada: 'Exportação não encontrada.',
  falhou: 'O Power BI não conseguiu exportar o relatório. Tente novamente.',
  naoPronta: 'A exportação ainda não terminou.',
  estadoRecusado: 'O Power BI não aceitou o estado ou a página do relatório enviados para a exportação.',
} as const;
