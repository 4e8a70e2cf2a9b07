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
