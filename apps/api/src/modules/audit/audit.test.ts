import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { PaginaAuditoria, RegistroAuditoria } from '@paineis/contract/audit';
import { testConfig, useTestApp } from '../../../test/context.ts';
import { classificacao, createAdmin, createUser, localAccount, panel } from '../../../test/fixtures.ts';
import { rows } from '../../db/client.ts';
import { changesBetween } from './audit.ts';

const PANEL = {
  workspaceId: '11111111-1111-4111-8111-111111111111',
  reportId: '22222222-2222-4222-8222-333333333333',
  usaRls: false,
};

describe('audit trail (docs/requirements.md#audit)', () => {
  const ctx = useTestApp({
    config: testConfig({ LOGIN_MAX_FAILURES_PER_USER_AND_ADDRESS: '2', LOGIN_MAX_FAILURES_PER_ADDRESS: '50' }),
  });

  async function admin() {
    const who = await createAdmin(ctx.db, { email: 'chefe@empresa.com.br', displayName: 'Chefe' });
    return { who, token: await ctx.tokenFor(who) };
  }
  /** Every record, oldest first. */
  const records = async () => {
    const page = await rows<RegistroAuditoria & { usuario_id: string | null; objeto_id: string | null }>(
      ctx.db,
      sql`select id, usuario_id, usuario, endereco, objeto, objeto_id, objeto_nome as "objetoNome", acao, mudancas
          from auditoria order by id`,
    );
    return page;
  };
  const last = async () => (await records()).at(-1)!;

  it('records a panel’s creation, change and deletion, by whom and from where, with what changed', async () => {
    const { who, token } = await admin();
    const vendas = await classificacao(ctx.db, 'Vendas');
    const created = await ctx.request('POST', '/api/paineis', {
      token,
      body: { ...PANEL, nomePainel: 'Faturamento', classificacaoId: vendas.id },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: number }>().id;
    expect(await last()).toMatchObject({
      usuario_id: who.id,
      usuario: 'chefe@empresa.com.br',
      endereco: '127.0.0.1',
      objeto: 'painel',
      objeto_id: String(id),
      objetoNome: 'Faturamento',
      acao: 'criacao',
    });
    expect((await last()).mudancas).toEqual(
      expect.arrayContaining([
        { campo: 'nomePainel', depois: 'Faturamento' },
        { campo: 'classificacao', depois: 'Vendas' },
        { campo: 'usaRls', depois: false },
      ]),
    );

    const mensal = {
      ...PANEL,
      nomePainel: 'Faturamento Mensal',
      classificacaoId: vendas.id,
      usaRls: true,
      rlsConfigurations: [{ roleName: 'Sul', userEmails: ['ana@empresa.com.br'] }],
    };
    const changed = await ctx.request('PUT', `/api/paineis/${id}`, { token, body: mensal });
    expect(changed.statusCode).toBe(200);
    expect(await last()).toMatchObject({ acao: 'alteracao', objetoNome: 'Faturamento Mensal' });
    expect((await last()).mudancas).toEqual([
      { campo: 'nomePainel', antes: 'Faturamento', depois: 'Faturamento Mensal' },
      { campo: 'usaRls', antes: false, depois: true },
      { campo: 'papeis.Sul', depois: { 'ana@empresa.com.br': true } },
    ]);

    // Saving the same again changes nothing, and records nothing.
    const count = (await records()).length;
    await ctx.request('PUT', `/api/paineis/${id}`, { token, body: mensal });
    expect(await records()).toHaveLength(count);

    expect((await ctx.request('DELETE', `/api/paineis/${id}`, { token })).statusCode).toBe(204);
    expect(await last()).toMatchObject({ objeto: 'painel', acao: 'exclusao', objetoNome: 'Faturamento Mensal' });
    expect((await last()).mudancas).toEqual(
      expect.arrayContaining([{ campo: 'nomePainel', antes: 'Faturamento Mensal' }]),
    );
  });

  it('records switching a panel’s export off and on', async () => {
    const { token } = await admin();
    const created = await ctx.request('POST', '/api/paineis', { token, body: { ...PANEL, nomePainel: 'Metas' } });
    const id = created.json<{ id: number }>().id;
    expect((await last()).mudancas).toEqual(expect.arrayContaining([{ campo: 'permiteExportacao', depois: true }]));
    const off = await ctx.request('PUT', `/api/paineis/${id}`, {
      token,
      body: { ...PANEL, nomePainel: 'Metas', permiteExportacao: false },
    });
    expect(off.statusCode).toBe(200);
    expect((await last()).mudancas).toEqual([{ campo: 'permiteExportacao', antes: true, depois: false }]);
  });

  it('records a reorder with each panel’s order before and after', async () => {
    const { token } = await admin();
    const a = await panel(ctx.db, { nomePainel: 'A', ordem: 1 });
    const b = await panel(ctx.db, { nomePainel: 'B', ordem: 2 });
    const res = await ctx.request('POST', '/api/paineis/reorder', {
      token,
      body: [
        { painelId: a.id, novaOrdem: 2 },
        { painelId: b.id, novaOrdem: 1 },
      ],
    });
    expect(res.statusCode).toBe(204);
    expect(await last()).toMatchObject({ objeto: 'ordem', acao: 'alteracao' });
    expect((await last()).mudancas).toEqual([
      { campo: `A (#${a.id})`, antes: 1, depois: 2 },
      { campo: `B (#${b.id})`, antes: 2, depois: 1 },
    ]);
  });

  it('records a classification’s creation, change and deletion', async () => {
    const { token } = await admin();
    const created = await ctx.request('POST', '/api/classificacoes', {
      token,
      body: { nome: 'Financeiro', descricao: null },
    });
    const id = created.json<{ id: number }>().id;
    expect(await last()).toMatchObject({ objeto: 'classificacao', acao: 'criacao', objeto_id: String(id) });
    await ctx.request('PUT', `/api/classificacoes/${id}`, {
      token,
      body: { nome: 'Finanças', descricao: 'Contas', ativo: false },
    });
    expect((await last()).mudancas).toEqual([
      { campo: 'nome', antes: 'Financeiro', depois: 'Finanças' },
      { campo: 'descricao', antes: null, depois: 'Contas' },
      { campo: 'ativo', antes: true, depois: false },
    ]);
    await ctx.request('DELETE', `/api/classificacoes/${id}`, { token });
    expect(await last()).toMatchObject({ acao: 'exclusao', objetoNome: 'Finanças' });
  });

  it('records links and RLS changes person by person', async () => {
    const { token } = await admin();
    const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br' });
    const bia = await createUser(ctx.db, { email: 'bia@empresa.com.br' });
    const p = await panel(ctx.db, { nomePainel: 'Regional', usaRls: true });
    await ctx.request('POST', `/api/paineis/${p.id}/usuarios`, { token, body: [ana.id] });
    await ctx.request('POST', `/api/paineis/${p.id}/usuarios`, { token, body: [bia.id] });
    expect(await last()).toMatchObject({ objeto: 'vinculos', objetoNome: 'Regional', objeto_id: String(p.id) });
    expect((await last()).mudancas).toEqual([
      { campo: `usuarios.${ana.id}`, antes: 'ana@empresa.com.br' },
      { campo: `usuarios.${bia.id}`, depois: 'bia@empresa.com.br' },
    ]);

    await ctx.request('POST', `/api/paineis/${p.id}/rls`, {
      token,
      body: [{ roleName: 'Sul', userEmails: ['ana@empresa.com.br'] }],
    });
    expect(await last()).toMatchObject({ objeto: 'rls', acao: 'alteracao' });
    await ctx.request('POST', `/api/paineis/${p.id}/rls/roles/Sul/usuarios`, { token, body: ['bia@empresa.com.br'] });
    expect((await last()).mudancas).toEqual([
      { campo: 'papeis.Sul.ana@empresa.com.br', antes: true },
      { campo: 'papeis.Sul.bia@empresa.com.br', depois: true },
    ]);
    await ctx.request('DELETE', `/api/paineis/${p.id}/rls`, { token });
    expect((await last()).mudancas).toEqual([{ campo: 'papeis.Sul', antes: { 'bia@empresa.com.br': true } }]);
  });

  it('records local sign-ins, sign-outs, refused sign-ins and throttling, and the last sign-in', async () => {
    await localAccount(ctx.db, 'maria', 'senha-forte-1');
    const login = (password: string) =>
      ctx.request('POST', '/api/auth/login', { body: { username: 'maria', password } });
    const ok = await login('senha-forte-1');
    expect(ok.statusCode).toBe(200);
    expect(await last()).toMatchObject({
      usuario_id: 'local:maria',
      usuario: 'maria@empresa.com.br',
      objeto: 'sessao',
      acao: 'login',
      mudancas: [{ campo: 'metodo', depois: 'Conta local' }],
    });
    const [signedIn] = await rows<{ usuario_id: string }>(ctx.db, sql`select usuario_id from ultimos_logins`);
    expect(signedIn).toEqual({ usuario_id: 'local:maria' });

    const { token } = ok.json<{ token: string }>();
    expect((await ctx.request('POST', '/api/auth/logout-complete', { token })).statusCode).toBe(204);
    expect(await last()).toMatchObject({ usuario_id: 'local:maria', objeto: 'sessao', acao: 'logout' });

    expect((await login('errada')).statusCode).toBe(401);
    expect(await last()).toMatchObject({
      usuario_id: null,
      usuario: 'maria',
      acao: 'login_recusado',
      mudancas: [
        { campo: 'metodo', depois: 'Conta local' },
        { campo: 'motivo', depois: 'Usuário ou senha inválidos.' },
      ],
    });
    await login('errada');
    expect((await login('errada')).statusCode).toBe(429);
    expect(await last()).toMatchObject({ usuario: 'maria', acao: 'limitado' });
    expect(String((await last()).mudancas[1]!.depois)).toContain('Muitas tentativas de login.');
  });

  it('lists records newest first, 50 a page, filtered by person, object and kind of change', async () => {
    const { token } = await admin();
    const other = await createAdmin(ctx.db, { email: 'outra@empresa.com.br' });
    const otherToken = await ctx.tokenFor(other);
    for (let i = 0; i < 55; i++) {
      await ctx.request('POST', '/api/classificacoes', { token, body: { nome: `Classe ${i}`, descricao: null } });
    }
    await ctx.request('POST', '/api/paineis', { token: otherToken, body: { ...PANEL, nomePainel: 'Do Outro' } });

    const page = async (query: string) => {
      const res = await ctx.request('GET', `/api/auditoria${query}`, { token });
      expect(res.statusCode).toBe(200);
      return res.json<PaginaAuditoria>();
    };
    const first = await page('');
    expect(first.registros).toHaveLength(50);
    expect(first.registros[0]).toMatchObject({
      objeto: 'painel',
      objetoNome: 'Do Outro',
      usuario: 'outra@empresa.com.br',
    });
    expect(first.registros.map((r) => r.id)).toEqual([...first.registros.map((r) => r.id)].sort((a, b) => b - a));
    const second = await page(`?antesDe=${first.proxima}`);
    expect(second.registros).toHaveLength(6);
    expect(second.proxima).toBeNull();
    expect(second.registros.at(-1)!.objetoNome).toBe('Classe 0');

    expect((await page('?usuario=outra@')).registros.map((r) => r.objetoNome)).toEqual(['Do Outro']);
    expect((await page(`?usuario=${other.id}`)).registros).toHaveLength(1);
    expect((await page('?objeto=classificacao&acao=criacao')).registros).toHaveLength(50);
    expect((await page('?objeto=painel&acao=exclusao')).registros).toEqual([]);
    // A percent sign is looked for as such, not as a wildcard.
    expect((await page('?usuario=%25')).registros).toEqual([]);

    const bad = await ctx.request('GET', '/api/auditoria?objeto=planeta', { token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('O objeto deve ser um de:');
    const badPage = await ctx.request('GET', '/api/auditoria?antesDe=-1', { token });
    expect(badPage.statusCode).toBe(400);
  });

  it('keeps a compact diff: only what changed, by path', () => {
    expect(changesBetween({ a: 1, b: { c: 2, d: 3 } }, { a: 1, b: { c: 2, d: 4, e: 5 } })).toEqual([
      { campo: 'b.d', antes: 3, depois: 4 },
      { campo: 'b.e', depois: 5 },
    ]);
    expect(changesBetween(null, { nome: 'X' })).toEqual([{ campo: 'nome', depois: 'X' }]);
    expect(changesBetween({ nome: 'X' }, null)).toEqual([{ campo: 'nome', antes: 'X' }]);
  });
});
