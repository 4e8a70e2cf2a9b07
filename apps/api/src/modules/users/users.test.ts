import { beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser } from '../../../test/fixtures.ts';
import type { DemoUser } from '../../demo/demo-data.ts';

const URL_ATIVOS = '/api/usuarios365/ativos';

describe('GET /api/usuarios365/ativos', () => {
  const ctx = useTestApp();
  let admin: DemoUser;
  let adminToken: string;

  beforeEach(async () => {
    admin = await createAdmin(ctx.db, {
      displayName: 'Marcos Admin',
      email: 'marcos@empresa.com.br',
      department: 'TI',
    });
    adminToken = await ctx.tokenFor(admin);
  });

  const asListed = (u: DemoUser) => ({
    id: u.id,
    displayName: u.displayName,
    email: u.email,
    department: u.department,
  });

  it('lists only active users, each exactly {id, displayName, email, department}, sorted by display name', async () => {
    const zeca = await createUser(ctx.db, {
      displayName: 'Zeca Pagodinho',
      email: 'zeca@empresa.com.br',
      department: 'Vendas',
    });
    const alvaro = await createUser(ctx.db, {
      displayName: 'Álvaro Dias',
      email: 'alvaro@empresa.com.br',
      department: null,
    });
    const bruna = await createUser(ctx.db, {
      displayName: 'bruna Costa',
      email: 'bruna@empresa.com.br',
      department: 'RH',
    });
    const erica = await createUser(ctx.db, {
      displayName: 'Érica Melo',
      email: 'erica@empresa.com.br',
      department: 'Financeiro',
    });
    const ana = await createUser(ctx.db, {
      displayName: 'Ana Lima',
      email: 'ana@empresa.com.br',
      department: 'Jurídico',
    });
    await createUser(ctx.db, { displayName: 'Carlos Desligado', email: 'carlos@empresa.com.br', active: false });
    await createUser(ctx.db, { displayName: 'Aaron Inativo', email: 'aaron@empresa.com.br', active: false });

    const res = await ctx.request('GET', URL_ATIVOS, { token: adminToken });
    expect(res.statusCode).toBe(200);
    const list = res.json<Record<string, unknown>[]>();
    for (const item of list) expect(Object.keys(item).sort()).toEqual(['department', 'displayName', 'email', 'id']);
    // pt-BR order: an accent or a lower-case initial does not send a name to the end.
    expect(list).toEqual([alvaro, ana, bruna, erica, admin, zeca].map(asListed));
    expect(list.find((u) => u.id === alvaro.id)?.department).toBeNull();
  });

  it('leaves out a user once deactivated', async () => {
    const ana = await createUser(ctx.db, { displayName: 'Ana Lima' });
    await createUser(ctx.db, { displayName: 'Bia Saiu', active: false });
    const res = await ctx.request('GET', URL_ATIVOS, { token: adminToken });
    expect(res.json().map((u: { id: string }) => u.id)).toEqual([ana.id, admin.id]);
  });

  it('answers 403 to a non-admin and 401 without a token', async () => {
    const user = await createUser(ctx.db, { displayName: 'Ana Lima' });
    const res = await ctx.request('GET', URL_ATIVOS, { token: await ctx.tokenFor(user) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Acesso restrito a administradores.' });

    const anonymous = await ctx.request('GET', URL_ATIVOS);
    expect(anonymous.statusCode).toBe(401);
  });
});
