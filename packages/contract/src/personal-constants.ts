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

/** Power BI's limit of exports (pages) in one export request. */
export const MAX_PAGINAS_EXPORTACAO = 50;

/**
 * The export's messages: the web app shows `falhou` when Power BI's job fails, and the server's message for every
 * refusal. Those of Power BI's refusals (docs/decisions/015-export-as-power-bi-documents-it.md) name what stops the
 * export and who can fix it.
 */
export const EXPORT_MESSAGES = {
  desativada: 'A exportação está desativada para este painel.',
  naoEncontrada: 'Exportação não encontrada.',
  falhou: 'O Power BI não conseguiu exportar o relatório. Tente novamente.',
  naoPronta: 'A exportação ainda não terminou.',
  estadoRecusado: 'O Power BI não aceitou o estado ou a página do relatório enviados para a exportação.',
  semCapacidade:
    'O Power BI só exporta relatórios de workspaces numa capacidade Premium, Embedded ou Fabric (Premium por Usuário não serve), e o deste painel não está numa. Avise um administrador.',
  desativadaNoPowerBi:
    'A exportação para PDF e PowerPoint está desativada nas configurações de locatário do Power BI. Avise um administrador.',
  rlsSemPermissao:
    'Para exportar um painel com RLS, o Power BI exige que o portal tenha permissão de gravação (Write) no modelo semântico e a função Colaborador ou Administrador no workspace. Avise um administrador.',
  rotuloConfidencialidade:
    'Este relatório tem um rótulo de confidencialidade, e o Power BI não deixa o portal exportar relatórios com rótulo.',
  paginasDemais: `O relatório tem mais de ${MAX_PAGINAS_EXPORTACAO} páginas, mais do que o Power BI exporta de uma vez. Abra a página desejada e exporte de novo: só ela será exportada.`,
  recusada:
    'O Power BI recusou a exportação deste relatório. Verifique se o workspace está numa capacidade Premium, Embedded ou Fabric, se a exportação para PDF e PowerPoint está ativa nas configurações de locatário e se o relatório não tem rótulo de confidencialidade.',
} as const;

/** A wait in words: seconds under a minute, else whole minutes rounded up. */
function espera(segundos: number): string {
  const s = Math.max(1, Math.ceil(segundos));
  if (s < 60) return s === 1 ? '1 segundo' : `${s} segundos`;
  const minutos = Math.ceil(s / 60);
  return minutos === 1 ? '1 minuto' : `${minutos} minutos`;
}

/** Power BI's capacity is running as many exports as it takes (its 429): when to try again. */
export const exportacaoOcupada = (segundos: number): string =>
  `O Power BI está ocupado com outras exportações. Tente novamente em ${espera(segundos)}.`;
