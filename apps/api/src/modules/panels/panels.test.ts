import { sql, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Painel } from '@paineis/contract/panels';
import { useTestApp, type TestContext } from '../../../test/context.ts';
import { classificacao, createUser, link, panel, panelsAtOrdens } from '../../../test/fixtures.ts';
import { rows } from '../../db/client.ts';
import { ADMIN_ONLY } from '../../plugins/auth.ts';
import {
  body,
  count,
  ids,
  ISO,
  NOT_FOUND,
  newPanelAnswer,
  REPORT,
  seed,
  signIn,
  WORKSPACE,
} from '../../../test/panel-helpers.ts';

/** Everything a panels request could change, read straight from the tables. */
async function snapshot(ctx: TestContext) {
  type Row = Record<string, unknown>;
  return {
    paineis: await rows<Row>(
      ctx.db,
      sql`
      select id, nome_painel, workspace_id, report_id, usa_rls, classificacao_id, ordem, data_cadastro, data_atualizacao
      from paineis order by id`,
    ),
    roles: await rows<Row>(ctx.db, sql`select id, painel_id, role_name, posicao from painel_rls_roles order by id`),
    emails: await rows<Row>(ctx.db, sql`select role_id, email from painel_rls_role_emails order by role_id, email`),
    links: await rows<Row>(
      ctx.db,
      sql`select painel_id, usuario_id from painel_usuarios order by painel_id, usuario_id`,
    ),
    classificacoes: await rows<Row>(ctx.db, sql`select id, nome from classificacoes order by id`),
  };
}

async function ordens(ctx: TestContext) {
  const found = await rows<{ id: number; ordem: number }>(ctx.db, sql`select id, ordem from paineis order by id`);
  return Object.fromEntries(found.map((r) => [r.id, r.ordem]));
}

/** With one panel stored, an admin asks `url` about panel 999, which does not exist: 404. */
async function expectUnknownPanel(ctx: TestContext, url: string) {
  await panel(ctx.db);
  const { token } = await signIn(ctx, 'Admin');
  const res = await ctx.request('GET', url, { token });
  expect(res.statusCode).toBe(404);
  expect(res.json()).toEqual(NOT_FOUND);
}

/** The seeded organisation, an admin's token, and a check that no table has changed since. */
async function seededForAdmin(ctx: TestContext) {
  const s = await seed(ctx);
  const before = await snapshot(ctx);
  const { token } = await signIn(ctx, 'Admin');
  return { s, token, expectUnchanged: async () => expect(await snapshot(ctx)).toEqual(before) };
}

describe('panels', () => {
  const ctx = useTestApp();

  describe('GET /api/paineis/{id}/dados', () => {
    it('returns the panel with its RLS roles in the order given, e-mails sorted', async () => {
      const s = await seed(ctx);
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('GET', `/api/paineis/${s.regional.id}/dados`, { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: s.regional.id,
        nomePainel: 'Regional',
        workspaceId: s.regional.workspaceId,
        reportId: s.regional.reportId,
        usaRls: true,
        permiteExportacao: true,
        idioma: null,
        permiteExportarDados: true,
        classificacaoId: s.vendas.id,
        classificacaoNome: 'Vendas',
        ordem: 3,
        dataCadastro: expect.stringMatching(ISO),
        dataAtualizacao: null,
        rlsConfigurations: [
          { roleName: 'Sul', userEmails: ['a@empresa.com.br', 'b@empresa.com.br'], grupos: [] },
          { roleName: 'Norte', userEmails: ['c@empresa.com.br'], grupos: [] },
        ],
      });
    });

    it('returns an empty role list and Sem Classificação for a plain unclassified panel', async () => {
      const p = await panel(ctx.db);
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('GET', `/api/paineis/${p.id}/dados`, { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: p.id,
        classificacaoId: 0,
        classificacaoNome: 'Sem Classificação',
        usaRls: false,
        rlsConfigurations: [],
      });
    });

    it('answers 404 for an unknown panel', async () => {
      await expectUnknownPanel(ctx, '/api/paineis/999/dados');
    });
  });

  describe('GET /api/paineis/{id}/configuracoes', () => {
    it('returns the report, the RLS roles and the linked users (by name)', async () => {
      const s = await seed(ctx);
      const zeca = await createUser(ctx.db, { id: 'zeca', displayName: 'Zeca Silva', email: 'zeca@empresa.com.br' });
      const ana = await createUser(ctx.db, { id: 'ana', displayName: 'Ana Souza', email: 'ana@empresa.com.br' });
      await createUser(ctx.db, { id: 'bia', displayName: 'Bia Lima' }); // not linked
      await link(ctx.db, s.regional.id, [zeca.id, ana.id]);
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('GET', `/api/paineis/${s.regional.id}/configuracoes`, { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        painelId: s.regional.id,
        nomePainel: 'Regional',
        workspaceId: s.regional.workspaceId,
        reportId: s.regional.reportId,
        usaRls: true,
        rlsConfigurations: [
          { roleName: 'Sul', userEmails: ['a@empresa.com.br', 'b@empresa.com.br'], grupos: [] },
          { roleName: 'Norte', userEmails: ['c@empresa.com.br'], grupos: [] },
        ],
        usuariosVinculados: [
          { id: 'ana', email: 'ana@empresa.com.br', displayName: 'Ana Souza' },
          { id: 'zeca', email: 'zeca@empresa.com.br', displayName: 'Zeca Silva' },
        ],
      });
    });

    it('returns empty lists for a panel without roles or links', async () => {
      const p = await panel(ctx.db, { nomePainel: 'Simples' });
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('GET', `/api/paineis/${p.id}/configuracoes`, { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        painelId: p.id,
        nomePainel: 'Simples',
        workspaceId: p.workspaceId,
        reportId: p.reportId,
        usaRls: false,
        rlsConfigurations: [],
        usuariosVinculados: [],
      });
    });

    it('answers 404 for an unknown panel', async () => {
      await expectUnknownPanel(ctx, '/api/paineis/999/configuracoes');
    });
  });

  describe('POST /api/paineis', () => {
    it('creates the panel and answers 201 with it', async () => {
      const vendas = await classificacao(ctx.db, 'Vendas');
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('POST', '/api/paineis', {
        token,
        body: body({ usaRls: true, classificacaoId: vendas.id, ordem: 7 }),
      });
      expect(res.statusCode).toBe(201);
      const created = res.json<Painel>();
      expect(created).toEqual(
        newPanelAnswer({
          id: expect.any(Number),
          nomePainel: 'Painel de Vendas',
          usaRls: true,
          classificacaoId: vendas.id,
          classificacaoNome: 'Vendas',
          ordem: 7,
        }),
      );
      expect(Math.abs(Date.parse(created.dataCadastro) - Date.now())).toBeLessThan(60_000);
      const read = await ctx.request('GET', `/api/paineis/${created.id}/dados`, { token });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual({ ...created, rlsConfigurations: [] });
      expect(await count(ctx, 'paineis')).toBe(1);
    });

    it('defaults usaRls to false and, without ordem, puts the panel last in its own classification', async () => {
      const { vendas } = await panelsAtOrdens(ctx.db, { vendas: [5, 2], compras: [40], none: [12] });
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('POST', '/api/paineis', {
        token,
        body: { nomePainel: 'Novo', workspaceId: WORKSPACE, reportId: REPORT, classificacaoId: vendas.id },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ usaRls: false, classificacaoId: vendas.id, ordem: 6 });
      const first = await ctx.request('POST', '/api/paineis', {
        token,
        body: body({ classificacaoId: (await classificacao(ctx.db, 'Nova')).id }),
      });
      expect(first.statusCode).toBe(201);
      expect(first.json().ordem).toBe(1);
    });

    it.each([
      ['null', { classificacaoId: null }],
      ['0', { classificacaoId: 0 }],
      ['omitted', {}],
    ])('treats classificacaoId %s as no classification, last among the unclassified', async (_label, extra) => {
      const vendas = await classificacao(ctx.db, 'Vendas');
      await panel(ctx.db, { classificacaoId: vendas.id, ordem: 30 });
      await panel(ctx.db, { ordem: 3 });
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('POST', '/api/paineis', { token, body: body(extra) });
      expect(res.statusCode).toBe(201);
      const created = res.json<Painel>();
      expect(created).toMatchObject({ classificacaoId: 0, classificacaoNome: 'Sem Classificação', ordem: 4 });
      const [stored] = await rows<{ classificacao_id: number | null }>(
        ctx.db,
        sql`select classificacao_id from paineis where id = ${created.id}`,
      );
      expect(stored).toEqual({ classificacao_id: null });
    });

    it('trims the name and the ids and lower-cases the GUIDs', async () => {
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('POST', '/api/paineis', {
        token,
        body: body({
          nomePainel: '   Painel com espaços  ',
          workspaceId: ` ${WORKSPACE.toUpperCase()} `,
          reportId: REPORT.toUpperCase(),
        }),
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ nomePainel: 'Painel com espaços', workspaceId: WORKSPACE, reportId: REPORT });
      const stored = await rows(ctx.db, sql`select nome_painel, workspace_id, report_id from paineis`);
      expect(stored).toEqual([{ nome_painel: 'Painel com espaços', workspace_id: WORKSPACE, report_id: REPORT }]);
    });

    it('accepts a name of exactly 200 characters', async () => {
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('POST', '/api/paineis', { token, body: body({ nomePainel: 'x'.repeat(200) }) });
      expect(res.statusCode).toBe(201);
      expect(res.json().nomePainel).toBe('x'.repeat(200));
    });

    it('applies rlsConfigurations: roles trimmed, e-mails trimmed, lower-cased and without duplicates', async () => {
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('POST', '/api/paineis', {
        token,
        body: body({
          usaRls: true,
          rlsConfigurations: [
            {
              roleName: '  Gerentes ',
              userEmails: [' Maria@Empresa.com.br', 'joao@empresa.com.br', 'maria@empresa.com.br'],
            },
            { roleName: 'Diretoria', userEmails: [], grupos: [] },
          ],
        }),
      });
      expect(res.statusCode).toBe(201);
      const created = res.json<Painel>();
      const read = await ctx.request('GET', `/api/paineis/${created.id}/dados`, { token });
      expect(read.json().rlsConfigurations).toEqual([
        { roleName: 'Gerentes', userEmails: ['joao@empresa.com.br', 'maria@empresa.com.br'], grupos: [] },
        { roleName: 'Diretoria', userEmails: [], grupos: [] },
      ]);
      expect(await count(ctx, 'painel_rls_roles')).toBe(2);
      expect(await count(ctx, 'painel_rls_role_emails')).toBe(2);
    });

    const invalid: Array<[string, Record<string, unknown> | undefined, string]> = [
      ['nomePainel missing', body({ nomePainel: undefined }), 'Nome do painel (nomePainel) é obrigatório.'],
      ['nomePainel blank', body({ nomePainel: '    ' }), 'Nome do painel (nomePainel) é obrigatório.'],
      ['nomePainel not a text', body({ nomePainel: 42 }), 'Nome do painel (nomePainel) é obrigatório.'],
      [
        'nomePainel over 200 characters',
        body({ nomePainel: 'x'.repeat(201) }),
        'Nome do painel (nomePainel) deve ter no máximo 200 caracteres.',
      ],
      ['workspaceId missing', body({ workspaceId: undefined }), 'ID do workspace (workspaceId) é obrigatório.'],
      ['workspaceId blank', body({ workspaceId: ' ' }), 'ID do workspace (workspaceId) é obrigatório.'],
      ['reportId missing', body({ reportId: undefined }), 'ID do relatório (reportId) é obrigatório.'],
      [
        'workspaceId not a GUID',
        body({ workspaceId: 'meu-workspace' }),
        'ID do workspace (workspaceId) deve ser um GUID, como 00000000-0000-0000-0000-000000000000.',
      ],
      [
        'reportId not a GUID',
        body({ reportId: '12345678-90ab-4cde-8f01-234567890ab' }),
        'ID do relatório (reportId) deve ser um GUID, como 00000000-0000-0000-0000-000000000000.',
      ],
      ['usaRls not a boolean', body({ usaRls: 'sim' }), 'Usa RLS (usaRls) deve ser verdadeiro ou falso.'],
      ['ordem 0', body({ ordem: 0 }), 'Ordem (ordem) deve ser maior ou igual a 1.'],
      ['ordem negative', body({ ordem: -3 }), 'Ordem (ordem) deve ser maior ou igual a 1.'],
      ['ordem not an integer', body({ ordem: 1.5 }), 'Ordem (ordem) deve ser um número inteiro.'],
      ['ordem a string', body({ ordem: '2' }), 'Ordem (ordem) deve ser um número.'],
      [
        'classificacaoId that does not exist',
        body({ classificacaoId: 99 }),
        'Classificação (classificacaoId) 99 não existe.',
      ],
      [
        'classificacaoId negative',
        body({ classificacaoId: -1 }),
        'Classificação (classificacaoId) não pode ser negativa.',
      ],
      [
        'an invalid e-mail in rlsConfigurations',
        body({
          rlsConfigurations: [{ roleName: 'Gerentes', userEmails: ['ok@empresa.com.br', 'nao-e-email'], grupos: [] }],
        }),
        "userEmails: 'nao-e-email' não é um e-mail válido.",
      ],
      [
        'a blank role name',
        body({ rlsConfigurations: [{ roleName: '  ', userEmails: [], grupos: [] }] }),
        'Nome do papel RLS (roleName) é obrigatório.',
      ],
      [
        'duplicate role names, whatever their case',
        body({
          rlsConfigurations: [
            { roleName: 'Gerentes', userEmails: ['a@empresa.com.br'], grupos: [] },
            { roleName: 'GERENTES', userEmails: ['b@empresa.com.br'], grupos: [] },
          ],
        }),
        "O papel RLS 'GERENTES' aparece mais de uma vez.",
      ],
      ['no body at all', undefined, 'O corpo da requisição é obrigatório: envie um JSON.'],
    ];

    it.each(invalid)('answers 400 for %s and creates nothing', async (_label, payload, message) => {
      const vendas = await classificacao(ctx.db, 'Vendas');
      expect(vendas.id).not.toBe(99);
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('POST', '/api/paineis', { token, body: payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
      expect(await count(ctx, 'paineis')).toBe(0);
      expect(await count(ctx, 'painel_rls_roles')).toBe(0);
      expect(await count(ctx, 'painel_rls_role_emails')).toBe(0);
    });
  });

  describe('PUT /api/paineis/{id}', () => {
    it('updates every field, sets dataAtualizacao and leaves other panels alone', async () => {
      const s = await seed(ctx);
      const before = await snapshot(ctx);
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('PUT', `/api/paineis/${s.metas.id}`, {
        token,
        body: {
          nomePainel: '  Metas 2025 ',
          workspaceId: WORKSPACE.toUpperCase(),
          reportId: REPORT,
          usaRls: true,
          classificacaoId: s.compras.id,
          ordem: 8,
        },
      });
      expect(res.statusCode).toBe(200);
      const updated = res.json<Painel>();
      expect(updated).toEqual({
        id: s.metas.id,
        nomePainel: 'Metas 2025',
        workspaceId: WORKSPACE,
        reportId: REPORT,
        usaRls: true,
        permiteExportacao: true,
        idioma: null,
        permiteExportarDados: true,
        classificacaoId: s.compras.id,
        classificacaoNome: 'compras',
        ordem: 8,
        dataCadastro: s.metas.dataCadastro,
        dataAtualizacao: expect.stringMatching(ISO),
      });
      expect(Date.parse(updated.dataAtualizacao!)).toBeGreaterThanOrEqual(Date.parse(s.metas.dataCadastro));
      expect(Math.abs(Date.parse(updated.dataAtualizacao!) - Date.now())).toBeLessThan(60_000);

      const read = await ctx.request('GET', `/api/paineis/${s.metas.id}/dados`, { token });
      expect(read.json()).toEqual({ ...updated, rlsConfigurations: [] });

      const after = await snapshot(ctx);
      expect(after.paineis.filter((p) => p.id !== s.metas.id)).toEqual(
        before.paineis.filter((p) => p.id !== s.metas.id),
      );
      expect(after.roles).toEqual(before.roles);
      expect(after.emails).toEqual(before.emails);
    });

    it('keeps the ordem when none is sent', async () => {
      const vendas = await classificacao(ctx.db, 'Vendas');
      const p = await panel(ctx.db, { classificacaoId: vendas.id, ordem: 5 });
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('PUT', `/api/paineis/${p.id}`, {
        token,
        body: body({ nomePainel: 'Renomeado', classificacaoId: vendas.id }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ nomePainel: 'Renomeado', ordem: 5 });
      expect(await ordens(ctx)).toEqual({ [p.id]: 5 });
    });

    it('puts a panel moved to another classification without ordem last there', async () => {
      const vendas = await classificacao(ctx.db, 'Vendas');
      const rh = await classificacao(ctx.db, 'RH');
      const p = await panel(ctx.db, { classificacaoId: vendas.id, ordem: 1 });
      await panel(ctx.db, { classificacaoId: rh.id, ordem: 1 });
      await panel(ctx.db, { classificacaoId: rh.id, ordem: 4 });
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('PUT', `/api/paineis/${p.id}`, { token, body: body({ classificacaoId: rh.id }) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ classificacaoId: rh.id, ordem: 5 });
      // An ordem sent with the move is kept as sent.
      const again = await ctx.request('PUT', `/api/paineis/${p.id}`, {
        token,
        body: body({ classificacaoId: vendas.id, ordem: 3 }),
      });
      expect(again.json()).toMatchObject({ classificacaoId: vendas.id, ordem: 3 });
    });

    it('moves the panel to Sem Classificação with classificacaoId 0', async () => {
      const vendas = await classificacao(ctx.db, 'Vendas');
      const p = await panel(ctx.db, { classificacaoId: vendas.id });
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('PUT', `/api/paineis/${p.id}`, { token, body: body({ classificacaoId: 0 }) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ classificacaoId: 0, classificacaoNome: 'Sem Classificação' });
      expect(await rows(ctx.db, sql`select classificacao_id from paineis`)).toEqual([{ classificacao_id: null }]);
    });

    it('keeps the RLS roles when rlsConfigurations is omitted', async () => {
      const s = await seed(ctx);
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('PUT', `/api/paineis/${s.regional.id}`, {
        token,
        body: body({ nomePainel: 'Regional 2', usaRls: true, classificacaoId: s.vendas.id }),
      });
      expect(res.statusCode).toBe(200);
      const read = await ctx.request('GET', `/api/paineis/${s.regional.id}/dados`, { token });
      expect(read.json()).toMatchObject({
        nomePainel: 'Regional 2',
        rlsConfigurations: [
          { roleName: 'Sul', userEmails: ['a@empresa.com.br', 'b@empresa.com.br'], grupos: [] },
          { roleName: 'Norte', userEmails: ['c@empresa.com.br'], grupos: [] },
        ],
      });
    });

    it('clears the RLS roles when rlsConfigurations is []', async () => {
      const s = await seed(ctx);
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('PUT', `/api/paineis/${s.regional.id}`, {
        token,
        body: body({ classificacaoId: s.vendas.id, rlsConfigurations: [] }),
      });
      expect(res.statusCode).toBe(200);
      const read = await ctx.request('GET', `/api/paineis/${s.regional.id}/dados`, { token });
      expect(read.json().rlsConfigurations).toEqual([]);
      expect(await count(ctx, 'painel_rls_roles')).toBe(0);
      expect(await count(ctx, 'painel_rls_role_emails')).toBe(0);
    });

    it('replaces the RLS roles with the ones sent', async () => {
      const s = await seed(ctx);
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('PUT', `/api/paineis/${s.regional.id}`, {
        token,
        body: body({
          usaRls: true,
          classificacaoId: s.vendas.id,
          rlsConfigurations: [{ roleName: 'Norte', userEmails: ['D@empresa.com.br'], grupos: [] }],
        }),
      });
      expect(res.statusCode).toBe(200);
      const read = await ctx.request('GET', `/api/paineis/${s.regional.id}/dados`, { token });
      expect(read.json().rlsConfigurations).toEqual([
        { roleName: 'Norte', userEmails: ['d@empresa.com.br'], grupos: [] },
      ]);
    });

    it('answers 404 for an unknown panel and creates nothing', async () => {
      const { token, expectUnchanged } = await seededForAdmin(ctx);
      const res = await ctx.request('PUT', '/api/paineis/999', {
        token,
        body: body({ rlsConfigurations: [{ roleName: 'X', userEmails: [], grupos: [] }] }),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
      await expectUnchanged();
    });

    it('answers 400 for a malformed id', async () => {
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('PUT', '/api/paineis/abc', { token, body: body() });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/\bid\b/);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a blank name', { nomePainel: '' }, 'Nome do painel (nomePainel) é obrigatório.'],
      [
        'a workspaceId that is not a GUID',
        { workspaceId: 'x' },
        'ID do workspace (workspaceId) deve ser um GUID, como 00000000-0000-0000-0000-000000000000.',
      ],
      ['ordem 0', { ordem: 0 }, 'Ordem (ordem) deve ser maior ou igual a 1.'],
      ['usaRls not a boolean', { usaRls: 1 }, 'Usa RLS (usaRls) deve ser verdadeiro ou falso.'],
      [
        'a classificacaoId that does not exist',
        { classificacaoId: 99 },
        'Classificação (classificacaoId) 99 não existe.',
      ],
      [
        'an invalid e-mail',
        { rlsConfigurations: [{ roleName: 'Sul', userEmails: ['sem-arroba'], grupos: [] }] },
        "userEmails: 'sem-arroba' não é um e-mail válido.",
      ],
      [
        'duplicate role names',
        {
          rlsConfigurations: [
            { roleName: 'Sul', userEmails: [], grupos: [] },
            { roleName: 'sul', userEmails: [], grupos: [] },
          ],
        },
        "O papel RLS 'sul' aparece mais de uma vez.",
      ],
    ])('answers 400 for %s and changes nothing', async (_label, overrides, message) => {
      const { s, token, expectUnchanged } = await seededForAdmin(ctx);
      // Everything else in the body is a valid change, so a partial write would show.
      const res = await ctx.request('PUT', `/api/paineis/${s.regional.id}`, {
        token,
        body: body({
          nomePainel: 'Outro nome',
          classificacaoId: s.compras.id,
          ordem: 20,
          rlsConfigurations: [],
          ...overrides,
        }),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
      await expectUnchanged();
    });
  });

  describe('permiteExportacao', () => {
    it('is true on a new panel unless sent, kept when an update omits it, and changed when one sends it', async () => {
      const { token } = await signIn(ctx, 'Admin');
      const created = await ctx.request('POST', '/api/paineis', { token, body: body() });
      expect(created.json<Painel>().permiteExportacao).toBe(true);
      const off = await ctx.request('POST', '/api/paineis', { token, body: body({ permiteExportacao: false }) });
      expect(off.json<Painel>().permiteExportacao).toBe(false);
      const id = off.json<Painel>().id;

      const renamed = await ctx.request('PUT', `/api/paineis/${id}`, { token, body: body({ nomePainel: 'Outro' }) });
      expect(renamed.json<Painel>()).toMatchObject({ nomePainel: 'Outro', permiteExportacao: false });
      const on = await ctx.request('PUT', `/api/paineis/${id}`, { token, body: body({ permiteExportacao: true }) });
      expect(on.json<Painel>().permiteExportacao).toBe(true);
      // The cached answers follow the change.
      const list = await ctx.request('GET', '/api/paineis', { token });
      expect(list.json<Painel[]>().map((p) => p.permiteExportacao)).toEqual([true, true]);
      const dados = await ctx.request('GET', `/api/paineis/${id}/dados`, { token });
      expect(dados.json<Painel>().permiteExportacao).toBe(true);
    });

    it('refuses a value that is not a boolean, in Portuguese', async () => {
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('POST', '/api/paineis', { token, body: body({ permiteExportacao: 'sim' }) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Permitir exportação (permiteExportacao) deve ser verdadeiro ou falso.' });
      expect(await count(ctx, 'paineis')).toBe(0);
    });
  });

  describe('idioma', () => {
    it("is null (the portal's) on a new panel unless sent, kept when an update omits it, cleared with null", async () => {
      const { token } = await signIn(ctx, 'Admin');
      const plain = await ctx.request('POST', '/api/paineis', { token, body: body() });
      expect(plain.json<Painel>().idioma).toBeNull();
      const english = await ctx.request('POST', '/api/paineis', { token, body: body({ idioma: 'en-US' }) });
      expect(english.statusCode).toBe(201);
      expect(english.json<Painel>().idioma).toBe('en-US');
      const id = english.json<Painel>().id;

      const renamed = await ctx.request('PUT', `/api/paineis/${id}`, { token, body: body({ nomePainel: 'Outro' }) });
      expect(renamed.json<Painel>()).toMatchObject({ nomePainel: 'Outro', idioma: 'en-US' });
      // The list items carry it: the viewer bootstraps the report in the panel's language before its answer.
      const list = await ctx.request('GET', '/api/paineis', { token });
      expect(list.json<Painel[]>().map((p) => p.idioma)).toEqual([null, 'en-US']);
      const opened = await ctx.request('GET', `/api/paineis/${id}/dados`, { token });
      expect(opened.json<Painel>().idioma).toBe('en-US');

      const cleared = await ctx.request('PUT', `/api/paineis/${id}`, { token, body: body({ idioma: null }) });
      expect(cleared.json<Painel>().idioma).toBeNull();
      // Audited as a change of the panel, from the language it had.
      const audit = await rows<{ mudancas: { campo: string; antes?: unknown }[] }>(
        ctx.db,
        sql`select mudancas from auditoria where objeto = 'painel' and acao = 'alteracao' order by id`,
      );
      expect(audit.at(-1)?.mudancas).toContainEqual(expect.objectContaining({ campo: 'idioma', antes: 'en-US' }));
      expect(audit[0]?.mudancas.map((m) => m.campo)).not.toContain('idioma');
    });

    it.each([['pt_BR'], ['klingon'], [42]])('refuses %j, in Portuguese', async (idioma) => {
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('POST', '/api/paineis', { token, body: body({ idioma }) });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/^Idioma do relatório \(idioma\) deve ser/);
      expect(await count(ctx, 'paineis')).toBe(0);
    });
  });

  describe('permiteExportarDados', () => {
    it('is true on a new panel unless sent, kept when an update omits it, and changed when one sends it', async () => {
      const { token } = await signIn(ctx, 'Admin');
      const created = await ctx.request('POST', '/api/paineis', { token, body: body() });
      expect(created.json<Painel>().permiteExportarDados).toBe(true);
      const off = await ctx.request('POST', '/api/paineis', { token, body: body({ permiteExportarDados: false }) });
      expect(off.json<Painel>()).toMatchObject({ permiteExportarDados: false, permiteExportacao: true });
      const id = off.json<Painel>().id;

      const renamed = await ctx.request('PUT', `/api/paineis/${id}`, { token, body: body({ nomePainel: 'Outro' }) });
      expect(renamed.json<Painel>()).toMatchObject({ nomePainel: 'Outro', permiteExportarDados: false });
      const on = await ctx.request('PUT', `/api/paineis/${id}`, { token, body: body({ permiteExportarDados: true }) });
      expect(on.json<Painel>().permiteExportarDados).toBe(true);
      const list = await ctx.request('GET', '/api/paineis', { token });
      expect(list.json<Painel[]>().map((p) => p.permiteExportarDados)).toEqual([true, true]);
    });

    it('refuses a value that is not a boolean, in Portuguese', async () => {
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('POST', '/api/paineis', { token, body: body({ permiteExportarDados: 'sim' }) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'Permitir exportar dados (permiteExportarDados) deve ser verdadeiro ou falso.',
      });
      expect(await count(ctx, 'paineis')).toBe(0);
    });
  });

  describe('DELETE /api/paineis/{id}', () => {
    it('answers 204, then 404, and takes the links and RLS roles with it, nothing else', async () => {
      const s = await seed(ctx);
      const ana = await createUser(ctx.db);
      const bia = await createUser(ctx.db);
      await link(ctx.db, s.regional.id, [ana.id, bia.id]);
      const outro = await panel(ctx.db, {
        nomePainel: 'Outro com RLS',
        usaRls: true,
        rlsConfigurations: [{ roleName: 'Leste', userEmails: ['e@empresa.com.br'], grupos: [] }],
      });
      await link(ctx.db, outro.id, [ana.id]);
      const before = await snapshot(ctx);
      const { token } = await signIn(ctx, 'Admin');

      const res = await ctx.request('DELETE', `/api/paineis/${s.regional.id}`, { token });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');

      expect((await ctx.request('GET', `/api/paineis/${s.regional.id}/dados`, { token })).statusCode).toBe(404);
      const again = await ctx.request('DELETE', `/api/paineis/${s.regional.id}`, { token });
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual(NOT_FOUND);

      const q = (query: SQL) => rows<{ n: number }>(ctx.db, query).then((r) => r[0]!.n);
      expect(await q(sql`select count(*)::int as n from painel_usuarios where painel_id = ${s.regional.id}`)).toBe(0);
      expect(await q(sql`select count(*)::int as n from painel_rls_roles where painel_id = ${s.regional.id}`)).toBe(0);
      const regionalRoleIds = before.roles.filter((r) => r.painel_id === s.regional.id).map((r) => r.id as number);
      expect(regionalRoleIds).toHaveLength(2);
      expect(
        await q(
          sql`select count(*)::int as n from painel_rls_role_emails where role_id = any(${sql.param(regionalRoleIds)}::int[])`,
        ),
      ).toBe(0);

      const after = await snapshot(ctx);
      expect(after.paineis).toEqual(before.paineis.filter((p) => p.id !== s.regional.id));
      expect(after.links).toEqual([{ painel_id: outro.id, usuario_id: ana.id }]);
      expect(after.roles).toEqual(before.roles.filter((r) => r.painel_id !== s.regional.id));
      expect(after.emails).toEqual(before.emails.filter((e) => !regionalRoleIds.includes(e.role_id as number)));
      expect(after.emails).toHaveLength(1);
      expect(after.classificacoes).toEqual(before.classificacoes);
      const users = await rows<{ id: string }>(ctx.db, sql`select id from usuarios where id in (${ana.id}, ${bia.id})`);
      expect(users).toHaveLength(2);
    });

    it('answers 404 for an unknown panel and deletes nothing', async () => {
      const { token, expectUnchanged } = await seededForAdmin(ctx);
      const res = await ctx.request('DELETE', '/api/paineis/999', { token });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
      await expectUnchanged();
    });
  });

  describe('POST /api/paineis/reorder', () => {
    /** Sends one { painelId, novaOrdem } for each [painelId, novaOrdem] given. */
    const reorder = (token: string, ...moves: Array<[number, number]>) =>
      ctx.request('POST', '/api/paineis/reorder', {
        token,
        body: moves.map(([painelId, novaOrdem]) => ({ painelId, novaOrdem })),
      });

    it('applies every novaOrdem and answers 204', async () => {
      const s = await seed(ctx);
      const before = await ordens(ctx);
      const { token } = await signIn(ctx, 'Admin');
      const res = await reorder(token, [s.regional.id, 1], [s.faturamento.id, 2], [s.metas.id, 3]);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(await ordens(ctx)).toEqual({
        ...before,
        [s.regional.id]: 1,
        [s.faturamento.id]: 2,
        [s.metas.id]: 3,
      });
      const list = await ctx.request('GET', '/api/paineis', { token });
      expect(ids(list.json<Painel[]>().filter((p) => p.classificacaoId === s.vendas.id))).toEqual([
        s.regional.id,
        s.faturamento.id,
        s.metas.id,
      ]);
    });

    it('changes no ordem at all when one painelId is unknown (404)', async () => {
      const { s, token, expectUnchanged } = await seededForAdmin(ctx);
      const res = await reorder(token, [s.metas.id, 10], [999, 11], [s.faturamento.id, 12]);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Painéis não encontrados: 999. Nenhuma ordem foi alterada.' });
      await expectUnchanged();
    });

    it('answers 400 for a duplicate painelId and changes nothing', async () => {
      const { s, token, expectUnchanged } = await seededForAdmin(ctx);
      const res = await reorder(token, [s.metas.id, 10], [s.faturamento.id, 11], [s.metas.id, 12]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: `O painel ${s.metas.id} aparece mais de uma vez na reordenação.` });
      await expectUnchanged();
    });

    it.each<[string, unknown, string]>([
      ['an empty list', [], 'Informe ao menos um painel para reordenar.'],
      [
        'novaOrdem 0',
        [
          { painelId: 1, novaOrdem: 5 },
          { painelId: 2, novaOrdem: 0 },
        ],
        'novaOrdem deve ser maior ou igual a 1.',
      ],
      ['novaOrdem not an integer', [{ painelId: 1, novaOrdem: 2.5 }], 'novaOrdem deve ser um número inteiro.'],
      ['painelId 0', [{ painelId: 0, novaOrdem: 1 }], 'painelId deve ser maior que zero.'],
      [
        'an object instead of a list',
        { painelId: 1, novaOrdem: 1 },
        'O corpo deve ser uma lista de { painelId, novaOrdem }.',
      ],
    ])('answers 400 for %s and changes nothing', async (_label, payload, message) => {
      const { token, expectUnchanged } = await seededForAdmin(ctx);
      const res = await ctx.request('POST', '/api/paineis/reorder', { token, body: payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(message);
      await expectUnchanged();
    });
  });

  describe('admin-only routes refuse a non-admin with 403', () => {
    const cases: Array<
      [
        string,
        'GET' | 'POST' | 'PUT' | 'DELETE',
        (s: Awaited<ReturnType<typeof seed>>) => string,
        (s: Awaited<ReturnType<typeof seed>>) => unknown,
      ]
    > = [
      ['create', 'POST', () => '/api/paineis', () => body()],
      [
        'update',
        'PUT',
        (s) => `/api/paineis/${s.metas.id}`,
        (s) => body({ nomePainel: 'Invadido', classificacaoId: s.vendas.id, rlsConfigurations: [] }),
      ],
      ['update with RLS', 'PUT', (s) => `/api/paineis/${s.regional.id}`, () => body({ rlsConfigurations: [] })],
      ['delete', 'DELETE', (s) => `/api/paineis/${s.metas.id}`, () => undefined],
      ['reorder', 'POST', () => '/api/paineis/reorder', (s) => [{ painelId: s.metas.id, novaOrdem: 50 }]],
      ['read for editing (dados)', 'GET', (s) => `/api/paineis/${s.metas.id}/dados`, () => undefined],
      ['read configuration (configuracoes)', 'GET', (s) => `/api/paineis/${s.metas.id}/configuracoes`, () => undefined],
    ];

    it.each(cases)('%s', async (_label, method, url, payload) => {
      const s = await seed(ctx);
      const { user, token } = await signIn(ctx, 'User');
      // Even a user linked to the panel may not manage it.
      await link(ctx.db, s.metas.id, [user.id]);
      await link(ctx.db, s.regional.id, [user.id]);
      const before = await snapshot(ctx);
      const res = await ctx.request(method, url(s), { token, body: payload(s) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: ADMIN_ONLY });
      expect(await snapshot(ctx)).toEqual(before);
    });
  });
});
