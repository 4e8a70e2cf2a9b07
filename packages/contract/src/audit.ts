import { z } from 'zod';
import { isoDate, plainText } from './fields.ts';

/** What a change was made to (docs/requirements.md#audit). */
export const OBJETOS_AUDITORIA = ['painel', 'classificacao', 'vinculos', 'rls', 'ordem', 'sessao'] as const;
export type ObjetoAuditoria = (typeof OBJETOS_AUDITORIA)[number];

/** The kinds of change: administrators' changes, and sign-ins, sign-outs, refused sign-ins and throttling. */
export const ACOES_AUDITORIA = [
  'criacao',
  'alteracao',
  'exclusao',
  'login',
  'logout',
  'login_recusado',
  'limitado',
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
};
export const NOMES_ACOES: Record<AcaoAuditoria, string> = {
  criacao: 'Criação',
  alteracao: 'Alteração',
  exclusao: 'Exclusão',
  login: 'Login',
  logout: 'Logout',
  login_recusado: 'Login recusado',
  limitado: 'Tentativas limitadas',
};

/**
 * A compact diff: one entry per field that changed, by its path ('nomePainel', 'papeis.Gerente', 'usuarios.{id}');
 * `antes` absent: the field was added; `depois` absent: it was removed.
 */
export const mudanca = z.object({ campo: z.string(), antes: z.unknown().optional(), depois: z.unknown().optional() });
export type Mudanca = z.infer<typeof mudanca>;

export const registroAuditoria = z
  .object({
    id: z.number().int(),
    momento: isoDate,
    /** Who did it: null for a refused sign-in (`usuario` then holds the name typed). */
    usuarioId: z.string().nullable(),
    usuario: z.string().nullable(),
    endereco: z.string().nullable(),
    objeto: z.enum(OBJETOS_AUDITORIA),
    objetoId: z.string().nullable(),
    objetoNome: z.string().nullable(),
    acao: z.enum(ACOES_AUDITORIA),
    mudancas: z.array(mudanca),
  })
  .meta({ id: 'RegistroAuditoria' });
export type RegistroAuditoria = z.infer<typeof registroAuditoria>;

export const TAMANHO_PAGINA_AUDITORIA = 50;

/** GET /auditoria: filters, and `antesDe` (the last id of the previous page) for the next page. */
export const auditoriaQuery = z.object({
  usuario: plainText('Pessoa (usuario)', {
    required: 'Pessoa (usuario) não pode ser vazia.',
    max: 200,
    tooLong: 'Pessoa (usuario) deve ter no máximo 200 caracteres.',
  }).optional(),
  objeto: z.enum(OBJETOS_AUDITORIA, { error: `O objeto deve ser um de: ${OBJETOS_AUDITORIA.join(', ')}.` }).optional(),
  acao: z.enum(ACOES_AUDITORIA, { error: `A ação deve ser uma de: ${ACOES_AUDITORIA.join(', ')}.` }).optional(),
  antesDe: z
    .string({ error: 'antesDe deve ser um número inteiro.' })
    .regex(/^[1-9][0-9]{0,15}$/, 'antesDe deve ser um número inteiro positivo.')
    .transform(Number)
    .optional(),
});
export type AuditoriaQuery = z.input<typeof auditoriaQuery>;

export const paginaAuditoria = z
  .object({
    registros: z.array(registroAuditoria),
    /** The `antesDe` of the next page; null on the last page. */
    proxima: z.number().int().nullable(),
  })
  .meta({ id: 'PaginaAuditoria' });
export type PaginaAuditoria = z.infer<typeof paginaAuditoria>;
