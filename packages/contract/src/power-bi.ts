import { z } from 'zod';
import { guid, MAX_ID, optionalText } from './fields.ts';

/*
 * The Power BI side seen from the portal (docs/requirements.md#power-bi): the workspaces and reports the service
 * principal can reach and their import as panels, the freshness of each panel's data, and each panel's health.
 */

export { PANEL_UNAVAILABLE } from './constants.ts';

/** At most this many reports in one import. */
export const MAX_IMPORTED_REPORTS = 200;

/** GET /powerbi/workspaces: a workspace the portal's service principal can reach. */
export const workspacePowerBi = z.object({ id: z.string(), nome: z.string() }).meta({ id: 'WorkspacePowerBi' });
export type WorkspacePowerBi = z.infer<typeof workspacePowerBi>;

/** GET /powerbi/workspaces/{workspaceId}/relatorios: a report of the workspace, with its panel when it is one. */
export const relatorioPowerBi = z
  .object({
    reportId: z.string(),
    nome: z.string(),
    datasetId: z.string().nullable(),
    workspaceId: z.string(),
    /** The panel already registered for this report; null when it is not a panel yet. */
    painelId: z.number().int().nullable(),
  })
  .meta({ id: 'RelatorioPowerBi' });
export type RelatorioPowerBi = z.infer<typeof relatorioPowerBi>;

export const workspaceParams = z.object({ workspaceId: guid('ID do workspace', 'workspaceId') });

/** POST /paineis/importar. */
export const importarBody = z.object({
  classificacaoId: z
    .number({ error: 'Classificação (classificacaoId) deve ser um número.' })
    .int('Classificação (classificacaoId) deve ser um número inteiro.')
    .min(0, 'Classificação (classificacaoId) não pode ser negativa.')
    .max(MAX_ID, 'Classificação (classificacaoId) é grande demais.')
    .nullable(),
  relatorios: z
    .array(
      z.object({
        workspaceId: guid('ID do workspace', 'workspaceId'),
        reportId: guid('ID do relatório', 'reportId'),
        nomePainel: optionalText('Nome do painel', 'nomePainel', 200),
      }),
      { error: 'Relatórios (relatorios) deve ser uma lista.' },
    )
    .min(1, 'Escolha ao menos um relatório para importar.')
    .max(MAX_IMPORTED_REPORTS, `São aceitos no máximo ${MAX_IMPORTED_REPORTS} relatórios por importação.`),
});
export type ImportarBody = z.input<typeof importarBody>;

/** What an import did: the panels created, in order, and the reports skipped because they already were panels. */
export const resultadoImportacao = z
  .object({
    criados: z.array(
      z.object({ painelId: z.number().int(), nomePainel: z.string(), workspaceId: z.string(), reportId: z.string() }),
    ),
    ignorados: z.array(
      z.object({
        workspaceId: z.string(),
        reportId: z.string(),
        nome: z.string(),
        /** The panel that already shows this report. */
        painelId: z.number().int(),
        motivo: z.string(),
      }),
    ),
  })
  .meta({ id: 'ResultadoImportacao' });
export type ResultadoImportacao = z.infer<typeof resultadoImportacao>;

/**
 * The last refresh of a panel's dataset: 'tempo-real' for DirectQuery and live connections (no refresh),
 * 'cancelada' when the last refresh was cancelled (the data is as of the refresh before), 'desconhecida' until Power
 * BI has been asked or when it has no history. Times are ISO 8601 (UTC).
 */
export const STATUS_ATUALIZACAO = [
  'concluida',
  'falhou',
  'em-andamento',
  'cancelada',
  'tempo-real',
  'desconhecida',
] as const;
export const atualizacaoPainel = z
  .object({
    status: z.enum(STATUS_ATUALIZACAO),
    /** When the data last refreshed successfully (end of the last completed refresh). */
    ultimaAtualizacao: z.string().nullable(),
    /** When the last refresh, whatever its outcome, started. */
    ultimaTentativa: z.string().nullable(),
    /** Power BI's message for a failed refresh (admins only). */
    mensagem: z.string().optional(),
  })
  .meta({ id: 'AtualizacaoPainel' });
export type AtualizacaoPainel = z.infer<typeof atualizacaoPainel>;

/** GET /paineis/atualizacoes: by panel id, the panels the person may open (every panel for an admin). */
export const atualizacoesPaineis = z.record(z.string(), atualizacaoPainel).meta({ id: 'AtualizacoesPaineis' });
export type AtualizacoesPaineis = z.infer<typeof atualizacoesPaineis>;

export const ESTADOS_SAUDE = ['ok', 'relatorio-nao-encontrado', 'sem-acesso', 'erro'] as const;
export type EstadoSaude = (typeof ESTADOS_SAUDE)[number];

/** GET /paineis/saude: the last check of each panel's report. */
export const saudePainel = z
  .object({
    painelId: z.number().int(),
    estado: z.enum(ESTADOS_SAUDE),
    mensagem: z.string().nullable(),
    verificadoEm: z.string(),
  })
  .meta({ id: 'SaudePainel' });
export type SaudePainel = z.infer<typeof saudePainel>;
