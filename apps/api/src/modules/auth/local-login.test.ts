import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { testConfig, useTestApp } from '../../../test/context.ts';
import { createUser, link, localAccount, panel } from '../../../test/fixtures.ts';
import { rows } from '../../db/client.ts';
import { ensureLocalAccounts } from './bootstrap-accounts.ts';
import { purgeExpiredRevocations } from './revocations.repository.ts';

const ADDRESS_A = {}; // inject always comes from 127.0.0.1, so every request here shares one address

describe('POST /api/auth/login', () => {
  const ctx = useTestApp();

  async function account(username = 'maria.souza', password = 'senha-forte-1', role: 'Admin' | 'User' = 'User') {
    await localAccount(ctx.db, username, password, { role, displayName: 'Maria Souza' });
    return { username, password, id: `local:${username}` };
  }
  const login = (body: unknown) => ctx.request('POST', '/api/auth/login', { body, headers: ADDRESS_A });

  it('answers a token and the user for the right password, and the token opens the API', async () => {
    const a = await account();
    const p = await panel(ctx.db, { nomePainel: 'Vendas' });
    await link(ctx.db, p.id, [a.id]);
    const res = await login({ username: 'maria.souza', password: 'senha-forte-1' });
    expect(res.statusCode).toBe(200);
    const { token, user } = res.json<{ token: string; user: unknown }>();
    expect(user).toEqual({
      id: a.id,
      username: 'maria.souza',
      displayName: 'Maria Souza',
      email: 'maria.souza@empresa.com.br',
      role: 'User',
    });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      sub: a.id,
      name: 'maria.souza',
      email: 'maria.souza@empresa.com.br',
      role: 'User',
      displayName: 'Maria Souza',
      iss: ctx.config.jwt.issuer,
      aud: ctx.config.jwt.audience,
    });
    expect(claims.jti).toEqual(expect.any(String));
    expect(claims.exp! - claims.iat!).toBe(ctx.config.jwt.ttlSeconds);
    const panels = await ctx.request('GET', '/api/paineis', { token });
    expect(panels.json()).toMatchObject([{ nomePainel: 'Vendas' }]);
  });

  it('finds the username whatever its case and surrounding spaces', async () => {
    await account('Joao.Lima', 'outra-senha');
    expect((await login({ username: '  joao.lima ', password: 'outra-senha' })).statusCode).toBe(200);
  });

  it.each([
    ['a wrong password', { username: 'maria.souza', password: 'errada' }],
    ['an unknown username', { username: 'ninguem', password: 'senha-forte-1' }],
    ['the password of another account', { username: 'maria.souza', password: 'senha-do-outro' }],
  ])('refuses %s with one message that does not say which part was wrong', async (_, body) => {
    await account();
    await account('outro', 'senha-do-outro');
    const res = await login(body);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Usuário ou senha inválidos.' });
  });

  it('refuses an inactive user even with the right password', async () => {
    const a = await account();
    await ctx.db.execute(sql`update usuarios set active = false where id = ${a.id}`);
    const res = await login({ username: a.username, password: a.password });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Usuário ou senha inválidos.' });
  });

  it.each([
    [{}, 'Usuário (username) é obrigatório.'],
    [{ username: 'x' }, 'Senha (password) é obrigatória.'],
    [{ username: '   ', password: 'x' }, 'Usuário (username) é obrigatório.'],
  ])('answers 400 naming the missing field for %j', async (body, message) => {
    const res = await login(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message });
  });
  // Throttling: login-throttling.test.ts.
});

describe('POST /api/auth/logout-complete', () => {
  const ctx = useTestApp();

  it('revokes the token on every instance until it expires; the user’s other sessions go on', async () => {
    const user = await createUser(ctx.db);
    const token = await ctx.tokenFor(user);
    const other = await ctx.tokenFor(user);
    expect((await ctx.request('GET', '/api/paineis', { token })).statusCode).toBe(200);

    const res = await ctx.request('POST', '/api/auth/logout-complete', { token });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    const after = await ctx.request('GET', '/api/paineis', { token });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: 'Sessão inválida ou expirada. Faça login novamente.' });
    expect((await ctx.request('GET', '/api/paineis', { token: other })).statusCode).toBe(200);

    const [row] = await rows<{ expira_em: Date }>(ctx.db, sql`select expira_em from tokens_revogados`);
    const exp = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp;
    expect(new Date(row!.expira_em).getTime()).toBe(exp * 1000);
  });

  it('answers 204 without a token, with a broken one and twice for the same token', async () => {
    const user = await createUser(ctx.db);
    const token = await ctx.tokenFor(user);
    expect((await ctx.request('POST', '/api/auth/logout-complete')).statusCode).toBe(204);
    expect((await ctx.request('POST', '/api/auth/logout-complete', { token: 'nao.e.token' })).statusCode).toBe(204);
    expect((await ctx.request('POST', '/api/auth/logout-complete', { token })).statusCode).toBe(204);
    expect((await ctx.request('POST', '/api/auth/logout-complete', { token })).statusCode).toBe(204);
    expect(await rows(ctx.db, sql`select jti from tokens_revogados`)).toHaveLength(1);
  });

  it('purges revocations once the tokens would have expired anyway', async () => {
    const user = await createUser(ctx.db);
    await ctx.request('POST', '/api/auth/logout-complete', { token: await ctx.tokenFor(user) });
    await ctx.request('POST', '/api/auth/logout-complete', { token: await ctx.tokenFor(user) });
    await ctx.db.execute(
      sql`update tokens_revogados set expira_em = now() - interval '1 second' where jti in (select jti from tokens_revogados limit 1)`,
    );
    await purgeExpiredRevocations(ctx.db);
    expect(await rows(ctx.db, sql`select jti from tokens_revogados`)).toHaveLength(1);
  });
});

describe('local accounts created at start', () => {
  const ctx = useTestApp();

  it('creates the bootstrap admin, and a later start with a new password replaces the old one', async () => {
    const config = testConfig({ PORTAL_ADMIN_USERNAME: 'admin.ti', PORTAL_ADMIN_PASSWORD: 'primeira-senha' });
    expect(await ensureLocalAccounts(ctx.db, config)).toEqual(['admin.ti']);
    const first = await ctx.request('POST', '/api/auth/login', {
      body: { username: 'admin.ti', password: 'primeira-senha' },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      user: { username: 'admin.ti', role: 'Admin', email: 'admin.ti@paineis.local' },
    });

    await ensureLocalAccounts(
      ctx.db,
      testConfig({ PORTAL_ADMIN_USERNAME: 'admin.ti', PORTAL_ADMIN_PASSWORD: 'segunda-senha' }),
    );
    expect(
      (await ctx.request('POST', '/api/auth/login', { body: { username: 'admin.ti', password: 'primeira-senha' } }))
        .statusCode,
    ).toBe(401);
    const second = await ctx.request('POST', '/api/auth/login', {
      body: { username: 'admin.ti', password: 'segunda-senha' },
    });
    expect(second.statusCode).toBe(200);
    // Still one user and one account.
    expect(await rows(ctx.db, sql`select usuario_id from contas_locais`)).toEqual([{ usuario_id: 'local:admin.ti' }]);
    // The admin can administer.
    const token = second.json<{ token: string }>().token;
    expect((await ctx.request('GET', '/api/classificacoes/admin', { token })).statusCode).toBe(200);
  });

  it('stores passwords as argon2id hashes, never as given', async () => {
    await ensureLocalAccounts(
      ctx.db,
      testConfig({ PORTAL_ADMIN_USERNAME: 'admin.ti', PORTAL_ADMIN_PASSWORD: 'primeira-senha' }),
    );
    const [row] = await rows<{ senha_hash: string }>(ctx.db, sql`select senha_hash from contas_locais`);
    expect(row!.senha_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row!.senha_hash).not.toContain('primeira-senha');
  });

  // Outside demo mode they are taken away, and never come back: accounts-at-start.test.ts.
  it('creates demo.admin and demo.usuario with the password "demo" in demo mode', async () => {
    const demo = testConfig({ DEMO_MODE: 'true' });
    expect(await ensureLocalAccounts(ctx.db, demo)).toEqual(['demo.admin', 'demo.usuario']);
    const admin = await ctx.request('POST', '/api/auth/login', { body: { username: 'demo.admin', password: 'demo' } });
    expect(admin.json()).toMatchObject({ user: { id: 'demo-admin', role: 'Admin' } });
    const user = await ctx.request('POST', '/api/auth/login', { body: { username: 'demo.usuario', password: 'demo' } });
    expect(user.json()).toMatchObject({ user: { id: 'demo-usuario', role: 'User' } });
  });
});
