import { z } from 'zod';
import { email, pathId, requiredText } from './fields.ts';

export const MAX_RLS_ROLES = 200;
export const MAX_RLS_EMAILS_PER_ROLE = 50_000;

export const roleName = requiredText('Nome do papel RLS', 'roleName', 100);

export const rlsConfiguration = z
  .object({
    roleName,
    userEmails: z
      .array(email('userEmails'), { error: 'userEmails deve ser uma lista de e-mails.' })
      .max(MAX_RLS_EMAILS_PER_ROLE, `userEmails aceita no máximo ${MAX_RLS_EMAILS_PER_ROLE} e-mails.`),
  })
  .meta({ id: 'RlsConfiguration' });
export type RlsConfiguration = z.infer<typeof rlsConfiguration>;

export const rlsConfigurations = z
  .array(rlsConfiguration, { error: 'A configuração RLS deve ser uma lista de papéis.' })
  .max(MAX_RLS_ROLES, `São aceitos no máximo ${MAX_RLS_ROLES} papéis RLS por painel.`);

/** GET /paineis/{id}/rls/roles/{role}/usuarios answers, and its POST takes, a list of e-mails. */
export const rlsRoleUsers = z
  .array(email('usuarios'), { error: 'O corpo deve ser uma lista de e-mails.' })
  .max(MAX_RLS_EMAILS_PER_ROLE, `São aceitos no máximo ${MAX_RLS_EMAILS_PER_ROLE} e-mails.`);

export const rlsRoleParams = z.object({
  id: pathId('O id'),
  role: roleName,
});
