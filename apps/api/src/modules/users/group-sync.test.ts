import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Grupo365 } from '@paineis/contract/groups';
import type { StandInGroup } from '@paineis/microsoft-stand-ins/types';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, panel } from '../../../test/fixtures.ts';
import { microsoftConfig, person, useStandIns } from '../../../test/microsoft.ts';
import { fixedEmbedding } from '../../../test/fixed-embedding.ts';
import { rows } from '../../db/client.ts';
import { groupMembership } from './group-membership.ts';

const gid = (n: number) => `0e0e0e0e-0000-4000-8000-${String(n).padStart(12, '0')}`;
const pid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const COMERCIAL = gid(1);
const SUL = gid(2);
const NORTE = gid(3);
const LISTA = gid(4);
const PROJETO = gid(5);

/** Comercial ⊃ Sul ⊃ {1, 2}, Comercial ⊃ Norte ⊃ {3}; a distribution list; a Microsoft 365 group of 50. */
const groups = (): StandInGroup[] => [
  { id: COMERCIAL, displayName: 'Comercial', description: 'Vendas', members: [SUL, NORTE] },
  { id: SUL, displayName: 'Comercial - Sul', members: [pid(1), pid(2)] },
  { id: NORTE, displayName: 'Comercial - Norte', members: [pid(3)] },
  { id: LISTA, displayName: 'Lista de avisos', securityEnabled: false, mailEnabled: true, members: [pid(4)] },
  {
    id: PROJETO,
    displayName: 'Projeto Expansão',
    groupTypes: ['Unified'],
    mailEnabled: true,
    securityEnabled: false,
    members: Array.from({ length: 50 }, (_, i) => pid(100 + i)),
  },
];

describe('groups from Microsoft Graph (delta query), and access through them', () => {
  const waits: number[] = [];
  const standIns = useStandIns({ people: [] });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    graphOptions: { sleep: async (ms) => void waits.push(ms) },
    embedding: fixedEmbedding('token-de-teste'),
  }));
  let admin: string;

  beforeEach(async () => {
    const graph = standIns.current.graph;
    graph.reset();
    graph.setPeople(Array.from({ length: 150 }, (_, i) => person(pid(i), `Pessoa ${i}`)));
    graph.setGroups(groups());
    // Small pages, so that a round spans pages and a large group comes in several objects.
    graph.setDeltaPaging({ groupsPerPage: 2, membersPerObject: 20 });
    admin = await ctx.tokenFor(await createAdmin(ctx.db, { id: 'admin-local' }));
  });

  const sync = () => ctx.request('POST', '/api/usuarios365/sincronizar', { token: admin });
  const deltaCalls = () =>
    standIns.current.graph.requests.filter((r) => new URL(r.url).pathname === '/v1.0/groups/delta');
  const listed = async (n: number) =>
    (await ctx.request('GET', '/api/paineis', { token: await ctx.tokenFor({ id: pid(n), role: 'User' } as never) }))
      .json<{ nomePainel: string }[]>()
      .map((p) => p.nomePainel);

  it('reads every security and Microsoft 365 group with its members over several pages, then only changes', async () => {
    const first = await sync();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ ativos: 150, grupos: 4 });
    const calls = deltaCalls();
    expect(calls.length).toBeGreaterThan(2);
    expect(new URL(calls[0]!.url).searchParams.get('$select')).toBe(
      'displayName,description,securityEnabled,groupTypes,visibility,members',
    );
    const groupsList = (await ctx.request('GET', '/api/grupos365', { token: admin })).json();
    // Projeto Expansão is public (Graph's default for a Microsoft 365 group): by default it opens panels, no role.
    const closed = { publico: false, concede: { paineis: true, papeisRls: true } };
    expect(groupsList).toEqual([
      { id: COMERCIAL, nome: 'Comercial', descricao: 'Vendas', tipo: 'seguranca', membros: 3, ...closed },
      { id: NORTE, nome: 'Comercial - Norte', descricao: null, tipo: 'seguranca', membros: 1, ...closed },
      { id: SUL, nome: 'Comercial - Sul', descricao: null, tipo: 'seguranca', membros: 2, ...closed },
      {
        id: PROJETO,
        nome: 'Projeto Expansão',
        descricao: null,
        tipo: 'microsoft365',
        membros: 50,
        publico: true,
        concede: { paineis: true, papeisRls: false },
      },
    ]);

    // The next sync follows the delta link: one page, nothing changed.
    standIns.current.graph.requests.length = 0;
    expect((await sync()).json()).toMatchObject({ grupos: 4 });
    const again = deltaCalls();
    expect(again).toHaveLength(1);
    expect(new URL(again[0]!.url).searchParams.has('$deltatoken')).toBe(true);
  });

  it('gives and takes access as people join and leave nested groups in Entra, at the next sync', async () => {
    await sync();
    const metas = await panel(ctx.db, { nomePainel: 'Metas' });
    await ctx.request('POST', `/api/paineis/${metas.id}/grupos`, { token: admin, body: [COMERCIAL] });
    expect(await listed(1)).toEqual(['Metas']);
    expect(await listed(3)).toEqual(['Metas']);
    expect(await listed(4)).toEqual([]);

    const graph = standIns.current.graph;
    graph.removeGroupMember(SUL, pid(1));
    graph.addGroupMember(NORTE, pid(4));
    // Not before the sync: the portal knows Entra only through it.
    expect(await listed(1)).toEqual(['Metas']);
    await sync();
    expect(await listed(1)).toEqual([]);
    expect(await listed(4)).toEqual(['Metas']);
    expect(await listed(2)).toEqual(['Metas']);

    // A nested group deleted in Entra takes its people's access with it.
    graph.deleteGroup(NORTE);
    await sync();
    expect(await listed(3)).toEqual([]);
    expect(await listed(4)).toEqual([]);
    const membership = await groupMembership(ctx.db);
    expect(membership.groups.has(NORTE)).toBe(false);
  });

  it('starts over with every group when Graph no longer honours the saved delta link', async () => {
    await sync();
    standIns.current.graph.expireDeltaTokens();
    standIns.current.graph.removeGroupMember(SUL, pid(2));
    standIns.current.graph.requests.length = 0;
    const res = await sync();
    expect(res.json()).toMatchObject({ grupos: 4 });
    const statuses = deltaCalls().map((r) => r.status);
    expect(statuses[0]).toBe(410);
    expect(statuses.slice(1).every((s) => s === 200)).toBe(true);
    expect((await groupMembership(ctx.db)).groupsOf(pid(2)).size).toBe(0);
    expect([...(await groupMembership(ctx.db)).groupsOf(pid(1))].sort()).toEqual([COMERCIAL, SUL].sort());
  });

  it('starts over when Graph answers the saved link syncStateNotFound with another 4xx, as an expired token may be', async () => {
    await sync();
    const graph = standIns.current.graph;
    for (const [status, member] of [
      [403, pid(2)],
      [409, pid(1)],
    ] as const) {
      graph.expireDeltaTokens({ status });
      graph.removeGroupMember(SUL, member);
      graph.requests.length = 0;
      expect((await sync()).json()).toMatchObject({ grupos: 4 });
      const statuses = deltaCalls().map((r) => r.status);
      expect(statuses[0]).toBe(status);
      expect(new URL(deltaCalls()[1]!.url).searchParams.has('$deltatoken')).toBe(false);
      expect(statuses.slice(1).every((s) => s === 200)).toBe(true);
      expect((await groupMembership(ctx.db)).groupsOf(member).size).toBe(0);
    }
    // Another refusal of the link is not taken for an expired one: the groups stay as they were.
    graph.expireDeltaTokens({ status: 403 });
    graph.removeGroupMember(NORTE, pid(3));
    graph.failNext(403, 1, 3);
    expect((await sync()).json()).toMatchObject({ grupos: null });
    expect((await groupMembership(ctx.db)).groupsOf(pid(3)).size).toBe(2);
  });

  it('merges a group Graph gives in several objects on pages apart: a member removed on one and added again on a later one stays', async () => {
    await sync();
    const graph = standIns.current.graph;
    // One member change an object, one object a page, each change as made: Graph's replays.
    graph.setDeltaPaging({ groupsPerPage: 1, membersPerObject: 1, everyChange: true });
    graph.removeGroupMember(SUL, pid(1));
    graph.addGroupMember(SUL, pid(9));
    graph.addGroupMember(NORTE, pid(8));
    graph.addGroupMember(SUL, pid(1));
    graph.removeGroupMember(NORTE, pid(8));
    graph.requests.length = 0;
    expect((await sync()).json()).toMatchObject({ grupos: 4 });
    const pages = deltaCalls();
    expect(pages.length).toBe(5);

    const membership = await groupMembership(ctx.db);
    expect([...membership.groupsOf(pid(1))].sort()).toEqual([COMERCIAL, SUL].sort());
    expect([...membership.groupsOf(pid(9))].sort()).toEqual([COMERCIAL, SUL].sort());
    expect(membership.groupsOf(pid(8)).size).toBe(0);
    const listing = (await ctx.request('GET', '/api/grupos365', { token: admin })).json<Grupo365[]>();
    expect(listing.find((g) => g.id === SUL)).toMatchObject({ nome: 'Comercial - Sul', membros: 3 });
    expect(listing.find((g) => g.id === NORTE)).toMatchObject({ nome: 'Comercial - Norte', membros: 1 });
  });

  it('merges the objects of a large group split over the pages of a first round', async () => {
    // Projeto Expansão's 50 members come in 7 objects of 8, dealt out among the other groups' pages.
    standIns.current.graph.setDeltaPaging({ groupsPerPage: 2, membersPerObject: 8 });
    expect((await sync()).json()).toMatchObject({ grupos: 4 });
    const listing = (await ctx.request('GET', '/api/grupos365', { token: admin })).json<Grupo365[]>();
    expect(listing.find((g) => g.id === PROJETO)).toMatchObject({ nome: 'Projeto Expansão', membros: 50 });
    const membership = await groupMembership(ctx.db);
    for (let i = 0; i < 50; i++) expect(membership.groupsOf(pid(100 + i)).has(PROJETO), `pessoa ${i}`).toBe(true);
  });

  it('waits as Graph asks when it throttles the groups, and keeps the previous ones when Graph fails', async () => {
    await sync();
    const metas = await panel(ctx.db, { nomePainel: 'Metas' });
    await ctx.request('POST', `/api/paineis/${metas.id}/grupos`, { token: admin, body: [SUL] });
    const graph = standIns.current.graph;
    graph.removeGroupMember(SUL, pid(1));
    // The people, the app role's holders (service principal, assignments): 3 requests; then the groups' delta.
    graph.failNext(500, 20, 3);
    const failed = await sync();
    expect(failed.statusCode).toBe(200);
    expect(failed.json()).toMatchObject({ ativos: 150, grupos: null });
    expect(await listed(1)).toEqual(['Metas']);

    graph.reset();
    waits.length = 0;
    graph.throttleNext(7, 2, 3);
    expect((await sync()).json()).toMatchObject({ grupos: 4 });
    expect(waits).toEqual([7000, 7000]);
    expect(await listed(1)).toEqual([]);
  });

  it("stores each group's visibility, and follows a group turning public through the delta: its role then gives nothing", async () => {
    const graph = standIns.current.graph;
    const diretoria: StandInGroup = {
      id: gid(6),
      displayName: 'Diretoria',
      groupTypes: ['Unified'],
      mailEnabled: true,
      securityEnabled: false,
      visibility: 'Private',
      members: [pid(7)],
    };
    graph.upsertGroup(diretoria);
    await sync();
    const stored = async () =>
      Object.fromEntries(
        (await rows<{ id: string; visibilidade: string | null }>(ctx.db, sql`select id, visibilidade from grupos`)).map(
          (g) => [g.id, g.visibilidade],
        ),
      );
    expect(await stored()).toEqual({
      [COMERCIAL]: null,
      [SUL]: null,
      [NORTE]: null,
      [PROJETO]: 'Public',
      [diretoria.id]: 'Private',
    });

    // An RLS role lists the private group: its member opens the panel with the role.
    const vendas = await panel(ctx.db, {
      nomePainel: 'Vendas',
      usaRls: true,
      rlsConfigurations: [{ roleName: 'Diretoria', userEmails: [], grupos: [diretoria.id] }],
    });
    await ctx.request('POST', `/api/paineis/${vendas.id}/grupos`, { token: admin, body: [COMERCIAL, diretoria.id] });
    const member = await ctx.tokenFor({ id: pid(7), role: 'User' } as never);
    const open = async () => (await ctx.request('GET', `/api/paineis/${vendas.id}`, { token: member })).statusCode;
    expect(await open()).toBe(200);

    // Made public in Entra: the next sync (from the delta link) reads it, and the role goes to nobody through it.
    graph.upsertGroup({ ...diretoria, visibility: 'Public' });
    standIns.current.graph.requests.length = 0;
    await sync();
    expect(new URL(deltaCalls()[0]!.url).searchParams.has('$deltatoken')).toBe(true);
    expect((await stored())[diretoria.id]).toBe('Public');
    expect(await open()).toBe(403);
    const listing = (await ctx.request('GET', '/api/grupos365', { token: admin })).json<Grupo365[]>();
    expect(listing.find((g) => g.id === diretoria.id)).toMatchObject({ publico: true });

    // Private again: the role is given again.
    graph.upsertGroup(diretoria);
    await sync();
    expect((await stored())[diretoria.id]).toBe('Private');
    expect(await open()).toBe(200);
  });
});
