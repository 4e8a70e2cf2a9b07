import { z } from 'zod';
import { isoDate, optionalText, pathId, requiredText } from './fields.ts';

// One source, zod-free for the web app's first screen.
export { SEM_CLASSIFICACAO_ID, SEM_CLASSIFICACAO_NOME } from './constants.ts';

export const classificacao = z
  .object({
    id: z.number().int(),
    nome: z.string(),
    descricao: z.string().nullable(),
    ativo: z.boolean(),
    dataCadastro: isoDate,
  })
  .meta({ id: 'Classificacao' });
export type Classificacao = z.infer<typeof classificacao>;

export const classificacaoAdmin = classificacao
  .extend({ quantidadePaineis: z.number().int() })
  .meta({ id: 'ClassificacaoAdmin' });
export type ClassificacaoAdmin = z.infer<typeof classificacaoAdmin>;

export const classificacaoCreate = z.object({
  nome: requiredText('Nome', 'nome', 100),
  descricao: optionalText('Descrição', 'descricao', 500, { multiline: true }),
});
export type ClassificacaoCreate = z.input<typeof classificacaoCreate>;

export const classificacaoUpdate = classificacaoCreate.extend({
  ativo: z.boolean({ error: 'Ativo (ativo) deve ser verdadeiro ou falso.' }).optional(),
});
export type ClassificacaoUpdate = z.input<typeof classificacaoUpdate>;

export const classificacaoParams = z.object({ id: pathId('O id da classificação') });
