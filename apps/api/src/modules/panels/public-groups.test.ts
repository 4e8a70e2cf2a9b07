import { describe, expect, it } from 'vitest';
import { PUBLIC_GROUP_GRANTS_NO_PANEL, PUBLIC_GROUP_GRANTS_NO_ROLE } from '@paineis/contract/group-constants';
import type { AcessoPainel, AcessoPessoa, Grupo365 } from '@paineis/contract/groups';
import { PANEL_NOT_FOUND } from '@paineis/contract/panels';
import { testConfig, useTestApp, type TestContext } from '../../../test/context.ts';
import { recordingEmbedding } from '../../../test/fixed-embedding.ts';
import { createAdmin, createUser, link, panel, seedGroups, type GroupSeed } from '../../../test/fixtures.ts';
import { REFUSED } from '../access/access-explained.ts';
import { NO_RLS_ROLE_FOR_PERSON } from './panel-access.ts';

const PROJETO = '0d0d0d0d-0000-4000-8000-000000000001';
const SUL = '0d0d0d0d-0000-4000-8000-000000000002';

const REFUSED_LINK =
  'Grupos públicos (qualquer pessoa pode entrar) não concedem acesso a painéis nesta instalação ' +
  '(PUBLIC_GROUPS_GRANT=none): Projeto Expansão.';
const refusedRole = (setting: string) =>
  'Grupos públicos (qualquer pessoa pode entrar) não concedem papéis RLS nesta instalação ' +
  `(PUBLIC_GROUPS_GRANT=${setting}): Projeto Expansão.`;

/**
 * Public Microsoft 365 groups, which anyone may join unapproved, grant what PUBLIC_GROUPS_GRANT lets them
 * (docs/decisions/018-access-by-group.md, "Public groups"): everything ('all'), opening panels but no RLS role
 * ('panels', the default), or nothing ('none'). The opening, the lists and both explanations follow it; a link where
 * the group would grant nothing is refused when it is made, and one made before the group became public is kept and
 * grants nothing.
 */
function usePublicGroups(setting?: 'all' | 'panels' | 'none') {
  const embedding = recordingEmbedding();
  const ctx = useTestApp({
    config: testConfig(setting ? { PUBLIC_GROUPS_GRANT: setting } : {}),
    embedding: embedding.service,
  });
  return { ctx, embedding };
}

/**
 * Projeto Expansão, a Microsoft 365 group (public unless `privado`) ⊃ Ana and Caio; Comercial - Sul ⊃ Bia. Metas
 * without RLS; Vendas with RLS, Caio linked to it directly.
 */
async function setup(ctx: TestContext) {
  const admin = await createAdmin(ctx.db, { email: 'admin@empresa.com.br' });
  const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br', displayName: 'Ana' });
  const bia = await createUser(ctx.db, { email: 'bia@empresa.com.br', displayName: 'Bia' });
  const caio = await createUser(ctx.db, { email: 'caio@empresa.com.br', displayName: 'Caio' });
  const groups = (visibilidade: GroupSeed['visibilidade']): GroupSeed[] => [
    { id: PROJETO, nome: 'Projeto Expansão', people: [ana.id, caio.id], tipo: 'microsoft365', visibilidade },
    { id: SUL, nome: 'Comercial - Sul', people: [bia.id] },
  ];
  await seedGroups(ctx.database, groups('Public'));
  const metas = await panel(ctx.db, { nomePainel: 'Metas' });
  const vendas = await panel(ctx.db, { nomePainel: 'Vendas', usaRls: true });
  await link(ctx.db, vendas.id, [caio.id]);
  const token = await ctx.tokenFor(admin);
  const as = { ana: await ctx.tokenFor(ana), bia: await ctx.tokenFor(bia), caio: await ctx.tokenFor(caio) };
  return {
    token,
    as,
    ids: { ana: ana.id, caio: caio.id },
    metas,
    vendas,
    /** The next sync finds Projeto Expansão public or private. */
    turn: (visibilidade: 'Public' | 'Private') => seedGroups(ctx.database, groups(visibilidade)),
    linkGroups: (painelId: number, body: string[]) =>
      ctx.request('POST', `/api/paineis/${painelId}/grupos`, { token, body }),
    saveRoles: (grupos: Record<string, string[]>) =>
      ctx.request('POST', `/api/paineis/${vendas.id}/rls`, {
        token,
        body: Object.entries(grupos).map(([roleName, ids]) => ({ roleName, userEmails: [], grupos: ids })),
      }),
    roles: async () => (await ctx.request('GET', `/api/paineis/${vendas.id}/rls`, { token })).json<unknown[]>(),
    explained: async (usuarioId: string, painelId: number) =>
      (await ctx.request('GET', `/api/usuarios365/${usuarioId}/acesso`, { token }))
        .json<AcessoPessoa>()
        .paineis.find((p) => p.painelId === painelId)!,
    whoCanOpen: async (painelId: number) =>
      (await ctx.request('GET', `/api/paineis/${painelId}/acesso`, { token })).json<AcessoPainel>(),
    directory: async () => (await ctx.request('GET', '/api/grupos365', { token })).json<Grupo365[]>(),
  };
}

const projeto = { id: PROJETO, nome: 'Projeto Expansão', publico: true };
const listed = async (ctx: TestContext, token: string) =>
  (await ctx.request('GET', '/api/paineis', { token })).json<{ nomePainel: string }[]>().map((p) => p.nomePainel);

describe('public groups, by default (PUBLIC_GROUPS_GRANT=panels)', () => {
  const { ctx, embedding } = usePublicGroups();

  it('opens a panel a public group is linked to, and says the group is public wherever it is named', async () => {
    const s = await setup(ctx);
    const linked = await s.linkGroups(s.metas.id, [PROJETO, SUL]);
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toEqual([{ id: SUL, nome: 'Comercial - Sul', publico: false }, projeto]);
    expect(await listed(ctx, s.as.ana)).toEqual(['Metas']);
    expect((await ctx.request('GET', `/api/paineis/${s.metas.id}`, { token: s.as.ana })).statusCode).toBe(200);

    const directory = await s.directory();
    expect(directory.find((g) => g.id === PROJETO)).toMatchObject({
      publico: true,
      concede: { paineis: true, papeisRls: false },
    });
    expect(directory.find((g) => g.id === SUL)).toMatchObject({
      publico: false,
      concede: { paineis: true, papeisRls: true },
    });
    const who = await s.whoCanOpen(s.metas.id);
    expect(who.pessoas.find((p) => p.usuarioId === s.ids.ana)!.motivos).toEqual([
      { tipo: 'grupo', grupo: projeto, via: ['Projeto Expansão'] },
    ]);
    expect(who.gruposSemEfeito).toEqual([]);
  });

  it('refuses a public group in an RLS role, changing nothing; one listed before it became public gives no role', async () => {
    const s = await setup(ctx);
    const refused = await s.saveRoles({ Projeto: [PROJETO], Sul: [SUL] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: refusedRole('panels') });
    expect(await s.roles()).toEqual([]);
    // Nor through the panel's own form.
    const viaPanel = await ctx.request('PUT', `/api/paineis/${s.vendas.id}`, {
      token: s.token,
      body: {
        nomePainel: 'Vendas',
        workspaceId: s.vendas.workspaceId,
        reportId: s.vendas.reportId,
        usaRls: true,
        rlsConfigurations: [{ roleName: 'Projeto', userEmails: [], grupos: [PROJETO] }],
      },
    });
    expect(viaPanel.statusCode).toBe(400);
    expect(viaPanel.json()).toEqual({ message: refusedRole('panels') });
    expect(await s.roles()).toEqual([]);

    // Private when listed: Caio opens Vendas with the role.
    await s.turn('Private');
    expect((await s.saveRoles({ Projeto: [PROJETO] })).statusCode).toBe(200);
    const before = embedding.calls.length;
    expect((await ctx.request('GET', `/api/paineis/${s.vendas.id}`, { token: s.as.caio })).statusCode).toBe(200);
    expect(embedding.calls.slice(before).map((c) => c.viewer.roles)).toEqual([['Projeto']]);

    // Public since: the role stays listed, and re-saved as it is, but gives Caio nothing.
    await s.turn('Public');
    const opened = await ctx.request('GET', `/api/paineis/${s.vendas.id}`, { token: s.as.caio });
    expect(opened.statusCode).toBe(403);
    expect(opened.json()).toEqual({ message: NO_RLS_ROLE_FOR_PERSON });
    expect((await s.saveRoles({ Projeto: [PROJETO], Sul: [SUL] })).statusCode).toBe(200);
    expect(await s.roles()).toHaveLength(2);
    // Moved to another role, it is listed anew: refused.
    expect((await s.saveRoles({ Outro: [PROJETO] })).json()).toEqual({ message: refusedRole('panels') });
    expect((await ctx.request('GET', `/api/paineis/${s.vendas.id}`, { token: s.as.caio })).statusCode).toBe(403);
    expect(embedding.calls.length).toBe(before + 1);

    // Both explanations say why.
    const ignored = { grupo: projeto, papel: 'Projeto', motivo: PUBLIC_GROUP_GRANTS_NO_ROLE };
    expect((await s.whoCanOpen(s.vendas.id)).gruposSemEfeito).toEqual([ignored]);
    expect(await s.explained(s.ids.caio, s.vendas.id)).toMatchObject({
      podeAbrir: false,
      motivos: [{ tipo: 'direto' }],
      papeisRls: [],
      recusa: `${REFUSED.noRole} ${PUBLIC_GROUP_GRANTS_NO_ROLE}: Projeto Expansão.`,
      gruposSemEfeito: [{ ...ignored, via: ['Projeto Expansão'] }],
    });
  });
});

describe('public groups with PUBLIC_GROUPS_GRANT=none', () => {
  const { ctx } = usePublicGroups('none');

  it('refuses linking a public group to a panel or a role, changing nothing', async () => {
    const s = await setup(ctx);
    await s.linkGroups(s.metas.id, [SUL]);
    const refused = await s.linkGroups(s.metas.id, [SUL, PROJETO]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: REFUSED_LINK });
    expect((await ctx.request('GET', `/api/paineis/${s.metas.id}/grupos`, { token: s.token })).json()).toEqual([
      { id: SUL, nome: 'Comercial - Sul', publico: false },
    ]);
    expect((await s.saveRoles({ Projeto: [PROJETO] })).json()).toEqual({ message: refusedRole('none') });
    expect((await s.directory()).find((g) => g.id === PROJETO)).toMatchObject({
      publico: true,
      concede: { paineis: false, papeisRls: false },
    });
  });

  it('opens nothing through a public group linked before it became public, and says why', async () => {
    const s = await setup(ctx);
    await s.turn('Private');
    expect((await s.linkGroups(s.metas.id, [PROJETO])).statusCode).toBe(200);
    expect(await listed(ctx, s.as.ana)).toEqual(['Metas']);

    await s.turn('Public');
    expect(await listed(ctx, s.as.ana)).toEqual([]);
    const opened = await ctx.request('GET', `/api/paineis/${s.metas.id}`, { token: s.as.ana });
    expect(opened.statusCode).toBe(404);
    expect(opened.json()).toEqual({ message: PANEL_NOT_FOUND });
    // Kept, marked, and kept again when the set is saved as it is.
    expect((await s.linkGroups(s.metas.id, [PROJETO, SUL])).json()).toEqual([
      { id: SUL, nome: 'Comercial - Sul', publico: false },
      projeto,
    ]);
    expect(await listed(ctx, s.as.ana)).toEqual([]);
    expect(await listed(ctx, s.as.bia)).toEqual(['Metas']);

    const ignored = { grupo: projeto, papel: null, motivo: PUBLIC_GROUP_GRANTS_NO_PANEL };
    const who = await s.whoCanOpen(s.metas.id);
    expect(who.pessoas.map((p) => p.nome)).not.toContain('Ana');
    expect(who.gruposSemEfeito).toEqual([ignored]);
    expect(await s.explained(s.ids.ana, s.metas.id)).toMatchObject({
      podeAbrir: false,
      motivos: [],
      recusa: `${REFUSED.notLinked} ${PUBLIC_GROUP_GRANTS_NO_PANEL}: Projeto Expansão.`,
      gruposSemEfeito: [{ ...ignored, via: ['Projeto Expansão'] }],
    });
  });
});

describe('public groups with PUBLIC_GROUPS_GRANT=all', () => {
  const { ctx, embedding } = usePublicGroups('all');

  it('lets a public group open panels and give RLS roles, as any group', async () => {
    const s = await setup(ctx);
    expect((await s.linkGroups(s.metas.id, [PROJETO])).statusCode).toBe(200);
    expect((await s.saveRoles({ Projeto: [PROJETO] })).statusCode).toBe(200);
    expect(await listed(ctx, s.as.ana)).toEqual(['Metas']);
    const before = embedding.calls.length;
    expect((await ctx.request('GET', `/api/paineis/${s.vendas.id}`, { token: s.as.caio })).statusCode).toBe(200);
    expect(embedding.calls.slice(before).map((c) => c.viewer.roles)).toEqual([['Projeto']]);
    expect((await s.directory()).find((g) => g.id === PROJETO)).toMatchObject({
      publico: true,
      concede: { paineis: true, papeisRls: true },
    });
    expect((await s.whoCanOpen(s.vendas.id)).gruposSemEfeito).toEqual([]);
    expect(await s.explained(s.ids.caio, s.vendas.id)).toMatchObject({
      podeAbrir: true,
      papeisRls: [{ papel: 'Projeto', motivos: [{ tipo: 'grupo', grupo: projeto, via: ['Projeto Expansão'] }] }],
      gruposSemEfeito: [],
    });
  });
});
