import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { useTestApp } from '../../test/context.ts';
import { classificacao, createAdmin, createUser, link, panel } from '../../test/fixtures.ts';
import { dataVersion } from './versioned-cache.ts';

/** Two API instances over one database: what one writes, the other answers at once. */
describe('cached lists across instances', () => {
  const ctx = useTestApp();
  let other: App;
  beforeAll(async () => {
    other = await buildApp({ config: ctx.config, database: ctx.database, ownsDatabase: false, logger: false });
    await other.ready();
  });
  afterAll(() => other.close());

  const fromOther = async (url: string, token: string, headers: Record<string, string> = {}) => {
    const res = await other.inject({ url, headers: { authorization: `Bearer ${token}`, ...headers } });
    return res;
  };

  it('shows a panel created, renamed, moved and deleted through the other instance', async () => {
    const admin = await createAdmin(ctx.db);
    const token = await ctx.tokenFor(admin);
    const vendas = await classificacao(ctx.db, 'Vendas');
    expect((await fromOther('/api/paineis', token)).json()).toEqual([]); // cached empty

    const created = await ctx.request('POST', '/api/paineis', {
      token,
      body: {
        nomePainel: 'Metas',
        workspaceId: '11111111-1111-4111-8111-111111111111',
        reportId: '22222222-2222-4222-8222-222222222222',
        classificacaoId: vendas.id,
      },
    });
    const id = created.json<{ id: number }>().id;
    expect((await fromOther('/api/paineis', token)).json()).toMatchObject([{ id, nomePainel: 'Metas' }]);

    await ctx.request('PUT', `/api/classificacoes/${vendas.id}`, { token, body: { nome: 'Vendas e Metas' } });
    expect((await fromOther('/api/paineis/agrupados', token)).json()).toMatchObject([
      {
        id: vendas.id,
        nome: 'Vendas e Metas',
        quantidadePaineis: 1,
        paineis: [{ id, classificacaoNome: 'Vendas e Metas' }],
      },
    ]);

    await ctx.request('DELETE', `/api/paineis/${id}`, { token });
    expect((await fromOther('/api/paineis', token)).json()).toEqual([]);
  });

  it('applies link changes to what a user sees at once', async () => {
    const p = await panel(ctx.db, { nomePainel: 'Visível' });
    const user = await createUser(ctx.db);
    const token = await ctx.tokenFor(user);
    expect((await fromOther('/api/paineis', token)).json()).toEqual([]);
    await link(ctx.db, p.id, [user.id]);
    expect((await fromOther('/api/paineis', token)).json()).toMatchObject([{ id: p.id }]);
    await link(ctx.db, p.id, []);
    expect((await fromOther('/api/paineis', token)).json()).toEqual([]);
  });

  it('sees changes written straight to the database (as a directory sync would)', async () => {
    const admin = await createAdmin(ctx.db);
    const token = await ctx.tokenFor(admin);
    const p = await panel(ctx.db, { nomePainel: 'Antes' });
    expect((await fromOther('/api/paineis', token)).json()).toMatchObject([{ nomePainel: 'Antes' }]);
    await ctx.db.execute(sql`update paineis set nome_painel = 'Depois' where id = ${p.id}`);
    expect((await fromOther('/api/paineis', token)).json()).toMatchObject([{ nomePainel: 'Depois' }]);
  });
});

describe('GET /api/usuarios365/ativos caching', () => {
  const ctx = useTestApp();

  it('answers an ETag, 304 while nothing changed, and the new list once a user changes', async () => {
    const admin = await createAdmin(ctx.db, { displayName: 'Zélia Admin' });
    const token = await ctx.tokenFor(admin);
    const first = await ctx.request('GET', '/api/usuarios365/ativos', { token });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.json()).toEqual([
      { id: admin.id, displayName: 'Zélia Admin', email: admin.email, department: 'Financeiro' },
    ]);

    const unchanged = await ctx.request('GET', '/api/usuarios365/ativos', {
      token,
      headers: { 'if-none-match': etag },
    });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');

    await createUser(ctx.db, { displayName: 'Álvaro Novo', department: null });
    const changed = await ctx.request('GET', '/api/usuarios365/ativos', { token, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json<{ displayName: string }[]>().map((u) => u.displayName)).toEqual(['Álvaro Novo', 'Zélia Admin']);

    await ctx.db.execute(sql`update usuarios set active = false where display_name = 'Álvaro Novo'`);
    const after = await ctx.request('GET', '/api/usuarios365/ativos', { token });
    expect(after.json<{ displayName: string }[]>().map((u) => u.displayName)).toEqual(['Zélia Admin']);
  });

  it('still checks the session and the role before answering 304', async () => {
    const admin = await createAdmin(ctx.db);
    const etag = (await ctx.request('GET', '/api/usuarios365/ativos', { token: await ctx.tokenFor(admin) })).headers
      .etag as string;
    const user = await createUser(ctx.db);
    const res = await ctx.request('GET', '/api/usuarios365/ativos', {
      token: await ctx.tokenFor(user),
      headers: { 'if-none-match': etag },
    });
    expect(res.statusCode).toBe(403);
    const anonymous = await ctx.request('GET', '/api/usuarios365/ativos', { headers: { 'if-none-match': etag } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('data versions', () => {
  const ctx = useTestApp();

  it('move on every kind of write to the tables behind them, and only theirs', async () => {
    const v = async () => ({
      paineis: await dataVersion(ctx.db, 'paineis'),
      usuarios: await dataVersion(ctx.db, 'usuarios'),
    });
    let before = await v();
    const c = await classificacao(ctx.db, 'Nova');
    expect(await v()).toEqual({ paineis: before.paineis + 1, usuarios: before.usuarios });

    before = await v();
    await panel(ctx.db, { classificacaoId: c.id });
    expect((await v()).paineis).toBeGreaterThan(before.paineis);

    before = await v();
    await createUser(ctx.db);
    expect(await v()).toEqual({ paineis: before.paineis, usuarios: before.usuarios + 1 });

    before = await v();
    await ctx.db.execute(sql`truncate usuarios cascade`);
    expect((await v()).usuarios).toBeGreaterThan(before.usuarios);

    before = await v();
    await ctx.db.execute(sql`delete from classificacoes`);
    expect((await v()).paineis).toBeGreaterThan(before.paineis);
  });
});
