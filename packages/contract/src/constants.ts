/**
 * Values the API and the web app share that need no schema. This module imports nothing (no zod), so the web app
 * can use it at run time without bundling zod; classifications.ts exports the same values for the API.
 */

/** The id and name under which panels with no classification are grouped. */
export const SEM_CLASSIFICACAO_ID = 0;
export const SEM_CLASSIFICACAO_NOME = 'Sem Classificação';

/** What a person reads when opening a panel whose report Power BI no longer serves to the portal. */
export const PANEL_UNAVAILABLE = 'Este painel está temporariamente indisponível.';
