import { z } from 'zod';
import type { PeriodoUso } from './usage-audit-constants.ts';
import { isoDate, pathId, plainText, requiredText } from './fields.ts';

// One source, zod-free for the web app's /uso.
export { PERIODOS_USO, VISUALIZACAO_HEADER, type PeriodoUso } from './usage-audit-constants.ts';

/** `?dias=` on every /uso call: 7, 30 or 90 (30 when absent). */
export const usoQuery = z.object({
  dias: z
    .enum(['7', '30', '90'], { error: 'O período (dias) deve ser 7, 30 ou 90.' })
    .default('30')
    .transform((dias) => Number(dias) as PeriodoUso),
});
export type UsoQuery = z.infer<typeof usoQuery>;

/** One day of the period: views and distinct people (days without views are included, with zeros). */
export const usoDia = z.object({ dia: z.string(), visualizacoes: z.number().int(), pessoas: z.number().int() });
export type UsoDia = z.infer<typeof usoDia>;

export const usoPorDia = z.object({ dias: z.number().int(), porDia: z.array(usoDia) }).meta({ id: 'UsoPorDia' });
export type UsoPorDia = z.infer<typeof usoPorDia>;

/**
 * One panel in the period: every existing panel, opened or not (never opened: zero views). Load times are the
 * viewer's reports (time from asking for the panel to powerbi-client's `loaded`, and to its first `rendered`), in ms;
 * null when no view of the period reported one.
 */
export const usoPainel = z.object({
  painelId: z.number().int(),
  nomePainel: z.string(),
  classificacaoNome: z.string(),
  visualizacoes: z.number().int(),
  pessoas: z.number().int(),
  ultimaVisualizacao: isoDate.nullable(),
  carregadoP50: z.number().int().nullable(),
  carregadoP95: z.number().int().nullable(),
  renderizadoP50: z.number().int().nullable(),
  renderizadoP95: z.number().int().nullable(),
  erros: z.number().int(),
  /** Visual data exported to CSV in the period ('Exportar dados' in the viewer). */
  exportacoesDados: z.number().int(),
});
export type UsoPainel = z.infer<typeof usoPainel>;

export const usoPaineis = z.object({ dias: z.number().int(), paineis: z.array(usoPainel) }).meta({ id: 'UsoPaineis' });
export type UsoPaineis = z.infer<typeof usoPaineis>;

/** An active person who has not signed in during the period; `ultimoLogin` null: never signed in. */
export const pessoaSemLogin = z.object({
  id: z.string(),
  displayName: z.string(),
  email: z.string(),
  department: z.string().nullable(),
  ultimoLogin: isoDate.nullable(),
});
export type PessoaSemLogin = z.infer<typeof pessoaSemLogin>;

export const usoSemLogin = z
  .object({ dias: z.number().int(), total: z.number().int(), pessoas: z.array(pessoaSemLogin) })
  .meta({ id: 'UsoSemLogin' });
export type UsoSemLogin = z.infer<typeof usoSemLogin>;

/** One opening of a panel, with the identity its embed token carried (null: no RLS) and what the viewer reported. */
export const visualizacao = z.object({
  id: z.string(),
  momento: isoDate,
  /** Null once the view was anonymised (VIEW_ANONYMISE_AFTER_DAYS). */
  usuarioId: z.string().nullable(),
  displayName: z.string().nullable(),
  email: z.string().nullable(),
  identidade: z.string().nullable(),
  papeis: z.array(z.string()),
  requestId: z.string().nullable(),
  tokenDoCache: z.boolean(),
  /** Openings this record stands for: the same person opening the panel again within a fraction of a second. */
  quantidade: z.number().int(),
  carregadoMs: z.number().int().nullable(),
  renderizadoMs: z.number().int().nullable(),
  erros: z.array(z.string()),
});
export type Visualizacao = z.infer<typeof visualizacao>;

/** The newest views of one panel in the period (at most MAX_VISUALIZACOES_DETALHE), and how many there were. */
export const MAX_VISUALIZACOES_DETALHE = 500;
export const usoDetalhePainel = z
  .object({
    dias: z.number().int(),
    painelId: z.number().int(),
    nomePainel: z.string(),
    total: z.number().int(),
    visualizacoes: z.array(visualizacao),
  })
  .meta({ id: 'UsoDetalhePainel' });
export type UsoDetalhePainel = z.infer<typeof usoDetalhePainel>;

/** What the viewer reports about one view: times in ms from asking for the panel, and Power BI's errors. */
export const temposVisualizacaoBody = z.object({
  carregadoMs: z
    .number({ error: 'O tempo até carregar (carregadoMs) deve ser um número.' })
    .int('O tempo até carregar (carregadoMs) deve ser um número inteiro.')
    .min(0, 'O tempo até carregar (carregadoMs) não pode ser negativo.')
    .max(3_600_000, 'O tempo até carregar (carregadoMs) deve ser de no máximo uma hora.')
    .nullable()
    .optional(),
  renderizadoMs: z
    .number({ error: 'O tempo até renderizar (renderizadoMs) deve ser um número.' })
    .int('O tempo até renderizar (renderizadoMs) deve ser um número inteiro.')
    .min(0, 'O tempo até renderizar (renderizadoMs) não pode ser negativo.')
    .max(3_600_000, 'O tempo até renderizar (renderizadoMs) deve ser de no máximo uma hora.')
    .nullable()
    .optional(),
  erros: z
    .array(
      z.string({ error: 'Cada erro deve ser um texto.' }).max(500, 'Cada erro deve ter no máximo 500 caracteres.'),
      { error: 'Os erros (erros) devem ser uma lista de textos.' },
    )
    .max(10, 'São aceitos no máximo 10 erros.')
    .optional(),
});
export type TemposVisualizacaoBody = z.infer<typeof temposVisualizacaoBody>;

export const visualizacaoParams = z.object({
  id: pathId('O id'),
  visualizacaoId: z.uuid({ error: 'O id da visualização (visualizacaoId) deve ser um UUID.' }),
});

// --- 'Exportar dados': a visual's data exported to CSV through Power BI, recorded before the file is saved -------

/** Power BI's limit on the rows of one visual's data export. */
export const MAX_LINHAS_EXPORTACAO_DADOS = 30_000;
export const TIPOS_EXPORTACAO_DADOS = ['resumidos', 'subjacentes'] as const;
export type TipoExportacaoDados = (typeof TIPOS_EXPORTACAO_DADOS)[number];
export const EXPORTACAO_DADOS_DESATIVADA = 'A exportação de dados está desativada para este painel.';

export const exportacaoDadosBody = z.object({
  pagina: requiredText('Página', 'pagina', 200),
  visual: requiredText('Visual', 'visual', 200),
  tituloVisual: plainText('Título do visual (tituloVisual)', {
    notText: 'Título do visual (tituloVisual) deve ser um texto.',
    required: 'Título do visual (tituloVisual) não pode ser vazio.',
    max: 500,
    tooLong: 'Título do visual (tituloVisual) deve ter no máximo 500 caracteres.',
  })
    .nullable()
    .optional(),
  tipo: z.enum(TIPOS_EXPORTACAO_DADOS, { error: "O tipo (tipo) deve ser 'resumidos' ou 'subjacentes'." }),
  linhas: z
    .number({ error: 'As linhas (linhas) devem ser um número.' })
    .int('As linhas (linhas) devem ser um número inteiro.')
    .min(0, 'As linhas (linhas) não podem ser negativas.')
    .max(MAX_LINHAS_EXPORTACAO_DADOS, `As linhas (linhas) devem ser no máximo ${MAX_LINHAS_EXPORTACAO_DADOS}.`),
});
export type ExportacaoDadosBody = z.input<typeof exportacaoDadosBody>;

export const exportacaoDados = z
  .object({
    id: z.string(),
    momento: isoDate,
    painelId: z.number().int(),
    pagina: z.string(),
    visual: z.string(),
    tituloVisual: z.string().nullable(),
    tipo: z.enum(TIPOS_EXPORTACAO_DADOS),
    linhas: z.number().int(),
  })
  .meta({ id: 'ExportacaoDados' });
export type ExportacaoDados = z.infer<typeof exportacaoDados>;
