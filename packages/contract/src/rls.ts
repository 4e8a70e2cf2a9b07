import { z } from 'zod';
import { email, pathId, requiredText } from './fields.ts';
import { groupId } from './groups.ts';
import {
  MAX_RLS_ROLE_NAME_LENGTH,
  MAX_RLS_ROLES,
  rlsRoleNameTooLong,
  rlsRoleNameWithComma,
  rlsTooManyRoles,
} from './rls-rules.ts';

export const MAX_RLS_EMAILS_PER_ROLE = 50_000;
export const MAX_RLS_GROUPS_PER_ROLE = 1_000;
/** Names stored before Power BI's limits were enforced are at most this long; reading them still works. */
const MAX_STORED_ROLE_NAME_LENGTH = 100;

const ROLE_NAME = 'Nome do papel RLS';

/** A role name as an administrator writes it: trimmed, storable, and within Power BI's rules. */
export const roleName = requiredText(ROLE_NAME, 'roleName', Number.MAX_SAFE_INTEGER)
  .max(MAX_RLS_ROLE_NAME_LENGTH, { error: (issue) => rlsRoleNameTooLong(issue.input as string) })
  .regex(/^[^,]*$/, { error: (issue) => rlsRoleNameWithComma(issue.input as string) });

/** A role name that names a stored role, which may be one saved before Power BI's limits were enforced. */
const storedRoleName = requiredText(ROLE_NAME, 'roleName', MAX_STORED_ROLE_NAME_LENGTH);

/** A role as the API answers it: stored names are answered as they are, even one Power BI would refuse. */
export const rlsConfiguration = z
  .object({
    roleName: z.string(),
    userEmails: z.array(z.string()),
    /** Entra groups whose people, at any depth, carry the role (the server always answers it). */
    grupos: z.array(z.string()).optional(),
  })
  .meta({ id: 'RlsConfiguration' });
export type RlsConfiguration = z.infer<typeof rlsConfiguration>;

/** A role as an administrator sends it. */
export const rlsConfigurationBody = z
  .object({
    roleName,
    userEmails: z
      .array(email('userEmails'), { error: 'userEmails deve ser uma lista de e-mails.' })
      .max(MAX_RLS_EMAILS_PER_ROLE, `userEmails aceita no máximo ${MAX_RLS_EMAILS_PER_ROLE} e-mails.`),
    /** Absent: none. */
    grupos: z
      .array(groupId, { error: 'grupos deve ser uma lista de ids de grupos.' })
      .max(MAX_RLS_GROUPS_PER_ROLE, `grupos aceita no máximo ${MAX_RLS_GROUPS_PER_ROLE} grupos por papel.`)
      .optional(),
  })
  .meta({ id: 'RlsConfigurationBody' });

export const rlsConfigurations = z
  .array(rlsConfigurationBody, { error: 'A configuração RLS deve ser uma lista de papéis.' })
  .max(MAX_RLS_ROLES, { error: (issue) => rlsTooManyRoles((issue.input as unknown[]).length) });

/** GET /paineis/{id}/rls/roles/{role}/usuarios answers, and its POST takes, a list of e-mails. */
export const rlsRoleUsers = z
  .array(email('usuarios'), { error: 'O corpo deve ser uma lista de e-mails.' })
  .max(MAX_RLS_EMAILS_PER_ROLE, `São aceitos no máximo ${MAX_RLS_EMAILS_PER_ROLE} e-mails.`);

/** POST /paineis/{id}/rls/roles/{role}/usuarios: the role it writes (or creates) follows Power BI's rules. */
export const rlsRoleParams = z.object({
  id: pathId('O id'),
  role: roleName,
});

/** GET /paineis/{id}/rls/roles/{role}/usuarios: any stored role may be read. */
export const storedRlsRoleParams = z.object({
  id: pathId('O id'),
  role: storedRoleName,
});
