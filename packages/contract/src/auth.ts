import { z } from 'zod';
import { plainText, requiredText } from './fields.ts';

/** The portal's own JWT: the claims of docs/requirements.md#token-claims, plus sub and jti. */
export const tokenClaims = z.object({
  sub: z.string(),
  jti: z.string(),
  name: z.string().optional(),
  unique_name: z.string().optional(),
  email: z.string().optional(),
  role: z.string().optional(),
  displayName: z.string().optional(),
  department: z.string().nullable().optional(),
  jobTitle: z.string().nullable().optional(),
  officeLocation: z.string().nullable().optional(),
  exp: z.number(),
});
export type TokenClaims = z.infer<typeof tokenClaims>;

export const loginBody = z.object({
  username: requiredText('Usuário', 'username', 200),
  // Not trimmed: a password is compared as it was typed.
  password: plainText('Senha (password)', {
    required: 'Senha (password) é obrigatória.',
    max: 200,
    tooLong: 'Senha (password) deve ter no máximo 200 caracteres.',
    trim: false,
  }),
});
export type LoginBody = z.infer<typeof loginBody>;

export const sessionUser = z
  .object({
    id: z.string(),
    username: z.string(),
    displayName: z.string(),
    email: z.string(),
    role: z.enum(['Admin', 'User']),
  })
  .meta({ id: 'UsuarioSessao' });
export type SessionUser = z.infer<typeof sessionUser>;

export const loginResponse = z.object({ token: z.string(), user: sessionUser }).meta({ id: 'Login' });
export type LoginResponse = z.infer<typeof loginResponse>;

/** Codes the sign-in callback puts in /login?erro=... for the web app to show. */
export const LOGIN_ERROR_MICROSOFT = 'microsoft';
