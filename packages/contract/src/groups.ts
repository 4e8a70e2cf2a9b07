import { z } from 'zod';
import { plainText } from './fields.ts';

/** At most this many groups linked to one panel. */
export const MAX_LINKED_GROUPS = 1_000;

/** An Entra group as the directory sync keeps it: `membros` counts its people at any depth, each once. */
export const grupo365 = z
  .object({
    id: z.string(),
    nome: z.string(),
    descricao: z.string().nullable(),
    tipo: z.enum(['seguranca', 'microsoft365']),
    membros: z.number().int(),
  })
  .meta({ id: 'Grupo365' });
export type Grupo365 = z.infer<typeof grupo365>;

export const grupoVinculado = z.object({ id: z.string(), nome: z.string() }).meta({ id: 'GrupoVinculado' });
export type GrupoVinculado = z.infer<typeof grupoVinculado>;

/** POST /paineis/{id}/grupos: the whole set of linked group ids (empty unlinks every group). */
export const linkGroupsBody = z
  .array(
    plainText('O id de grupo', {
      notText: 'Cada grupo deve ser informado pelo seu id (texto).',
      required: 'O id de grupo não pode ser vazio.',
      max: 200,
      tooLong: 'O id de grupo deve ter no máximo 200 caracteres.',
    }),
    { error: 'O corpo deve ser uma lista de ids de grupos.' },
  )
  .max(MAX_LINKED_GROUPS, `São aceitos no máximo ${MAX_LINKED_GROUPS} grupos por painel.`);
