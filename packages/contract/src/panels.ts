import { z } from 'zod';
import { guid, isoDate, MAX_ID, pathId, plainText, positiveId, requiredText } from './fields.ts';
import { isPowerBiLocale } from './report-locales.ts';
import { rlsConfiguration, rlsConfigurations } from './rls.ts';

export const MAX_ORDEM = 1_000_000;

/** The answer for a panel that does not exist, or that this person may not see (as if it did not exist). */
export const PANEL_NOT_FOUND = 'Painel não encontrado.';

export const painel = z
  .object({
    id: z.number().int(),
    nomePainel: z.string(),
    workspaceId: z.string(),
    reportId: z.string(),
    usaRls: z.boolean(),
    /** Whether people may export the report to PDF or PowerPoint ('Exportar'). */
    permiteExportacao: z.boolean(),
    /** Whether people may export a visual's data to CSV ('Exportar dados'). */
    permiteExportarDados: z.boolean(),
    /** The language the report loads in (BCP 47, as pt-BR); null: the portal's (GET /configuracao). */
    idioma: z.string().nullable(),
    /** 0 when the panel has no classification ('Sem Classificação'). */
    classificacaoId: z.number().int(),
    classificacaoNome: z.string(),
    ordem: z.number().int(),
    dataCadastro: isoDate,
    dataAtualizacao: isoDate.nullable(),
  })
  .meta({ id: 'Painel' });
export type Painel = z.infer<typeof painel>;

/** What an admin edits: the panel and its RLS roles. */
export const painelDados = painel.extend({ rlsConfigurations: z.array(rlsConfiguration) }).meta({ id: 'PainelDados' });
export type PainelDados = z.infer<typeof painelDados>;

export const embedInfo = z.object({
  embedToken: z.string(),
  embedUrl: z.string(),
  tokenExpiration: isoDate,
  /**
   * Only in demo mode: the local stand-in page that plays `embedUrl` (powerbi-client embeds nothing but Power BI
   * hosts, so the viewer shows this one through its demo adapter). Absent with real Microsoft configuration.
   */
  demoEmbedUrl: z.string().optional(),
});
export type EmbedInfo = z.infer<typeof embedInfo>;

/**
 * `?papel=` on GET /paineis/{id} and /paineis/{id}/token: an administrator previews an RLS panel as one of its
 * roles instead of all of them.
 */
export const embedQuery = z.object({
  papel: plainText('Papel RLS (papel)', {
    notText: 'Papel RLS (papel) deve ser um texto.',
    required: 'Papel RLS (papel) não pode ser vazio.',
    max: 100,
    tooLong: 'Papel RLS (papel) deve ter no máximo 100 caracteres.',
  }).optional(),
});
export type EmbedQuery = z.infer<typeof embedQuery>;

export const painelComEmbed = painel.extend(embedInfo.shape).meta({ id: 'PainelComEmbed' });
export type PainelComEmbed = z.infer<typeof painelComEmbed>;

export const painelBody = z.object({
  nomePainel: requiredText('Nome do painel', 'nomePainel', 200),
  workspaceId: guid('ID do workspace', 'workspaceId'),
  reportId: guid('ID do relatório', 'reportId'),
  usaRls: z.boolean({ error: 'Usa RLS (usaRls) deve ser verdadeiro ou falso.' }).default(false),
  /** Omitted: true on a new panel, unchanged on an update. */
  permiteExportacao: z
    .boolean({ error: 'Permitir exportação (permiteExportacao) deve ser verdadeiro ou falso.' })
    .optional(),
  /** Omitted: true on a new panel, unchanged on an update. */
  permiteExportarDados: z
    .boolean({ error: 'Permitir exportar dados (permiteExportarDados) deve ser verdadeiro ou falso.' })
    .optional(),
  /** null: the portal's language (REPORT_LOCALE). Omitted: none on a new panel, unchanged on an update. */
  idioma: z
    .string({ error: 'Idioma do relatório (idioma) deve ser um texto.' })
    .refine(isPowerBiLocale, {
      error: 'Idioma do relatório (idioma) deve ser um idioma do Power BI no formato BCP 47, como pt-BR ou en-US.',
    })
    .nullable()
    .optional(),
  /** null or 0: no classification. */
  classificacaoId: z
    .number({ error: 'Classificação (classificacaoId) deve ser um número.' })
    .int('Classificação (classificacaoId) deve ser um número inteiro.')
    .min(0, 'Classificação (classificacaoId) não pode ser negativa.')
    .max(MAX_ID, 'Classificação (classificacaoId) é grande demais.')
    .nullable()
    .optional(),
  /** Omitted: the panel goes last in its classification. */
  ordem: z
    .number({ error: 'Ordem (ordem) deve ser um número.' })
    .int('Ordem (ordem) deve ser um número inteiro.')
    .min(1, 'Ordem (ordem) deve ser maior ou igual a 1.')
    .max(MAX_ORDEM, `Ordem (ordem) deve ser no máximo ${MAX_ORDEM}.`)
    .optional(),
  /** Present: replaces the panel's RLS roles. Omitted: leaves them as they are. */
  rlsConfigurations: rlsConfigurations.optional(),
});
export type PainelBody = z.input<typeof painelBody>;

export const grupoPaineis = z
  .object({
    id: z.number().int(),
    nome: z.string(),
    descricao: z.string().nullable(),
    ativo: z.boolean(),
    quantidadePaineis: z.number().int(),
    paineis: z.array(painel),
  })
  .meta({ id: 'GrupoPaineis' });
export type GrupoPaineis = z.infer<typeof grupoPaineis>;

export const proximaOrdem = z.object({ proximaOrdem: z.number().int() }).meta({ id: 'ProximaOrdem' });

export const proximaOrdemParams = z.object({ classificacaoId: pathId('Classificação (classificacaoId)', 0) });

export const reorderItem = z.object({
  painelId: positiveId('painelId'),
  novaOrdem: z
    .number({ error: 'novaOrdem deve ser um número.' })
    .int('novaOrdem deve ser um número inteiro.')
    .min(1, 'novaOrdem deve ser maior ou igual a 1.')
    .max(MAX_ORDEM, `novaOrdem deve ser no máximo ${MAX_ORDEM}.`),
});
export type ReorderItem = z.infer<typeof reorderItem>;

export const reorderBody = z
  .array(reorderItem, { error: 'O corpo deve ser uma lista de { painelId, novaOrdem }.' })
  .min(1, 'Informe ao menos um painel para reordenar.')
  .max(10_000, 'São aceitos no máximo 10000 painéis por reordenação.');

/** GET /paineis/{id}/configuracoes: everything an admin configures on one panel. */
export const painelConfiguracoes = z
  .object({
    painelId: z.number().int(),
    nomePainel: z.string(),
    workspaceId: z.string(),
    reportId: z.string(),
    usaRls: z.boolean(),
    rlsConfigurations: z.array(rlsConfiguration),
    usuariosVinculados: z.array(z.object({ id: z.string(), email: z.string(), displayName: z.string() })),
  })
  .meta({ id: 'PainelConfiguracoes' });
export type PainelConfiguracoes = z.infer<typeof painelConfiguracoes>;
