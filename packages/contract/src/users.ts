import { z } from 'zod';
import { plainText } from './fields.ts';

export const MAX_LINKED_USERS = 50_000;

export const usuario365 = z
  .object({
    id: z.string(),
    displayName: z.string(),
    email: z.string(),
    department: z.string().nullable(),
  })
  .meta({ id: 'Usuario365' });
export type Usuario365 = z.infer<typeof usuario365>;

export const usuarioVinculado = z
  .object({ id: z.string(), email: z.string(), displayName: z.string() })
  .meta({ id: 'UsuarioVinculado' });
export type UsuarioVinculado = z.infer<typeof usuarioVinculado>;

/** POST /paineis/{id}/usuarios: the whole set of linked user ids (empty unlinks everyone). */
export const linkUsersBody = z
  .array(
    plainText('O id de usuário', {
      notText: 'Cada usuário deve ser informado pelo seu id (texto).',
      required: 'O id de usuário não pode ser vazio.',
      max: 200,
      tooLong: 'O id de usuário deve ter no máximo 200 caracteres.',
    }),
    { error: 'O corpo deve ser uma lista de ids de usuários.' },
  )
  .max(MAX_LINKED_USERS, `São aceitos no máximo ${MAX_LINKED_USERS} usuários por painel.`);

export const ROLES = ['Admin', 'User'] as const;
export type Role = (typeof ROLES)[number];

export const syncResult = z
  .object({
    ativos: z.number().int(),
    desativados: z.number().int(),
    /** The groups kept after the sync; null when Graph would not list them (the previous ones stay). */
    grupos: z.number().int().nullable(),
    duracaoMs: z.number().int(),
  })
  .meta({ id: 'ResultadoSincronizacao' });
export type SyncResult = z.infer<typeof syncResult>;
