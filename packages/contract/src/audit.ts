import { z } from 'zod';
import { ACOES_AUDITORIA, OBJETOS_AUDITORIA } from './usage-audit-constants.ts';
import { isoDate, plainText } from './fields.ts';

// One source, zod-free for the web app's /auditoria.
export {
  ACOES_AUDITORIA,
  NOMES_ACOES,
  NOMES_OBJETOS,
  OBJETOS_AUDITORIA,
  TAMANHO_PAGINA_AUDITORIA,
  type AcaoAuditoria,
  type ObjetoAuditoria,
} from './usage-audit-constants.ts';

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
