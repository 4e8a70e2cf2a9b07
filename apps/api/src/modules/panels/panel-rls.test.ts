import { beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser, panel } from '../../../test/fixtures.ts';
import { body as panelBody, storeLegacyRoles } from '../../../test/panel-helpers.ts';

const ADMIN_ONLY = 'Acesso restrito a administradores.';
const PANEL_NOT_FOUND = 'Painel não encontrado.';

interface RlsConfiguration {
  roleName: string;
  userEmails: string[];
  grupos?: string[];
}

describe('RLS de um painel', () => {
  const ctx = useTestApp();
  let adminToken: string;
  let userToken: string;
  let painelId: number;
  let base: string;

  beforeEach(async () => {
    adminToken = await ctx.tokenFor(await createAdmin(ctx.db));
    userToken = await ctx.tokenFor(await createUser(ctx.db));
    painelId = (await panel(ctx.db, { usaRls: true })).id;
    base = `/api/paineis/${painelId}/rls`;
  });

  const roleUrl = (role: string, id = painelId) => `/api/paineis/${id}/rls/roles/${encodeURIComponent(role)}/usuarios`;

  async function getRls(id = painelId): Promise<RlsConfiguration[]> {
    const res = await ctx.request('GET', `/api/paineis/${id}/rls`, { token: adminToken });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  async function roles(id = painelId): Promise<string[]> {
    const res = await ctx.request('GET', `/api/paineis/${id}/rls/roles`, { token: adminToken });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  const save = (body: unknown, token = adminToken, id = painelId) =>
    ctx.request('POST', `/api/paineis/${id}/rls`, { token, body });

  /** E-mail order within a role is not part of the contract; role order is. */
  const sortedEmails = (configs: RlsConfiguration[]) =>
    configs.map((c) => ({ roleName: c.roleName, userEmails: [...c.userEmails].sort(), grupos: c.grupos }));

  async function configure() {
    const res = await save([
      { roleName: 'Vendas', userEmails: ['ana@empresa.com.br', 'bruno@empresa.com.br'], grupos: [] },
      { roleName: 'Atacado', userEmails: ['carla@empresa.com.br'], grupos: [] },
    ]);
    expect(res.statusCode).toBe(200);
  }

  describe('GET/POST/DELETE /api/paineis/{id}/rls', () => {
    it('starts empty, then answers the roles in the order given, with their e-mails', async () => {
      expect(await getRls()).toEqual([]);

      const config = [
        { roleName: 'Vendas', userEmails: ['zeca@empresa.com.br', 'ana@empresa.com.br'], grupos: [] },
        { roleName: 'Atacado', userEmails: [], grupos: [] },
        { roleName: 'Diretoria', userEmails: ['dora@empresa.com.br'], grupos: [] },
      ];
      const res = await save(config);
      expect(res.statusCode).toBe(200);
      expect(sortedEmails(res.json())).toEqual(sortedEmails(config));
      expect(sortedEmails(await getRls())).toEqual(sortedEmails(config));
      expect(await roles()).toEqual(['Vendas', 'Atacado', 'Diretoria']);
    });

    it('replaces the whole configuration on every POST', async () => {
      await configure();
      const res = await save([{ roleName: 'Gerência', userEmails: ['dora@empresa.com.br'], grupos: [] }]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([{ roleName: 'Gerência', userEmails: ['dora@empresa.com.br'], grupos: [] }]);
      expect(await getRls()).toEqual([{ roleName: 'Gerência', userEmails: ['dora@empresa.com.br'], grupos: [] }]);
      expect((await ctx.request('GET', roleUrl('Vendas'), { token: adminToken })).statusCode).toBe(404);

      const cleared = await save([]);
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json()).toEqual([]);
      expect(await getRls()).toEqual([]);
    });

    it('lower-cases, trims and de-duplicates the e-mails of a role', async () => {
      const res = await save([
        {
          roleName: '  Vendas  ',
          userEmails: [' Ana@Empresa.com.br ', 'ana@empresa.com.br', 'ANA@EMPRESA.COM.BR', 'Bruno@Empresa.com.br'],
        },
        { roleName: 'Atacado', userEmails: ['ana@empresa.com.br'], grupos: [] },
      ]);
      expect(res.statusCode).toBe(200);
      const expected = [
        { roleName: 'Vendas', userEmails: ['ana@empresa.com.br', 'bruno@empresa.com.br'], grupos: [] },
        { roleName: 'Atacado', userEmails: ['ana@empresa.com.br'], grupos: [] },
      ];
      expect(sortedEmails(res.json())).toEqual(expected);
      expect(sortedEmails(await getRls())).toEqual(expected);
    });

    it('rejects an invalid e-mail with 400 naming it, and keeps the old configuration', async () => {
      await configure();
      const before = await getRls();
      const res = await save([
        { roleName: 'Vendas', userEmails: ['ana@empresa.com.br'], grupos: [] },
        { roleName: 'Outro', userEmails: ['dora@empresa.com.br', 'fulano.empresa.com.br'], grupos: [] },
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('fulano.empresa.com.br');
      expect(await getRls()).toEqual(before);
    });

    it('rejects a blank or missing role name with 400, keeping the old configuration', async () => {
      await configure();
      const before = await getRls();
      for (const body of [
        [{ roleName: '   ', userEmails: [], grupos: [] }],
        [{ userEmails: ['ana@empresa.com.br'], grupos: [] }],
      ]) {
        const res = await save(body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: 'Nome do papel RLS (roleName) é obrigatório.' });
      }
      expect(await getRls()).toEqual(before);
    });

    it('rejects the same role twice (ignoring case and spaces) with 400, keeping the old configuration', async () => {
      await configure();
      const before = await getRls();
      const res = await save([
        { roleName: 'Gerência', userEmails: ['ana@empresa.com.br'], grupos: [] },
        { roleName: ' gerência ', userEmails: ['bruno@empresa.com.br'], grupos: [] },
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/gerência/i);
      expect(await getRls()).toEqual(before);
    });

    it('rejects a body that is not a list of roles, keeping the old configuration', async () => {
      await configure();
      const before = await getRls();
      for (const body of [
        { roleName: 'Vendas', userEmails: [], grupos: [] },
        [{ roleName: 'Vendas', userEmails: 'ana@empresa.com.br' }],
      ]) {
        const res = await save(body);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toEqual(expect.any(String));
      }
      expect(await getRls()).toEqual(before);
    });

    it('DELETE removes every role (204), only of that panel', async () => {
      await configure();
      const other = (await panel(ctx.db)).id;
      expect(
        (await save([{ roleName: 'Outro', userEmails: ['ana@empresa.com.br'], grupos: [] }], adminToken, other))
          .statusCode,
      ).toBe(200);

      const res = await ctx.request('DELETE', base, { token: adminToken });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(await getRls()).toEqual([]);
      expect(await roles()).toEqual([]);
      expect(await getRls(other)).toEqual([{ roleName: 'Outro', userEmails: ['ana@empresa.com.br'], grupos: [] }]);
    });
  });

  describe('roles and their users', () => {
    it('GET /rls/roles answers the role names in order', async () => {
      expect(await roles()).toEqual([]);
      await configure();
      expect(await roles()).toEqual(['Vendas', 'Atacado']);
    });

    it("GET /rls/roles/{role}/usuarios answers the role's e-mails, 404 for an unknown role", async () => {
      await configure();
      const res = await ctx.request('GET', roleUrl('Vendas'), { token: adminToken });
      expect(res.statusCode).toBe(200);
      expect([...res.json<string[]>()].sort()).toEqual(['ana@empresa.com.br', 'bruno@empresa.com.br']);

      const atacado = await ctx.request('GET', roleUrl('Atacado'), { token: adminToken });
      expect(atacado.json()).toEqual(['carla@empresa.com.br']);

      // Role names are compared as Power BI does, ignoring case.
      const lower = await ctx.request('GET', roleUrl('atacado'), { token: adminToken });
      expect(lower.statusCode).toBe(200);
      expect(lower.json()).toEqual(['carla@empresa.com.br']);

      const unknown = await ctx.request('GET', roleUrl('Inexistente'), { token: adminToken });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toContain('Inexistente');
    });

    it("POST /rls/roles/{role}/usuarios replaces that role's e-mails and leaves the others", async () => {
      await configure();
      const res = await ctx.request('POST', roleUrl('Vendas'), {
        token: adminToken,
        body: [' Dora@Empresa.com.br ', 'dora@empresa.com.br', 'eva@empresa.com.br'],
      });
      expect(res.statusCode).toBe(200);
      expect([...res.json<string[]>()].sort()).toEqual(['dora@empresa.com.br', 'eva@empresa.com.br']);

      expect(sortedEmails(await getRls())).toEqual([
        { roleName: 'Vendas', userEmails: ['dora@empresa.com.br', 'eva@empresa.com.br'], grupos: [] },
        { roleName: 'Atacado', userEmails: ['carla@empresa.com.br'], grupos: [] },
      ]);

      const emptied = await ctx.request('POST', roleUrl('Atacado'), { token: adminToken, body: [] });
      expect(emptied.statusCode).toBe(200);
      expect(emptied.json()).toEqual([]);
      expect(await roles()).toEqual(['Vendas', 'Atacado']);
    });

    it('POST /rls/roles/{role}/usuarios creates a missing role, last', async () => {
      await configure();
      const res = await ctx.request('POST', roleUrl('Novo'), { token: adminToken, body: ['fabio@empresa.com.br'] });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(['fabio@empresa.com.br']);
      expect(await roles()).toEqual(['Vendas', 'Atacado', 'Novo']);
      expect((await getRls()).at(-1)).toEqual({ roleName: 'Novo', userEmails: ['fabio@empresa.com.br'], grupos: [] });

      // On a panel with no role yet, it becomes the only one.
      const other = (await panel(ctx.db)).id;
      const first = await ctx.request('POST', roleUrl('Primeiro', other), { token: adminToken, body: [] });
      expect(first.statusCode).toBe(200);
      expect(await roles(other)).toEqual(['Primeiro']);
    });

    it('POST /rls/roles/{role}/usuarios rejects an invalid e-mail or a non-list with 400, changing nothing', async () => {
      await configure();
      const before = await getRls();
      const bad = await ctx.request('POST', roleUrl('Vendas'), {
        token: adminToken,
        body: ['dora@empresa.com.br', 'sem-arroba'],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('sem-arroba');

      const notList = await ctx.request('POST', roleUrl('Vendas'), { token: adminToken, body: { emails: [] } });
      expect(notList.statusCode).toBe(400);

      const newRole = await ctx.request('POST', roleUrl('Novo'), { token: adminToken, body: ['x'] });
      expect(newRole.statusCode).toBe(400);
      expect(await getRls()).toEqual(before);
    });

    it('takes URL-encoded role names with spaces and accents', async () => {
      const saved = await save([{ roleName: 'Gerente Regional', userEmails: ['ana@empresa.com.br'], grupos: [] }]);
      expect(saved.statusCode).toBe(200);

      const gerente = await ctx.request('GET', roleUrl('Gerente Regional'), { token: adminToken });
      expect(gerente.statusCode).toBe(200);
      expect(gerente.json()).toEqual(['ana@empresa.com.br']);

      const created = await ctx.request('POST', roleUrl('Diretoria Região Sul'), {
        token: adminToken,
        body: ['Joao@Empresa.com.br', 'maria@empresa.com.br'],
      });
      expect(created.statusCode).toBe(200);
      expect(await roles()).toEqual(['Gerente Regional', 'Diretoria Região Sul']);

      const diretoria = await ctx.request('GET', roleUrl('Diretoria Região Sul'), { token: adminToken });
      expect(diretoria.statusCode).toBe(200);
      expect([...diretoria.json<string[]>()].sort()).toEqual(['joao@empresa.com.br', 'maria@empresa.com.br']);

      const replaced = await ctx.request('POST', roleUrl('Gerente Regional'), {
        token: adminToken,
        body: ['bruno@empresa.com.br'],
      });
      expect(replaced.statusCode).toBe(200);
      expect(sortedEmails(await getRls())).toEqual([
        { roleName: 'Gerente Regional', userEmails: ['bruno@empresa.com.br'], grupos: [] },
        { roleName: 'Diretoria Região Sul', userEmails: ['joao@empresa.com.br', 'maria@empresa.com.br'], grupos: [] },
      ]);

      // Characters that mean something in a URL travel encoded too.
      for (const role of ['Norte/Nordeste', 'Meta 100%', 'P&D #1?']) {
        const posted = await ctx.request('POST', roleUrl(role), { token: adminToken, body: ['ana@empresa.com.br'] });
        expect(posted.statusCode).toBe(200);
        const read = await ctx.request('GET', roleUrl(role), { token: adminToken });
        expect(read.statusCode).toBe(200);
        expect(read.json()).toEqual(['ana@empresa.com.br']);
      }
      expect(await roles()).toEqual([
        'Gerente Regional',
        'Diretoria Região Sul',
        'Norte/Nordeste',
        'Meta 100%',
        'P&D #1?',
      ]);
    });
  });

  describe("Power BI's limits on roles (docs/decisions/014)", () => {
    const TOO_MANY = (n: number) =>
      `A configuração RLS tem ${n} papéis; são aceitos no máximo 50, o limite do Power BI para uma identidade.`;
    const TOO_LONG = (name: string) =>
      `O nome do papel RLS (roleName) '${name}' tem ${name.length} caracteres; o Power BI aceita no máximo 50.`;
    const COMMA = (name: string) =>
      `O nome do papel RLS (roleName) '${name}' contém vírgula, que o Power BI não aceita em nomes de papéis.`;
    const named = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        roleName: `Papel ${i + 1}`,
        userEmails: ['ana@empresa.com.br'],
        grupos: [],
      }));
    const LONG = `Diretoria Regional ${'x'.repeat(32)}`; // 51 characters

    it('POST /rls takes 50 roles of 50 characters, and refuses a 51st role, a longer name or a comma', async () => {
      const fifty = named(50).map((r, i) => (i === 0 ? { ...r, roleName: LONG.slice(0, 50) } : r));
      expect((await save(fifty)).statusCode).toBe(200);
      const before = await getRls();
      expect(before).toHaveLength(50);
      for (const [sent, message] of [
        [named(51), `Corpo da requisição: ${TOO_MANY(51)}`],
        [[{ roleName: LONG, userEmails: [], grupos: [] }], TOO_LONG(LONG)],
        [[{ roleName: 'Norte,Sul', userEmails: [], grupos: [] }], COMMA('Norte,Sul')],
      ] as const) {
        const res = await save(sent);
        expect([res.statusCode, res.json()]).toEqual([400, { message }]);
      }
      expect(await getRls()).toEqual(before);
    });

    it('POST /rls/roles/{role}/usuarios refuses to create a 51st role, a longer name or a comma', async () => {
      expect((await save(named(50))).statusCode).toBe(200);
      const cases: [string, string][] = [
        ['Papel 51', TOO_MANY(51)],
        [LONG, TOO_LONG(LONG)],
        ['Norte,Sul', COMMA('Norte,Sul')],
      ];
      for (const [role, message] of cases) {
        const res = await ctx.request('POST', roleUrl(role), { token: adminToken, body: ['bia@empresa.com.br'] });
        expect([role, res.statusCode, res.json()]).toEqual([role, 400, { message }]);
      }
      // A role the panel has is still written (the panel stays at 50).
      const kept = await ctx.request('POST', roleUrl('papel 50'), { token: adminToken, body: ['bia@empresa.com.br'] });
      expect(kept.statusCode).toBe(200);
      expect(await roles()).toEqual(named(50).map((r) => r.roleName));
    });

    it('POST and PUT /paineis refuse rlsConfigurations over the limits, saving nothing', async () => {
      const created = await ctx.request('POST', '/api/paineis', {
        token: adminToken,
        body: panelBody({ usaRls: true, rlsConfigurations: named(51) }),
      });
      expect([created.statusCode, created.json()]).toEqual([
        400,
        { message: `Campo 'rlsConfigurations': ${TOO_MANY(51)}` },
      ]);
      const updated = await ctx.request('PUT', `/api/paineis/${painelId}`, {
        token: adminToken,
        body: panelBody({ usaRls: true, rlsConfigurations: [{ roleName: 'Norte, Sul', userEmails: [], grupos: [] }] }),
      });
      expect([updated.statusCode, updated.json()]).toEqual([400, { message: COMMA('Norte, Sul') }]);
      const long = await ctx.request('PUT', `/api/paineis/${painelId}`, {
        token: adminToken,
        body: panelBody({ usaRls: true, rlsConfigurations: [{ roleName: LONG, userEmails: [], grupos: [] }] }),
      });
      expect([long.statusCode, long.json()]).toEqual([400, { message: TOO_LONG(LONG) }]);
      expect(await getRls()).toEqual([]);
    });

    it('keeps a configuration stored before the limits, readable, and refuses writes that would leave it over them', async () => {
      const legacy = [...named(55), { roleName: 'Norte,Sul', userEmails: ['bia@empresa.com.br'], grupos: [] }];
      await storeLegacyRoles(ctx, painelId, legacy);
      expect(await getRls()).toHaveLength(56);
      const read = await ctx.request('GET', roleUrl('Norte,Sul'), { token: adminToken });
      expect([read.statusCode, read.json()]).toEqual([200, ['bia@empresa.com.br']]);

      // Every problem, so the administrator knows what to remove.
      const message = `${TOO_MANY(56)} ${COMMA('Norte,Sul')}`;
      const written = await ctx.request('POST', roleUrl('Papel 1'), { token: adminToken, body: [] });
      expect([written.statusCode, written.json()]).toEqual([400, { message }]);
      expect(await getRls()).toHaveLength(56);

      // Replacing the whole configuration with one within the limits fixes it.
      const fixed = await save(named(50));
      expect(fixed.statusCode).toBe(200);
      expect(await roles()).toEqual(named(50).map((r) => r.roleName));
    });

    it('names each panel over the limits in a warning at start, and starts all the same', async () => {
      await storeLegacyRoles(ctx, painelId, [{ roleName: 'Norte,Sul' }, { roleName: 'y'.repeat(80) }]);
      const crowded = (await panel(ctx.db, { nomePainel: 'Lotado', usaRls: true })).id;
      await storeLegacyRoles(ctx, crowded, named(51));
      await panel(ctx.db, { nomePainel: 'Em ordem', usaRls: true, rlsConfigurations: named(50) });

      const lines: Record<string, unknown>[] = [];
      const app = await buildApp({
        config: ctx.config,
        database: ctx.database,
        ownsDatabase: false,
        logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
      });
      await app.ready();
      await app.close();
      const warnings = lines.filter((line) => line.level === 40 && line.painelId !== undefined);
      const first = [
        COMMA('Norte,Sul'),
        `O nome do papel RLS (roleName) '${'y'.repeat(60)}…' tem 80 caracteres; o Power BI aceita no máximo 50.`,
      ];
      expect(
        warnings.map(({ painelId, nomePainel, problemas, msg }) => ({ painelId, nomePainel, problemas, msg })),
      ).toEqual([
        {
          painelId,
          nomePainel: expect.any(String),
          problemas: first,
          msg: expect.stringMatching(
            new RegExp(`^A configuração RLS do painel ${painelId} \\('Painel \\d+'\\) passa dos limites do Power BI: `),
          ),
        },
        {
          painelId: crowded,
          nomePainel: 'Lotado',
          problemas: [TOO_MANY(51)],
          msg: `A configuração RLS do painel ${crowded} ('Lotado') passa dos limites do Power BI: ${TOO_MANY(51)}`,
        },
      ]);
    });
  });

  describe('unknown panels and non-admins', () => {
    it('answers 404 on every RLS route for an unknown panel, creating nothing', async () => {
      const missing = painelId + 1000;
      const calls = [
        ctx.request('GET', `/api/paineis/${missing}/rls`, { token: adminToken }),
        ctx.request('POST', `/api/paineis/${missing}/rls`, {
          token: adminToken,
          body: [{ roleName: 'Vendas', userEmails: ['ana@empresa.com.br'], grupos: [] }],
        }),
        ctx.request('DELETE', `/api/paineis/${missing}/rls`, { token: adminToken }),
        ctx.request('GET', `/api/paineis/${missing}/rls/roles`, { token: adminToken }),
        ctx.request('GET', roleUrl('Vendas', missing), { token: adminToken }),
        ctx.request('POST', roleUrl('Vendas', missing), { token: adminToken, body: ['ana@empresa.com.br'] }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: PANEL_NOT_FOUND });
      }
      expect(await getRls()).toEqual([]);

      const bad = await ctx.request('GET', '/api/paineis/abc/rls', { token: adminToken });
      expect(bad.statusCode).toBe(400);
    });

    it('answers 403 to a non-admin on every RLS route and changes nothing', async () => {
      await configure();
      const before = await getRls();
      const calls = [
        ctx.request('GET', base, { token: userToken }),
        ctx.request('POST', base, {
          token: userToken,
          body: [{ roleName: 'Invasor', userEmails: ['x@empresa.com.br'], grupos: [] }],
        }),
        ctx.request('DELETE', base, { token: userToken }),
        ctx.request('GET', `${base}/roles`, { token: userToken }),
        ctx.request('GET', roleUrl('Vendas'), { token: userToken }),
        ctx.request('POST', roleUrl('Vendas'), { token: userToken, body: ['x@empresa.com.br'] }),
        ctx.request('POST', roleUrl('Nova'), { token: userToken, body: ['x@empresa.com.br'] }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: ADMIN_ONLY });
      }
      expect(await getRls()).toEqual(before);
    });
  });
});
