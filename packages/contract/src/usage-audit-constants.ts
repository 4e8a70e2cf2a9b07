/**
 * Values of '/uso' and '/auditoria' that need no schema. Like constants.ts, this module imports nothing (no zod), so
 * the web app can use it at run time; usage.ts and audit.ts export the same values for the API. A module of its own,
 * apart from constants.ts, which the first screen loads: these go with the admin pages' chunks.
 */

/** The name of the answer header of GET /paineis/{id} that names the view it recorded. */
export const VISUALIZACAO_HEADER = 'x-visualizacao-id';

/** The periods `/uso` offers, in days (docs/requirements.md#usage). */
export const PERIODOS_USO = [7, 30, 90] as const;
export type PeriodoUso = (typeof PERIODOS_USO)[number];

/** What a change was made to (docs/requirements.md#audit). */
export const OBJETOS_AUDITORIA = [
  'painel',
  'classificacao',
  'vinculos',
  'rls',
  'ordem',
  'sessao',
  'assinatura',
  'capacidade',
  'visao_painel',
  'alerta',
] as const;
export type ObjetoAuditoria = (typeof OBJETOS_AUDITORIA)[number];

/**
 * The kinds of change: administrators' changes, sign-ins, sign-outs, refused sign-ins and throttling, each delivery
 * of a subscription ('envio', with who was sent it and who was left out), each alert sent ('envio' of an 'alerta')
 * and each 'Enviar agora' asked ('envio_solicitado').
 */
export const ACOES_AUDITORIA = [
  'criacao',
  'alteracao',
  'exclusao',
  'login',
  'logout',
  'login_recusado',
  'limitado',
  'envio',
  'envio_solicitado',
] as const;
export type AcaoAuditoria = (typeof ACOES_AUDITORIA)[number];

/** How the pages name them. */
export const NOMES_OBJETOS: Record<ObjetoAuditoria, string> = {
  painel: 'Painel',
  classificacao: 'Classificação',
  vinculos: 'Vínculos',
  rls: 'RLS',
  ordem: 'Ordem',
  sessao: 'Sessão',
  assinatura: 'Assinatura',
  capacidade: 'Capacidade do Power BI',
  visao_painel: 'Visão do painel',
  alerta: 'Alerta',
};
export const NOMES_ACOES: Record<AcaoAuditoria, string> = {
  criacao: 'Criação',
  alteracao: 'Alteração',
  exclusao: 'Exclusão',
  login: 'Login',
  logout: 'Logout',
  login_recusado: 'Login recusado',
  limitado: 'Tentativas limitadas',
  envio: 'Envio',
  envio_solicitado: 'Envio solicitado',
};

/** The records of one page of GET /auditoria. */
export const TAMANHO_PAGINA_AUDITORIA = 50;
