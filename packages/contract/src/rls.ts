import { z } from 'zod';
import { email, pathId, requiredText } from './fields.ts';

/**
 * Power BI's limits on the roles of an effective identity (`EffectiveIdentity.roles` in its REST API; see
 * docs/decisions/014-power-bi-limits-and-view-only-tokens.md): at most 50 roles, each name at most 50 characters
 * and without a comma. An administrator opens an RLS panel with every role it has, so a panel holds at most as many
 * roles as one identity may carry.
 */
export const MAX_RLS_ROLES = 50;
export const MAX_RLS_ROLE_NAME_LENGTH = 50;
export const MAX_RLS_EMAILS_PER_ROLE = 50_000;
/** Names stored before Power BI's limits were enforced are at most this long; reading them still works. */
const MAX_STORED_ROLE_NAME_LENGTH = 100;

/** At most this much of a role name is quoted back in a message. */
const QUOTED = 60;
const quoted = (name: string) => `'${name.length > QUOTED ? `${name.slice(0, QUOTED)}…` : name}'`;

export const rlsTooManyRoles = (count: number) =>
  `A configuração RLS tem ${count} papéis; são aceitos no máximo ${MAX_RLS_ROLES}, o limite do Power BI para uma identidade.`;
export const rlsRoleNameTooLong = (name: string) =>
  `O nome do papel RLS (roleName) ${quoted(name)} tem ${name.length} caracteres; o Power BI aceita no máximo ${MAX_RLS_ROLE_NAME_LENGTH}.`;
export const rlsRoleNameWithComma = (name: string) =>
  `O nome do papel RLS (roleName) ${quoted(name)} contém vírgula, que o Power BI não aceita em nomes de papéis.`;

/** Why Power BI would refuse this role name (already trimmed), or null. */
export function rlsRoleNameProblem(name: string): string | null {
  if (name.length > MAX_RLS_ROLE_NAME_LENGTH) return rlsRoleNameTooLong(name);
  if (name.includes(',')) return rlsRoleNameWithComma(name);
  return null;
}

/**
 * Everything in a panel's RLS configuration that Power BI would refuse, one sentence each (empty when there is
 * nothing): the API refuses to save such a configuration and warns of stored ones, the RLS modal lists them.
 */
export function rlsConfigurationProblems(configs: readonly { roleName: string }[]): string[] {
  const problems = configs.length > MAX_RLS_ROLES ? [rlsTooManyRoles(configs.length)] : [];
  for (const { roleName } of configs) {
    const problem = rlsRoleNameProblem(roleName.trim());
    if (problem) problems.push(problem);
  }
  return problems;
}

const ROLE_NAME = 'Nome do papel RLS';

/** A role name as an administrator writes it: trimmed, storable, and within Power BI's rules. */
export const roleName = requiredText(ROLE_NAME, 'roleName', Number.MAX_SAFE_INTEGER)
  .max(MAX_RLS_ROLE_NAME_LENGTH, { error: (issue) => rlsRoleNameTooLong(issue.input as string) })
  .regex(/^[^,]*$/, { error: (issue) => rlsRoleNameWithComma(issue.input as string) });

/** A role name that names a stored role, which may be one saved before Power BI's limits were enforced. */
const storedRoleName = requiredText(ROLE_NAME, 'roleName', MAX_STORED_ROLE_NAME_LENGTH);

/** A role as the API answers it: stored names are answered as they are, even one Power BI would refuse. */
export const rlsConfiguration = z
  .object({ roleName: z.string(), userEmails: z.array(z.string()) })
  .meta({ id: 'RlsConfiguration' });
export type RlsConfiguration = z.infer<typeof rlsConfiguration>;

/** A role as an administrator sends it. */
export const rlsConfigurationBody = z
  .object({
    roleName,
    userEmails: z
      .array(email('userEmails'), { error: 'userEmails deve ser uma lista de e-mails.' })
      .max(MAX_RLS_EMAILS_PER_ROLE, `userEmails aceita no máximo ${MAX_RLS_EMAILS_PER_ROLE} e-mails.`),
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
