import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { loginBody } from './auth.ts';
import { classificacaoCreate, classificacaoParams } from './classifications.ts';
import { email, idParams, textProblem } from './fields.ts';
import { embedQuery, painelBody, proximaOrdemParams, reorderBody } from './panels.ts';
import { rlsConfigurations, rlsRoleParams } from './rls.ts';
import { linkUsersBody } from './users.ts';

/** The first message a schema gives for a value, or null when it accepts it. */
function refusal(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues[0]!.message;
}

const PANEL = {
  nomePainel: 'Vendas',
  workspaceId: '11111111-1111-4111-8111-111111111111',
  reportId: '22222222-2222-4222-8222-222222222222',
};

describe('the text rule: no control characters, no lone surrogates', () => {
  it.each([
    ['a\u0000b', 'um caractere de controle (U+0000)'],
    ['\u0001', 'um caractere de controle (U+0001)'],
    ['a\u001fb', 'um caractere de controle (U+001F)'],
    ['a\u007fb', 'um caractere de controle (U+007F)'],
    ['a\tb', 'um caractere de controle (U+0009)'],
    ['a\nb', 'um caractere de controle (U+000A)'],
    ['\ud800', 'um caractere inválido (U+D800, metade de um par substituto UTF-16 sem a outra)'],
    ['a\udc00b', 'um caractere inválido (U+DC00, metade de um par substituto UTF-16 sem a outra)'],
    ['\udc00\ud800', 'um caractere inválido (U+DC00, metade de um par substituto UTF-16 sem a outra)'],
    ['😀\ud83d', 'um caractere inválido (U+D83D, metade de um par substituto UTF-16 sem a outra)'],
  ])('refuses %j', (text, problem) => {
    expect(textProblem(text)).toBe(problem);
  });

  it.each([
    '',
    'Vendas',
    'Relatório 😀 ✓',
    '\u202eRTL\u200f',
    '<script>alert(1)</script>',
    "'; drop table x; --",
    '\uffff',
  ])('accepts %j', (text) => {
    expect(textProblem(text)).toBeNull();
  });

  it('a multi-line text may hold tab, line feed and carriage return, and no other control character', () => {
    expect(textProblem('linha 1\r\nlinha 2\tfim', true)).toBeNull();
    expect(textProblem('a\u0000b', true)).toBe('um caractere de controle (U+0000)');
    expect(textProblem('a\u000bb', true)).toBe('um caractere de controle (U+000B)');
  });

  it('every text field refuses U+0000 and a lone surrogate with a message naming it', () => {
    const cases: Array<[z.ZodType, (text: string) => unknown, RegExp]> = [
      [classificacaoCreate, (t) => ({ nome: t }), /^Nome \(nome\) não pode conter/],
      [classificacaoCreate, (t) => ({ nome: 'x', descricao: t }), /^Descrição \(descricao\) não pode conter/],
      [painelBody, (t) => ({ ...PANEL, nomePainel: t }), /^Nome do painel \(nomePainel\) não pode conter/],
      [rlsConfigurations, (t) => [{ roleName: t, userEmails: [] }], /^Nome do papel RLS \(roleName\) não pode conter/],
      [rlsRoleParams, (t) => ({ id: '1', role: t }), /^Nome do papel RLS \(roleName\) não pode conter/],
      [embedQuery, (t) => ({ papel: t }), /^Papel RLS \(papel\) não pode conter/],
      [linkUsersBody, (t) => [t], /^O id de usuário não pode conter/],
      [loginBody, (t) => ({ username: t, password: 'x' }), /^Usuário \(username\) não pode conter/],
      [loginBody, (t) => ({ username: 'x', password: t }), /^Senha \(password\) não pode conter/],
      [email('userEmails'), (t) => t, /^userEmails: o e-mail não pode conter/],
    ];
    for (const [schema, value, message] of cases) {
      for (const bad of ['a\u0000b', 'a\ud800b', 'a\u0007b']) expect(refusal(schema, value(bad))).toMatch(message);
      expect(refusal(schema, value('a b')) ?? '').not.toMatch(message);
    }
  });

  it('a description keeps its line breaks; a name may not have them', () => {
    expect(classificacaoCreate.parse({ nome: 'x', descricao: ' a\r\n\tb ' }).descricao).toBe('a\r\n\tb');
    expect(refusal(classificacaoCreate, { nome: 'a\nb' })).toBe(
      'Nome (nome) não pode conter um caractere de controle (U+000A).',
    );
  });

  it('trims as String.prototype.trim does (line breaks at the ends included), and keeps the rest as it is', () => {
    const nome = '\u00a0\n <b>Vendas</b> 😀 \u202e\ufeff';
    expect(classificacaoCreate.parse({ nome }).nome).toBe(nome.trim());
    expect(classificacaoCreate.parse({ nome }).nome).toBe('<b>Vendas</b> 😀 \u202e');
  });

  it('a password is neither trimmed nor allowed control characters', () => {
    expect(loginBody.parse({ username: ' ana ', password: ' s e ' })).toEqual({ username: 'ana', password: ' s e ' });
    expect(refusal(loginBody, { username: 'ana', password: 'a\u0000' })).toBe(
      'Senha (password) não pode conter um caractere de controle (U+0000).',
    );
  });

  it('an e-mail quoted back in a message is cut short', () => {
    const message = refusal(email('userEmails'), `${'x'.repeat(1000)}@`);
    expect(message).toMatch(/^userEmails: 'x{80}…' não é um e-mail válido\.$/);
  });
});

describe('ids in addresses: decimal digits only', () => {
  it.each([
    ['8', 8],
    ['1', 1],
    ['2147483647', 2_147_483_647],
  ])('reads %s', (text, id) => {
    expect(idParams.parse({ id: text })).toEqual({ id });
    expect(classificacaoParams.parse({ id: text })).toEqual({ id });
    expect(rlsRoleParams.parse({ id: text, role: 'Sul' })).toEqual({ id, role: 'Sul' });
  });

  it.each(['0x8', '1e1', ' 8', '8 ', '+8', '-8', '8.0', '8.', '.8', '', 'abc', '٨', '８', 'Infinity', 'NaN', '8a'])(
    'refuses %j, naming the id',
    (text) => {
      expect(refusal(idParams, { id: text })).toBe(
        'O id deve ser um número inteiro escrito só com algarismos, como 8.',
      );
      expect(refusal(classificacaoParams, { id: text })).toMatch(/^O id da classificação /);
      expect(refusal(proximaOrdemParams, { classificacaoId: text })).toMatch(/^Classificação \(classificacaoId\) /);
    },
  );

  it('refuses leading zeros, so each resource has one address', () => {
    expect(refusal(idParams, { id: '08' })).toBe('O id não pode começar com zero (escreva 8, não 08).');
    expect(refusal(idParams, { id: '00' })).toBe('O id não pode começar com zero (escreva 8, não 08).');
    expect(refusal(proximaOrdemParams, { classificacaoId: '00' })).toBe(
      'Classificação (classificacaoId) não pode começar com zero (escreva 8, não 08).',
    );
  });

  it('refuses 0 (but a classificacaoId may be 0) and anything over 2147483647', () => {
    expect(refusal(idParams, { id: '0' })).toBe('O id deve ser maior que zero.');
    expect(proximaOrdemParams.parse({ classificacaoId: '0' })).toEqual({ classificacaoId: 0 });
    for (const big of ['2147483648', '99999999999', '9'.repeat(400)]) {
      expect(refusal(idParams, { id: big })).toBe('O id é grande demais.');
    }
  });

  it('an id in a body is a JSON number, not a string, a boolean or a list', () => {
    for (const painelId of ['8', true, [8], null, '0x8']) {
      expect(refusal(reorderBody, [{ painelId, novaOrdem: 1 }])).toBe('painelId deve ser um número.');
    }
    expect(reorderBody.parse([{ painelId: 8, novaOrdem: 1 }])).toEqual([{ painelId: 8, novaOrdem: 1 }]);
  });
});

describe('the ids of people and groups a request names (alerts, subscriptions)', () => {
  it('refuses what PostgreSQL cannot store, as a clear 400 rather than a failed statement', async () => {
    const { alertasBody } = await import('./alerts.ts');
    const { destinatariosBody } = await import('./subscriptions.ts');
    const nul = 'Vendas\u0000Norte';
    expect(refusal(alertasBody, { eventos: [], destinatarios: { grupos: [nul] } })).toBe(
      'Cada grupo (destinatarios.grupos) não pode conter um caractere de controle (U+0000).',
    );
    expect(refusal(destinatariosBody, { usuarios: [nul] })).toBe(
      'Cada pessoa (destinatarios.usuarios) não pode conter um caractere de controle (U+0000).',
    );
    expect(refusal(destinatariosBody, { grupos: ['g-comercial'] })).toBeNull();
  });
});
