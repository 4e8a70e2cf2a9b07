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

  /** Someone the list may show, with the three fields it answers besides the id. */
  const person = (displayName: string, email: string, department: string | null) =>
    createUser(ctx.db, { displayName, email, department });

  const asListed = (u: DemoUser) => ({
    id: u.id,
    displayName: u.displayName,
    email: u.email,
    department: u.department,
  });

  it('lists only active users, each exactly {id, displayName, email, department}, sorted by display name', async () => {
    const zeca = await person('Zeca Pagodinho', 'zeca@empresa.com.br', 'Vendas');
    const alvaro = await person('Álvaro Dias', 'alvaro@empresa.com.br', null);
    const bruna = await person('bruna Costa', 'bruna@empresa.com.br', 'RH');
    const erica = await person('Érica Melo', 'erica@empresa.com.br', 'Financeiro');
    const ana = await person('Ana Lima', 'ana@empresa.com.br', 'Jurídico');
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
