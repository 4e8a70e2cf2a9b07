/**
 * Power BI's rules for RLS roles, without zod, so the web app shares them (the RLS modal lists a configuration's
 * problems) without loading the validation library.
 */

/**
 * Power BI's limits on the roles of an effective identity (`EffectiveIdentity.roles` in its REST API; see
 * docs/decisions/014-power-bi-limits-and-view-only-tokens.md): at most 50 roles, each name at most 50 characters
 * and without a comma. An administrator opens an RLS panel with every role it has, so a panel holds at most as many
 * roles as one identity may carry.
 */
export const MAX_RLS_ROLES = 50;
export const MAX_RLS_ROLE_NAME_LENGTH = 50;

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
