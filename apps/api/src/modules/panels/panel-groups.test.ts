import { describe, expect, it } from 'vitest';
import { PANEL_NOT_FOUND } from '@paineis/contract/panels';
import { useTestApp } from '../../../test/context.ts';
import { fixedEmbedding } from '../../../test/fixed-embedding.ts';
import { createAdmin, createUser, panel, seedGroups } from '../../../test/fixtures.ts';
import { openPanel, openPanelNow } from './panel-access.ts';
import type { Requester } from './requester.ts';

const COMERCIAL = '0c0c0c0c-0000-4000-8000-000000000001';
const SUL = '0c0c0c0c-0000-4000-8000-000000000002';
const NORTE = '0c0c0c0c-0000-4000-8000-000000000003';
const FINANCEIRO = '0c0c0c0c-0000-4000-8000-000000000004';
/** What a group that is not public grants, whatever PUBLIC_GROUPS_GRANT says. */
const GRANTS_ALL = { paineis: true, papeisRls: true };

/** Panels linked to Entra groups: who may open them, and the links themselves (docs/decisions/018). */
describe('panels linked to groups', () => {
  const ctx = useTestApp({ embedding: fixedEmbedding('token-de-teste') });

  /** Comercial ⊃ Comercial - Sul ⊃ Ana, Comercial ⊃ Comercial - Norte ⊃ Bia; Financeiro ⊃ Caio. */
  async function setup() {
    const admin = await createAdmin(ctx.db, { email: 'admin@empresa.com.br' });
    const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br', displayName: 'Ana' });
    const bia = await createUser(ctx.db, { email: 'bia@empresa.com.br', displayName: 'Bia' });
    const caio = await createUser(ctx.db, { email: 'caio@empresa.com.br', displayName: 'Caio' });
    await seedGroups(ctx.database, [
      { id: COMERCIAL, nome: 'Comercial', groups: [SUL, NORTE] },
      { id: SUL, nome: 'Comercial - Sul', people: [ana.id] },
      { id: NORTE, nome: 'Comercial - Norte', people: [bia.id] },
      { id: FINANCEIRO, nome: 'Financeiro', people: [caio.id], tipo: 'microsoft365' },
    ]);
    const metas = await panel(ctx.db, { nomePainel: 'Metas' });
    return {
      metas,
      ids: { ana: ana.id, bia: bia.id, caio: caio.id },
      tokens: {
        admin: await ctx.tokenFor(admin),
        ana: await ctx.tokenFor(ana),
        bia: await ctx.tokenFor(bia),
        caio: await ctx.tokenFor(caio),
      },
    };
  }

  const listed = async (token: string) =>
    (await ctx.request('GET', '/api/paineis', { token })).json<{ nomePainel: string }[]>().map((p) => p.nomePainel);

  it('lets everyone in a linked group open the panel, at any depth, and nobody else', async () => {
    const s = await setup();
    for (const who of ['ana', 'bia', 'caio'] as const) {
      expect((await ctx.request('GET', `/api/paineis/${s.metas.id}`, { token: s.tokens[who] })).statusCode).toBe(404);
    }
    const linked = await ctx.request('POST', `/api/paineis/${s.metas.id}/grupos`, {
      token: s.tokens.admin,
      body: [COMERCIAL],
    });
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toEqual([{ id: COMERCIAL, nome: 'Comercial', publico: false }]);
    // Ana is in Comercial - Sul, nested in Comercial; Bia in Comercial - Norte; Caio only in Financeiro.
    expect(await listed(s.tokens.ana)).toEqual(['Metas']);
    expect(await listed(s.tokens.bia)).toEqual(['Metas']);
    expect(await listed(s.tokens.caio)).toEqual([]);
    expect((await ctx.request('GET', `/api/paineis/${s.metas.id}`, { token: s.tokens.ana })).statusCode).toBe(200);
    expect((await ctx.request('GET', `/api/paineis/${s.metas.id}`, { token: s.tokens.caio })).statusCode).toBe(404);
  });

  it('takes the access away when the link is removed, or when the person leaves the group', async () => {
    const s = await setup();
    await ctx.request('POST', `/api/paineis/${s.metas.id}/grupos`, { token: s.tokens.admin, body: [SUL, FINANCEIRO] });
    expect(await listed(s.tokens.ana)).toEqual(['Metas']);
    expect(await listed(s.tokens.caio)).toEqual(['Metas']);
    await ctx.request('POST', `/api/paineis/${s.metas.id}/grupos`, { token: s.tokens.admin, body: [SUL] });
    expect(await listed(s.tokens.caio)).toEqual([]);
    // The next sync finds Ana out of Comercial - Sul.
    await seedGroups(ctx.database, [
      { id: COMERCIAL, nome: 'Comercial', groups: [SUL, NORTE] },
      { id: SUL, nome: 'Comercial - Sul', people: [] },
      { id: NORTE, nome: 'Comercial - Norte', people: [s.ids.bia] },
    ]);
    expect(await listed(s.tokens.ana)).toEqual([]);
    const opened = await ctx.request('GET', `/api/paineis/${s.metas.id}`, { token: s.tokens.ana });
    expect(opened.statusCode).toBe(404);
    expect(opened.json()).toEqual({ message: PANEL_NOT_FOUND });
  });

  it('lets a person in by group keep favourites, recents and saved views, and drops them with the access', async () => {
    const s = await setup();
    await ctx.request('POST', `/api/paineis/${s.metas.id}/grupos`, { token: s.tokens.admin, body: [COMERCIAL] });
    const ana = s.tokens.ana;
    const get = async (url: string) => (await ctx.request('GET', url, { token: ana })).json<unknown>();
    expect((await ctx.request('PUT', `/api/favoritos/${s.metas.id}`, { token: ana })).statusCode).toBe(204);
    expect((await ctx.request('GET', `/api/paineis/${s.metas.id}`, { token: ana })).statusCode).toBe(200);
    const view = { nome: 'Sul', estado: 'estado' };
    const saved = await ctx.request('POST', `/api/paineis/${s.metas.id}/visoes`, { token: ana, body: view });
    expect(saved.statusCode).toBe(201);
    expect(await get('/api/favoritos')).toEqual({ paineis: [s.metas.id] });
    expect(await get('/api/recentes')).toEqual({ paineis: [s.metas.id] });
    expect(await get(`/api/paineis/${s.metas.id}/visoes`)).toEqual([expect.objectContaining({ nome: 'Sul' })]);

    // Ana leaves Comercial - Sul at the next sync: the panel is gone from everything of hers, as if it did not exist.
    await seedGroups(ctx.database, [
      { id: COMERCIAL, nome: 'Comercial', groups: [SUL, NORTE] },
      { id: SUL, nome: 'Comercial - Sul' },
      { id: NORTE, nome: 'Comercial - Norte', people: [s.ids.bia] },
    ]);
    expect(await get('/api/favoritos')).toEqual({ paineis: [] });
    expect(await get('/api/recentes')).toEqual({ paineis: [] });
    for (const [method, url] of [
      ['GET', `/api/paineis/${s.metas.id}/visoes`],
      ['PUT', `/api/favoritos/${s.metas.id}`],
      ['POST', `/api/paineis/${s.metas.id}/exportacoes`],
    ] as const) {
      const refused = await ctx.request(method, url, {
        token: ana,
        body: method === 'POST' ? { formato: 'PDF' } : undefined,
      });
      expect(refused.statusCode, `${method} ${url}`).toBe(404);
      expect(refused.json()).toEqual({ message: PANEL_NOT_FOUND });
    }
  });

  it('lists the linked groups by name, and the directory’s groups with their people at any depth', async () => {
    const s = await setup();
    await ctx.request('POST', `/api/paineis/${s.metas.id}/grupos`, {
      token: s.tokens.admin,
      body: [SUL, COMERCIAL, SUL],
    });
    expect((await ctx.request('GET', `/api/paineis/${s.metas.id}/grupos`, { token: s.tokens.admin })).json()).toEqual([
      { id: COMERCIAL, nome: 'Comercial', publico: false },
      { id: SUL, nome: 'Comercial - Sul', publico: false },
    ]);
    const groups = await ctx.request('GET', '/api/grupos365', { token: s.tokens.admin });
    expect(groups.statusCode).toBe(200);
    expect(groups.json()).toEqual([
      {
        id: COMERCIAL,
        nome: 'Comercial',
        descricao: null,
        tipo: 'seguranca',
        membros: 2,
        publico: false,
        concede: GRANTS_ALL,
      },
      {
        id: NORTE,
        nome: 'Comercial - Norte',
        descricao: null,
        tipo: 'seguranca',
        membros: 1,
        publico: false,
        concede: GRANTS_ALL,
      },
      {
        id: SUL,
        nome: 'Comercial - Sul',
        descricao: null,
        tipo: 'seguranca',
        membros: 1,
        publico: false,
        concede: GRANTS_ALL,
      },
      {
        id: FINANCEIRO,
        nome: 'Financeiro',
        descricao: null,
        tipo: 'microsoft365',
        membros: 1,
        publico: false,
        concede: GRANTS_ALL,
      },
    ]);
  });

  it('refuses unknown groups, bodies that are not lists of ids, and non-admins, changing nothing', async () => {
    const s = await setup();
    await ctx.request('POST', `/api/paineis/${s.metas.id}/grupos`, { token: s.tokens.admin, body: [SUL] });
    const cases: [unknown, RegExp][] = [
      [
        [SUL, '0c0c0c0c-0000-4000-8000-00000000dead'],
        /^Grupos não encontrados: 0c0c0c0c-0000-4000-8000-00000000dead\.$/,
      ],
      [{ grupos: [SUL] }, /lista de ids de grupos/],
      [[7], /id \(texto\)/],
      [[''], /não pode ser vazio/],
    ];
    for (const [body, message] of cases) {
      const res = await ctx.request('POST', `/api/paineis/${s.metas.id}/grupos`, { token: s.tokens.admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const asUser = await ctx.request('POST', `/api/paineis/${s.metas.id}/grupos`, { token: s.tokens.ana, body: [] });
    expect(asUser.statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/grupos365', { token: s.tokens.ana })).statusCode).toBe(403);
    expect((await ctx.request('GET', `/api/paineis/${s.metas.id}/grupos`, { token: s.tokens.ana })).statusCode).toBe(
      403,
    );
    expect(
      (await ctx.request('POST', `/api/paineis/9999/grupos`, { token: s.tokens.admin, body: [] })).statusCode,
    ).toBe(404);
    expect((await ctx.request('GET', `/api/paineis/${s.metas.id}/grupos`, { token: s.tokens.admin })).json()).toEqual([
      { id: SUL, nome: 'Comercial - Sul', publico: false },
    ]);
    expect(await listed(s.tokens.ana)).toEqual(['Metas']);
  });

  it('records each change of a panel’s groups, and of a role’s groups, in the audit trail', async () => {
    const s = await setup();
    await ctx.request('POST', `/api/paineis/${s.metas.id}/grupos`, { token: s.tokens.admin, body: [SUL] });
    const audit = await ctx.request('GET', '/api/auditoria?objeto=vinculos', { token: s.tokens.admin });
    expect(JSON.stringify(audit.json())).toContain('Comercial - Sul');

    // A role's groups too, each group added to or taken out of a role by id.
    const rls = await panel(ctx.db, { nomePainel: 'Vendas', usaRls: true });
    const save = (grupos: string[]) =>
      ctx.request('POST', `/api/paineis/${rls.id}/rls`, {
        token: s.tokens.admin,
        body: [{ roleName: 'Sul', userEmails: [], grupos }],
      });
    expect((await save([SUL])).statusCode).toBe(200);
    expect((await save([NORTE])).statusCode).toBe(200);
    const records = await ctx.request('GET', '/api/auditoria?objeto=rls', { token: s.tokens.admin });
    const [latest] = records.json<{ registros: { mudancas: unknown[] }[] }>().registros;
    expect(latest!.mudancas).toEqual([
      { campo: `papeis.Sul.grupo:${SUL}`, antes: true },
      { campo: `papeis.Sul.grupo:${NORTE}`, depois: true },
    ]);
  });

  it('gives the RLS roles that list a group to everyone in it at any depth, and refuses unknown groups', async () => {
    const s = await setup();
    const rls = await panel(ctx.db, { nomePainel: 'Vendas', usaRls: true });
    await ctx.request('POST', `/api/paineis/${rls.id}/grupos`, { token: s.tokens.admin, body: [COMERCIAL] });
    const roles = [
      { roleName: 'Sul', userEmails: [], grupos: [SUL] },
      { roleName: 'Norte', userEmails: ['bia@empresa.com.br'], grupos: [] },
      { roleName: 'Comercial', userEmails: [], grupos: [COMERCIAL] },
    ];
    const saved = await ctx.request('POST', `/api/paineis/${rls.id}/rls`, { token: s.tokens.admin, body: roles });
    expect(saved.statusCode).toBe(200);
    expect((await ctx.request('GET', `/api/paineis/${rls.id}/rls`, { token: s.tokens.admin })).json()).toEqual(roles);
    const who = (id: string, email: string): Requester => ({ id, email, upn: null, username: email, isAdmin: false });
    const ana = who(s.ids.ana, 'ana@empresa.com.br');
    const bia = who(s.ids.bia, 'bia@empresa.com.br');
    expect((await openPanel(ctx.db, rls.id, ana, undefined)).roles).toEqual(['Sul', 'Comercial']);
    expect((await openPanel(ctx.db, rls.id, bia, undefined)).roles).toEqual(['Norte', 'Comercial']);
    // From memory, the same.
    expect(openPanelNow(ctx.db, rls.id, ana, undefined)?.roles).toEqual(['Sul', 'Comercial']);
    // Ana leaves Comercial - Sul at the next sync: only the roles through Comercial… which she is no longer in.
    await seedGroups(ctx.database, [
      { id: COMERCIAL, nome: 'Comercial', groups: [SUL, NORTE], people: [s.ids.caio] },
      { id: SUL, nome: 'Comercial - Sul' },
      { id: NORTE, nome: 'Comercial - Norte', people: [s.ids.bia] },
    ]);
    await expect(openPanel(ctx.db, rls.id, ana, undefined)).rejects.toMatchObject({ kind: 'not-found' });
    const caio = who(s.ids.caio, 'caio@empresa.com.br');
    expect((await openPanel(ctx.db, rls.id, caio, undefined)).roles).toEqual(['Comercial']);

    const unknown = await ctx.request('POST', `/api/paineis/${rls.id}/rls`, {
      token: s.tokens.admin,
      body: [{ roleName: 'Sul', userEmails: [], grupos: ['0c0c0c0c-0000-4000-8000-0000000000ff'] }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: 'Grupos não encontrados: 0c0c0c0c-0000-4000-8000-0000000000ff.' });
    expect((await ctx.request('GET', `/api/paineis/${rls.id}/rls`, { token: s.tokens.admin })).json()).toEqual(roles);
    const mistyped = await ctx.request('POST', `/api/paineis/${rls.id}/rls`, {
      token: s.tokens.admin,
      body: [{ roleName: 'Sul', userEmails: [], grupos: 'Comercial' }],
    });
    expect(mistyped.statusCode).toBe(400);
    expect(mistyped.json().message).toMatch(/grupos deve ser uma lista de ids de grupos/);
  });
});
