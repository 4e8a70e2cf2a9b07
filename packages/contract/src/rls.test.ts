import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { rlsConfigurations, rlsRoleParams, storedRlsRoleParams } from './rls.ts';
import { MAX_RLS_ROLE_NAME_LENGTH, MAX_RLS_ROLES, rlsConfigurationProblems, rlsRoleNameProblem } from './rls-rules.ts';

/** Every message a schema gives for a value, or null when it accepts it. */
function refusals(schema: z.ZodType, value: unknown): string[] | null {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues.map((issue) => issue.message);
}

const roles = (count: number, name = (i: number) => `Papel ${i}`) =>
  Array.from({ length: count }, (_, i) => ({ roleName: name(i + 1), userEmails: [] }));

describe("Power BI's limits on RLS roles", () => {
  it('are 50 roles per panel and 50 characters per role name', () => {
    expect(MAX_RLS_ROLES).toBe(50);
    expect(MAX_RLS_ROLE_NAME_LENGTH).toBe(50);
  });

  it('accept 50 roles of 50 characters, trimmed', () => {
    const fifty = roles(50, (i) => `${String(i).padStart(2, '0')}${'x'.repeat(48)}`);
    expect(
      refusals(
        rlsConfigurations,
        fifty.map((r) => ({ ...r, roleName: `  ${r.roleName} ` })),
      ),
    ).toBeNull();
    expect(rlsConfigurations.parse(fifty)).toEqual(fifty);
    expect(rlsConfigurationProblems(fifty)).toEqual([]);
  });

  it('refuse a 51st role, naming the count and the limit', () => {
    const message =
      'A configuração RLS tem 51 papéis; são aceitos no máximo 50, o limite do Power BI para uma identidade.';
    expect(refusals(rlsConfigurations, roles(51))).toEqual([message]);
    expect(rlsConfigurationProblems(roles(51))).toEqual([message]);
  });

  it('refuse a role name of 51 characters, naming the role and the limit', () => {
    const name = `Gerência ${'x'.repeat(42)}`;
    const message = `O nome do papel RLS (roleName) '${name}' tem 51 caracteres; o Power BI aceita no máximo 50.`;
    expect(refusals(rlsConfigurations, [{ roleName: name, userEmails: [] }])).toEqual([message]);
    expect(refusals(rlsRoleParams, { id: '1', role: ` ${name} ` })).toEqual([message]);
    expect(rlsRoleNameProblem(name)).toBe(message);
  });

  it('refuse a comma in a role name, naming the role', () => {
    const message =
      "O nome do papel RLS (roleName) 'Norte,Sul' contém vírgula, que o Power BI não aceita em nomes de papéis.";
    expect(refusals(rlsConfigurations, [{ roleName: 'Norte,Sul', userEmails: [] }])).toEqual([message]);
    expect(refusals(rlsRoleParams, { id: '1', role: 'Norte,Sul' })).toEqual([message]);
    expect(rlsRoleNameProblem('Norte,Sul')).toBe(message);
  });

  it('quote at most 60 characters of a long name', () => {
    const name = 'y'.repeat(100);
    expect(rlsRoleNameProblem(name)).toBe(
      `O nome do papel RLS (roleName) '${'y'.repeat(60)}…' tem 100 caracteres; o Power BI aceita no máximo 50.`,
    );
  });

  it('list every problem of a stored configuration, in order, counting names as trimmed', () => {
    const stored = [
      ...roles(60),
      { roleName: 'Norte,Sul', userEmails: [] },
      { roleName: `  ${'z'.repeat(50)}  `, userEmails: [] },
      { roleName: 'w'.repeat(80), userEmails: [] },
    ];
    expect(rlsConfigurationProblems(stored)).toEqual([
      'A configuração RLS tem 63 papéis; são aceitos no máximo 50, o limite do Power BI para uma identidade.',
      "O nome do papel RLS (roleName) 'Norte,Sul' contém vírgula, que o Power BI não aceita em nomes de papéis.",
      `O nome do papel RLS (roleName) '${'w'.repeat(60)}…' tem 80 caracteres; o Power BI aceita no máximo 50.`,
    ]);
  });

  it('still let a stored role of up to 100 characters, or with a comma, be named to read it', () => {
    expect(storedRlsRoleParams.parse({ id: '1', role: 'Norte,Sul' })).toEqual({ id: 1, role: 'Norte,Sul' });
    expect(storedRlsRoleParams.parse({ id: '1', role: 'v'.repeat(100) })).toEqual({ id: 1, role: 'v'.repeat(100) });
    expect(refusals(storedRlsRoleParams, { id: '1', role: 'v'.repeat(101) })).toEqual([
      'Nome do papel RLS (roleName) deve ter no máximo 100 caracteres.',
    ]);
  });
});
