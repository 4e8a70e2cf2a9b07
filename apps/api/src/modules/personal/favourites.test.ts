import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/context.ts';
import { fixedEmbedding } from '../../../test/fixed-embedding.ts';
import { createAdmin, createUser, link, panel } from '../../../test/fixtures.ts';
import { rows } from '../../db/client.ts';

const NOT_FOUND = { message: 'Painel não encontrado.' };

describe('favourites and recently opened panels (docs/requirements.md#personal)', () => {
  const ctx = useTestApp({ embedding: fixedEmbedding('t') });

  async function setup() {
    const ana = await createUser(ctx.db);
    const bia = await createUser(ctx.db);
    const admin = await createAdmin(ctx.db);
    const panels = [];
    for (let i = 1; i <= 8; i++) panels.push(await panel(ctx.db, { nomePainel: `Painel ${i}`, ordem: 10 - i }));
    for (const p of panels) await link(ctx.db, p.id, [ana.id]);
    return {
      ana: await ctx.tokenFor(ana),
      anaUser: ana,
      bia: await ctx.tokenFor(bia),
      admin: await ctx.tokenFor(admin),
      panels,
    };
  }
  const favourites = async (token: string) => {
    const res = await ctx.request('GET', '/api/favoritos', { token });
    expect(res.statusCode).toBe(200);
    return res.json<{ paineis: number[] }>().paineis;
  };
  const recents = async (token: string) => {
    const res = await ctx.request('GET', '/api/recentes', { token });
    expect(res.statusCode).toBe(200);
    return res.json<{ paineis: number[] }>().paineis;
  };
  const stored = () => rows<{ usuario_id: string; painel_id: number }>(ctx.db, sql`select * from favoritos`);

  it('keeps each person’s favourites apart, idempotently, in the list’s order, across sign-out', async () => {
    const s = await setup();
    const [p1, p2, p3] = s.panels;
    for (const p of [p1!, p3!, p1!]) {
      expect((await ctx.request('PUT', `/api/favoritos/${p.id}`, { token: s.ana })).statusCode).toBe(204);
    }
    // Screen order: by ordem, which runs against the ids here.
    expect(await favourites(s.ana)).toEqual([p3!.id, p1!.id]);
    expect(await favourites(s.admin)).toEqual([]);

    expect((await ctx.request('DELETE', `/api/favoritos/${p1!.id}`, { token: s.ana })).statusCode).toBe(204);
    expect((await ctx.request('DELETE', `/api/favoritos/${p1!.id}`, { token: s.ana })).statusCode).toBe(204);
    expect((await ctx.request('DELETE', `/api/favoritos/${p2!.id}`, { token: s.ana })).statusCode).toBe(204);
    expect(await favourites(s.ana)).toEqual([p3!.id]);

    expect((await ctx.request('POST', '/api/auth/logout-complete', { token: s.ana })).statusCode).toBe(204);
    const again = await ctx.tokenFor(s.anaUser);
    expect((await ctx.request('GET', '/api/favoritos', { token: s.ana })).statusCode).toBe(401);
    expect(await favourites(again)).toEqual([p3!.id]);
  });

  it('refuses with 404 a panel the person may not open, and stores nothing', async () => {
    const s = await setup();
    const res = await ctx.request('PUT', `/api/favoritos/${s.panels[0]!.id}`, { token: s.bia });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND);
    expect((await ctx.request('PUT', '/api/favoritos/999', { token: s.admin })).json()).toEqual(NOT_FOUND);
    expect(await stored()).toEqual([]);
  });

  it('drops a panel the person lost access to, and a deleted panel, from the answer', async () => {
    const s = await setup();
    const [p1, p2] = s.panels;
    await ctx.request('PUT', `/api/favoritos/${p1!.id}`, { token: s.ana });
    await ctx.request('PUT', `/api/favoritos/${p2!.id}`, { token: s.ana });
    await link(ctx.db, p1!.id, []);
    expect(await favourites(s.ana)).toEqual([p2!.id]);
    expect((await ctx.request('DELETE', `/api/paineis/${p2!.id}`, { token: s.admin })).statusCode).toBe(204);
    expect(await favourites(s.ana)).toEqual([]);
  });

  it('answers 400 in Portuguese for an id that is not one', async () => {
    const s = await setup();
    const res = await ctx.request('PUT', '/api/favoritos/abc', { token: s.ana });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/painelId/);
  });

  it('lists the last 5 distinct panels opened, newest first, written or still queued', async () => {
    const s = await setup();
    const open = async (id: number) => {
      expect((await ctx.request('GET', `/api/paineis/${id}`, { token: s.ana })).statusCode).toBe(200);
      // Each opening in a millisecond of its own, as people open panels.
      await new Promise((resolve) => setTimeout(resolve, 2));
    };
    const [p1, p2, p3, p4, p5, p6, p7] = s.panels.map((p) => p.id);
    expect(await recents(s.ana)).toEqual([]);
    for (const id of [p1!, p2!, p3!, p1!, p4!]) await open(id);
    await ctx.app.openingRecorder.flush();
    // Older than anything written, by the database's clock.
    await ctx.db.execute(sql`update visualizacoes set momento = momento - interval '1 minute'`);
    for (const id of [p5!, p6!, p7!, p2!]) await open(id); // still queued
    expect(await recents(s.ana)).toEqual([p2!, p7!, p6!, p5!, p4!]);
    await ctx.app.openingRecorder.flush();
    expect(await recents(s.ana)).toEqual([p2!, p7!, p6!, p5!, p4!]);
    // Someone else's openings are theirs.
    expect(await recents(s.bia)).toEqual([]);
  });

  it('leaves out panels the person may no longer open, and views that lost their person', async () => {
    const s = await setup();
    const [p1, p2, p3] = s.panels.map((p) => p.id);
    for (const id of [p1!, p2!, p3!]) await ctx.request('GET', `/api/paineis/${id}`, { token: s.ana });
    await ctx.app.openingRecorder.flush();
    await link(ctx.db, p3!, []);
    // An anonymised view keeps no person (docs/requirements.md#usage): it is no one's recent.
    await ctx.db.execute(sql`update visualizacoes set usuario_id = null where painel_id = ${p2!}`);
    expect(await recents(s.ana)).toEqual([p1!]);
  });
});
