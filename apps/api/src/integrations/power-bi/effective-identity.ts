import { MAX_RLS_ROLES, rlsRoleNameProblem } from '@paineis/contract/rls-rules';
import { MicrosoftError } from '../microsoft-error.ts';

/**
 * Power BI's rules for an effective identity (`EffectiveIdentity` in its REST API, the same for GenerateToken and
 * ExportTo; docs/decisions/014-power-bi-limits-and-view-only-tokens.md): at most 50 roles, each name at most 50
 * characters without a comma (the contract's rule for role names), and a username of at most 256 characters, ASCII
 * (the portal's models are cloud models) and without spaces. Checked before Power BI is called, so a person gets a
 * clear answer instead of Power BI's 400.
 */

export const MAX_IDENTITY_USERNAME_LENGTH = 256;

export interface EffectiveIdentityRequest {
  username: string;
  roles: string[];
}

/** At most this much of a username is quoted back in a message. */
const QUOTED = 60;
const quoted = (text: string) => `'${text.length > QUOTED ? `${text.slice(0, QUOTED)}…` : text}'`;

/** Every rule of Power BI's that this identity breaks, one Portuguese sentence each; empty when it keeps them all. */
export function effectiveIdentityProblems({ username, roles }: EffectiveIdentityRequest): string[] {
  const problems: string[] = [];
  if (roles.length > MAX_RLS_ROLES) {
    problems.push(`A identidade teria ${roles.length} papéis; o Power BI aceita no máximo ${MAX_RLS_ROLES}.`);
  }
  for (const role of roles) {
    const problem = rlsRoleNameProblem(role);
    if (problem) problems.push(problem);
  }
  if (username.length > MAX_IDENTITY_USERNAME_LENGTH) {
    problems.push(
      `O nome de usuário ${quoted(username)} tem ${username.length} caracteres; o Power BI aceita no máximo ${MAX_IDENTITY_USERNAME_LENGTH}.`,
    );
  }
  // eslint-disable-next-line no-control-regex -- ASCII is exactly U+0000 to U+007F
  if (/[^\u0000-\u007f]/.test(username)) {
    problems.push(`O nome de usuário ${quoted(username)} contém caracteres fora do ASCII, que o Power BI não aceita.`);
  }
  if (/\s/.test(username)) {
    problems.push(`O nome de usuário ${quoted(username)} contém espaços, que o Power BI não aceita.`);
  }
  return problems;
}

/** An effective identity Power BI would refuse: the call is not made, and the person is told why (409). */
export class EffectiveIdentityRefused extends MicrosoftError {
  constructor(readonly problems: string[]) {
    super('power-bi', 'identity-over-limits', `Identidade efetiva fora das regras do Power BI: ${problems.join(' ')}`);
    this.name = 'EffectiveIdentityRefused';
  }
}

/**
 * The identity, once it is known to keep Power BI's rules. An RLS identity needs at least one role (Power BI refuses
 * one without), so that is refused first, as it always was.
 */
export function checkedEffectiveIdentity<T extends EffectiveIdentityRequest>(identity: T): T {
  if (identity.roles.length === 0) {
    throw new MicrosoftError('power-bi', 'identity-without-roles', 'Identidade RLS sem papéis.');
  }
  const problems = effectiveIdentityProblems(identity);
  if (problems.length) throw new EffectiveIdentityRefused(problems);
  return identity;
}
