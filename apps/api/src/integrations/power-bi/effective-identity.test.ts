import { describe, expect, it } from 'vitest';
import { MicrosoftError } from '../microsoft-error.ts';
import { checkedEffectiveIdentity, effectiveIdentityProblems, EffectiveIdentityRefused } from './effective-identity.ts';

const ANA = 'ana@empresa.com.br';
/** What checkedEffectiveIdentity throws for this identity (a MicrosoftError), failing the test when it throws nothing. */
function refusalOf(identity: { username: string; roles: string[] }): MicrosoftError {
  try {
    checkedEffectiveIdentity(identity);
  } catch (error) {
    if (error instanceof MicrosoftError) return error;
    throw error;
  }
  throw new Error('checkedEffectiveIdentity accepted the identity');
}

const roles = (count: number) => Array.from({ length: count }, (_, i) => `Papel ${i + 1}`);

describe("Power BI's rules for an effective identity (docs/decisions/014)", () => {
  it('accept 50 roles of up to 50 characters and a username of 256 ASCII characters', () => {
    const username = `${'a'.repeat(256 - '@empresa.com.br'.length)}@empresa.com.br`;
    expect(username).toHaveLength(256);
    const identity = { username, roles: [...roles(49), 'x'.repeat(50)] };
    expect(effectiveIdentityProblems(identity)).toEqual([]);
    expect(checkedEffectiveIdentity(identity)).toBe(identity);
  });

  it('name each rule broken: more than 50 roles, a long name, a comma', () => {
    expect(effectiveIdentityProblems({ username: ANA, roles: [...roles(50), 'y'.repeat(51), 'Norte,Sul'] })).toEqual([
      'A identidade teria 52 papéis; o Power BI aceita no máximo 50.',
      `O nome do papel RLS (roleName) '${'y'.repeat(51).slice(0, 60)}' tem 51 caracteres; o Power BI aceita no máximo 50.`,
      "O nome do papel RLS (roleName) 'Norte,Sul' contém vírgula, que o Power BI não aceita em nomes de papéis.",
    ]);
  });

  it('refuse a username longer than 256 characters, not ASCII, or with spaces', () => {
    const long = `${'b'.repeat(250)}@empresa.com.br`;
    expect(effectiveIdentityProblems({ username: long, roles: ['Sul'] })).toEqual([
      `O nome de usuário '${long.slice(0, 60)}…' tem 265 caracteres; o Power BI aceita no máximo 256.`,
    ]);
    expect(effectiveIdentityProblems({ username: 'joão@empresa.com.br', roles: ['Sul'] })).toEqual([
      "O nome de usuário 'joão@empresa.com.br' contém caracteres fora do ASCII, que o Power BI não aceita.",
    ]);
    expect(effectiveIdentityProblems({ username: 'ana souza@empresa.com.br', roles: ['Sul'] })).toEqual([
      "O nome de usuário 'ana souza@empresa.com.br' contém espaços, que o Power BI não aceita.",
    ]);
  });

  it('refuse an identity without roles first, as Power BI requires one', () => {
    expect(refusalOf({ username: 'joão da silva', roles: [] })).toMatchObject({ failure: 'identity-without-roles' });
  });

  it('throw the problems for the 409 answer', () => {
    const refusal = refusalOf({ username: 'ana souza', roles: ['A,B'] });
    expect(refusal).toBeInstanceOf(EffectiveIdentityRefused);
    expect(refusal).toMatchObject({
      service: 'power-bi',
      failure: 'identity-over-limits',
      problems: [
        "O nome do papel RLS (roleName) 'A,B' contém vírgula, que o Power BI não aceita em nomes de papéis.",
        "O nome de usuário 'ana souza' contém espaços, que o Power BI não aceita.",
      ],
    });
  });
});
