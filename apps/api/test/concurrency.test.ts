import { isDeepStrictEqual } from 'node:util';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import type { DemoUser } from '../src/demo/demo-data.ts';
import { useTestApp } from './context.ts';
import { classificacao, createAdmin, createUser, panel } from './fixtures.ts';
import { seededRandom, type Random } from './random.ts';

/**
 * Concurrency: many writes to one panel (and to its classification's order) at once, through one real
 * app. Each replacement is all-or-nothing, so whatever the interleaving the panel must end in exactly one of the
 * states that were submitted, never a mix of two, and every request must be answered 2xx (none of these calls
 * has a reason to be refused, and a 5xx, a deadlock or a duplicate key among them, is a defect). On PostgreSQL
 * the requests really run in parallel (a pool of 4 connections); on PGlite they serialise: both must hold.
 */

const WORKSPACE = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const PANELS = 8;
const USERS = 12;
const ROLE_NAMES = ['Sul', 'Norte', 'Leste', 'Oeste', 'Centro', 'Nordeste'];

type Order = Record<number, number>;
type Rls = { roleName: string; userEmails: string[]; grupos?: string[] }[];
type Response = { statusCode: number; body: string; json: <T = any>() => T };

const SEED = Number(process.env.CONCURRENCY_SEED ?? Date.now() % 1_000_000);

describe(`${inject('database')}: concurrent replacements on one panel end in one submitted state (seed ${SEED})`, () => {
  const ctx = useTestApp();
  let random: Random;
  let token: string;
  let classificacaoId: number;
  let panelIds: number[];
  let painelId: number;
  let users: DemoUser[];

  beforeEach(async () => {
    random = seededRandom(SEED);
    token = await ctx.tokenFor(await createAdmin(ctx.db));
    classificacaoId = (await classificacao(ctx.db, 'Comercial')).id;
    panelIds = [];
    for (let i = 1; i <= PANELS; i++) {
      panelIds.push((await panel(ctx.db, { nomePainel: `Painel ${i}`, classificacaoId, ordem: i })).id);
    }
    painelId = panelIds[0]!;
    users = [];
    for (let i = 0; i < USERS; i++) users.push(await createUser(ctx.db));
  });

  // --- what each kind of request submits, and how the state it leaves is read back ---

  /** A permutation of the ordens 1..8 over the classification's panels, listed in a random order too. */
  function randomOrder(): Order {
    const ordens = random.shuffle(panelIds.map((_, i) => i + 1));
    return Object.fromEntries(panelIds.map((id, i) => [id, ordens[i]!]));
  }
  const reorder = (order: Order) =>
    ctx.request('POST', '/api/paineis/reorder', {
      token,
      // Listed in a random order: each request would lock the rows in a different order without care.
      body: random.shuffle(Object.entries(order).map(([id, novaOrdem]) => ({ painelId: Number(id), novaOrdem }))),
    });
  async function currentOrder(): Promise<Order> {
    const res = await ctx.request('GET', '/api/paineis', { token });
    expect(res.statusCode).toBe(200);
    const listed = res
      .json<{ id: number; ordem: number; classificacaoId: number }[]>()
      .filter((p) => p.classificacaoId === classificacaoId);
    expect(listed.map((p) => p.id).sort((a, b) => a - b)).toEqual(panelIds);
    return Object.fromEntries(listed.map((p) => [p.id, p.ordem]));
  }

  /** 1 to 4 roles from a shared pool (so concurrent requests clash on names), with e-mails unique to request n. */
  function randomRls(n: number): Rls {
    const names = random.shuffle(ROLE_NAMES).slice(0, random.int(1, 4));
    return names.map((roleName, j) => ({
      roleName,
      userEmails: Array.from({ length: random.int(0, 3) }, (_, k) => `r${n}.${j}.${k}@empresa.com.br`),
    }));
  }
  /** As the API answers it: roles in the given order, e-mails sorted, and the groups (none here). */
  const normalRls = (rls: Rls): Rls =>
    rls.map((r) => ({ roleName: r.roleName, userEmails: [...r.userEmails].sort(), grupos: r.grupos ?? [] }));
  const replaceRls = (rls: Rls) => ctx.request('POST', `/api/paineis/${painelId}/rls`, { token, body: rls });
  async function currentRls(): Promise<Rls> {
    const res = await ctx.request('GET', `/api/paineis/${painelId}/rls`, { token });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  /** A random subset of the users (possibly none), listed in a random order. */
  const randomLinks = (): string[] => random.shuffle(users.map((u) => u.id)).slice(0, random.int(0, 8));
  const normalLinks = (ids: string[]) => [...new Set(ids)].sort();
  const replaceLinks = (ids: string[]) =>
    ctx.request('POST', `/api/paineis/${painelId}/usuarios`, { token, body: ids });
  const linksOf = (res: Response) => normalLinks(res.json<{ id: string }[]>().map((u) => u.id));
  async function currentLinks(): Promise<string[]> {
    const res = await ctx.request('GET', `/api/paineis/${painelId}/usuarios`, { token });
    expect(res.statusCode).toBe(200);
    return linksOf(res);
  }

  // --- checks ---

  /** Every request answered 2xx; a readable list of the others otherwise. */
  function expectAll2xx(label: string, responses: Response[]) {
    const bad = responses
      .map((r, i) => ({ i, status: r.statusCode, body: r.body }))
      .filter((r) => r.status < 200 || r.status >= 300);
    expect(bad, `${label}: ${bad.length} of ${responses.length} requests not 2xx`).toEqual([]);
  }

  function expectOneOf<T>(label: string, actual: T, submitted: T[]) {
    const matches = submitted.some((s) => isDeepStrictEqual(s, actual));
    expect(matches, `${label}: ${JSON.stringify(actual)} is none of the ${submitted.length} submitted states`).toBe(
      true,
    );
  }

  it('100 reorders of one classification at once: every one 2xx, the order is one of them', async () => {
    const orders = Array.from({ length: 100 }, randomOrder);
    const responses = await Promise.all(orders.map(reorder));
    expectAll2xx('reorder', responses);
    expectOneOf('order', await currentOrder(), orders);
  });

  it("100 replacements of one panel's RLS roles at once: every one 2xx, the roles are one of them", async () => {
    const configs = Array.from({ length: 100 }, (_, n) => randomRls(n));
    const submitted = configs.map(normalRls);
    const responses = await Promise.all(configs.map(replaceRls));
    expectAll2xx('rls', responses);
    // Each answer is read after its commit: a later replacement may show, but never a mix.
    for (const res of responses) expectOneOf('rls answer', res.json<Rls>(), submitted);
    expectOneOf('rls', await currentRls(), submitted);
  });

  it("100 replacements of one panel's linked users at once: every one 2xx, the links are one of them", async () => {
    const sets = Array.from({ length: 100 }, randomLinks);
    const submitted = sets.map(normalLinks);
    const responses = await Promise.all(sets.map(replaceLinks));
    expectAll2xx('links', responses);
    for (const res of responses) expectOneOf('links answer', linksOf(res), submitted);
    expectOneOf('links', await currentLinks(), submitted);
  });

  it('reorders, RLS and link replacements and PUTs of the same panel, all at once: each aspect ends in one', async () => {
    const orders = Array.from({ length: 40 }, randomOrder);
    const configs = Array.from({ length: 40 }, (_, n) => randomRls(n));
    const sets = Array.from({ length: 40 }, randomLinks);
    // PUTs keep the panel in its classification and give no ordem, so they leave the order alone; their
    // rlsConfigurations replace the roles, so they are among the RLS states that may win.
    const puts = Array.from({ length: 10 }, (_, n) => ({
      nomePainel: `Renomeado ${n}`,
      workspaceId: WORKSPACE,
      reportId: `22222222-2222-4222-8222-${String(n).padStart(12, '0')}`,
      usaRls: true,
      classificacaoId,
      rlsConfigurations: randomRls(1000 + n),
    }));
    type Call = { kind: 'reorder' | 'rls' | 'links' | 'put'; send: () => Promise<Response> };
    const calls: Call[] = random.shuffle([
      ...orders.map((o): Call => ({ kind: 'reorder', send: () => reorder(o) })),
      ...configs.map((c): Call => ({ kind: 'rls', send: () => replaceRls(c) })),
      ...sets.map((s): Call => ({ kind: 'links', send: () => replaceLinks(s) })),
      ...puts.map((p): Call => ({
        kind: 'put',
        send: () => ctx.request('PUT', `/api/paineis/${painelId}`, { token, body: p }),
      })),
    ]);
    const responses = await Promise.all(calls.map((c) => c.send()));
    expectAll2xx('mixed', responses);

    const rlsStates = [...configs, ...puts.map((p) => p.rlsConfigurations)].map(normalRls);
    const linkStates = sets.map(normalLinks);
    responses.forEach((res, i) => {
      if (calls[i]!.kind === 'rls') expectOneOf('rls answer', res.json<Rls>(), rlsStates);
      if (calls[i]!.kind === 'links') expectOneOf('links answer', linksOf(res), linkStates);
      if (calls[i]!.kind === 'put') expect(res.json()).toMatchObject({ id: painelId, classificacaoId });
    });

    expectOneOf('order', await currentOrder(), orders);
    expectOneOf('rls', await currentRls(), rlsStates);
    expectOneOf('links', await currentLinks(), linkStates);
    const dados = await ctx.request('GET', `/api/paineis/${painelId}/dados`, { token });
    expect(dados.statusCode).toBe(200);
    const { nomePainel, reportId, usaRls, rlsConfigurations } = dados.json<{
      nomePainel: string;
      reportId: string;
      usaRls: boolean;
      rlsConfigurations: Rls;
    }>();
    // The panel's own fields come from one PUT, whole.
    expectOneOf(
      'panel fields',
      { nomePainel, reportId, usaRls },
      puts.map((p) => ({ nomePainel: p.nomePainel, reportId: p.reportId, usaRls: p.usaRls })),
    );
    expectOneOf('rls in dados', rlsConfigurations, rlsStates);
  });
});
