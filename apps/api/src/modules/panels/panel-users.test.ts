import { fixedEmbedding } from '../../../test/fixed-embedding.ts';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DemoUser } from '../../demo/demo-data.ts';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser, link, panel } from '../../../test/fixtures.ts';

const ADMIN_ONLY = 'Acesso restrito a administradores.';
const PANEL_NOT_FOUND = 'Painel não encontrado.';

/** A stand-in for Power BI, so a panel a user may see answers 200 instead of the 503 of "not configured". */
const embedding = fixedEmbedding('token-de-teste');

interface Vinculado {
  id: string;
  email: string;
  displayName: string;
}

const asLinked = (u: DemoUser): Vinculado => ({ id: u.id, email: u.email, displayName: u.displayName });

describe('usuários vinculados a um painel', () => {
  const ctx = useTestApp({ embedding });
  let adminToken: string;
  let painelId: number;
  let url: string;
  let carla: DemoUser;
  let ana: DemoUser;
  let bruno: DemoUser;
  let erica: DemoUser;

  beforeEach(async () => {
    adminToken = await ctx.tokenFor(await createAdmin(ctx.db));
    carla = await createUser(ctx.db, { displayName: 'Carla Souza', email: 'carla@empresa.com.br' });
    ana = await createUser(ctx.db, { displayName: 'Ana Lima', email: 'ana@empresa.com.br' });
    erica = await createUser(ctx.db, { displayName: 'Érica Melo', email: 'erica@empresa.com.br' });
    bruno = await createUser(ctx.db, { displayName: 'bruno Dias', email: 'bruno@empresa.com.br' });
    painelId = (await panel(ctx.db, { nomePainel: 'Vendas' })).id;
    url = `/api/paineis/${painelId}/usuarios`;
  });

  async function linked(id = painelId): Promise<Vinculado[]> {
    const res = await ctx.request('GET', `/api/paineis/${id}/usuarios`, { token: adminToken });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  const save = (body: unknown, token = adminToken, id = painelId) =>
    ctx.request('POST', `/api/paineis/${id}/usuarios`, { token, body });

  describe('GET /api/paineis/{id}/usuarios', () => {
    it('answers [] and then the linked users, each {id, email, displayName}, sorted by display name', async () => {
      expect(await linked()).toEqual([]);
      await link(ctx.db, painelId, [carla.id, erica.id, ana.id, bruno.id]);
      // pt-BR order: accents and case do not push a name to the end.
      expect(await linked()).toEqual([asLinked(ana), asLinked(bruno), asLinked(carla), asLinked(erica)]);
    });
  });

  describe('POST /api/paineis/{id}/usuarios', () => {
    it('links the given users and answers the new list', async () => {
      const res = await save([erica.id, carla.id, ana.id]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([asLinked(ana), asLinked(carla), asLinked(erica)]);
      expect(await linked()).toEqual(res.json());
    });

    it('replaces the whole set, ignores duplicates, and [] unlinks everyone', async () => {
      await save([ana.id, bruno.id, carla.id]);

      const replaced = await save([erica.id, bruno.id, erica.id, ` ${bruno.id} `]);
      expect(replaced.statusCode).toBe(200);
      expect(replaced.json()).toEqual([asLinked(bruno), asLinked(erica)]);
      expect(await linked()).toEqual([asLinked(bruno), asLinked(erica)]);

      const cleared = await save([]);
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json()).toEqual([]);
      expect(await linked()).toEqual([]);
    });

    it("only touches that panel's links", async () => {
      const other = (await panel(ctx.db)).id;
      await link(ctx.db, other, [ana.id, carla.id]);
      await save([bruno.id]);
      await save([]);
      expect(await linked(other)).toEqual([asLinked(ana), asLinked(carla)]);
    });

    it('rejects unknown user ids with 400 naming them, and changes nothing', async () => {
      await save([ana.id, carla.id]);
      const res = await save([bruno.id, 'fantasma-1', 'fantasma-2']);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Usuários não encontrados: fantasma-1, fantasma-2.' });
      expect(await linked()).toEqual([asLinked(ana), asLinked(carla)]);

      const many = await save(Array.from({ length: 7 }, (_, i) => `ninguem-${i}`));
      expect(many.statusCode).toBe(400);
      expect(many.json().message).toMatch(/^Usuários não encontrados: ninguem-0, .* e mais 2\.$/);
      expect(await linked()).toEqual([asLinked(ana), asLinked(carla)]);
    });

    it('rejects a body that is not a list of ids with 400, changing nothing', async () => {
      await save([ana.id]);
      const bodies: unknown[] = [{ usuarios: [bruno.id] }, [1, 2], [''], ['   ']];
      for (const body of bodies) {
        const res = await save(body);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toEqual(expect.any(String));
      }
      const text = await ctx.request('POST', url, {
        token: adminToken,
        body: JSON.stringify(bruno.id),
        headers: { 'content-type': 'application/json' },
      });
      expect(text.statusCode).toBe(400);
      expect(text.json()).toEqual({ message: 'Corpo da requisição: O corpo deve ser uma lista de ids de usuários.' });
      expect(await linked()).toEqual([asLinked(ana)]);
    });
  });

  describe('unknown panels', () => {
    it('answer 404 on GET and POST, and 400 for an id that is not a number', async () => {
      for (const res of [
        await ctx.request('GET', `/api/paineis/${painelId + 50}/usuarios`, { token: adminToken }),
        await save([ana.id], adminToken, painelId + 50),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: PANEL_NOT_FOUND });
      }
      expect((await ctx.request('GET', '/api/paineis/abc/usuarios', { token: adminToken })).statusCode).toBe(400);
      expect((await save([ana.id], adminToken, 0)).statusCode).toBe(400);
    });
  });

  describe('what a linked user sees', () => {
    it('linking shows the panel to that user; unlinking hides it (404)', async () => {
      const anaToken = await ctx.tokenFor(ana);
      const brunoToken = await ctx.tokenFor(bruno);
      const listFor = async (token: string) => {
        const res = await ctx.request('GET', '/api/paineis', { token });
        expect(res.statusCode).toBe(200);
        return res.json<{ id: number }[]>().map((p) => p.id);
      };

      expect(await listFor(anaToken)).toEqual([]);
      expect((await ctx.request('GET', `/api/paineis/${painelId}`, { token: anaToken })).statusCode).toBe(404);

      expect((await save([ana.id])).statusCode).toBe(200);
      expect(await listFor(anaToken)).toEqual([painelId]);
      const open = await ctx.request('GET', `/api/paineis/${painelId}`, { token: anaToken });
      expect(open.statusCode).toBe(200);
      expect(open.json()).toMatchObject({ id: painelId, nomePainel: 'Vendas', embedToken: 'token-de-teste' });
      expect(await listFor(brunoToken)).toEqual([]);

      expect((await save([bruno.id])).statusCode).toBe(200);
      expect(await listFor(anaToken)).toEqual([]);
      const hidden = await ctx.request('GET', `/api/paineis/${painelId}`, { token: anaToken });
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json()).toEqual({ message: PANEL_NOT_FOUND });
      expect(await listFor(brunoToken)).toEqual([painelId]);

      expect((await save([])).statusCode).toBe(200);
      expect(await listFor(brunoToken)).toEqual([]);
      expect((await ctx.request('GET', `/api/paineis/${painelId}`, { token: brunoToken })).statusCode).toBe(404);
    });
  });

  describe('non-admins', () => {
    it('get 403 on GET and POST, and nothing changes', async () => {
      await save([carla.id]);
      const anaToken = await ctx.tokenFor(ana);

      const get = await ctx.request('GET', url, { token: anaToken });
      expect(get.statusCode).toBe(403);
      expect(get.json()).toEqual({ message: ADMIN_ONLY });

      // Not even to link themselves.
      const post = await save([ana.id], anaToken);
      expect(post.statusCode).toBe(403);
      expect(post.json()).toEqual({ message: ADMIN_ONLY });

      const clear = await save([], anaToken);
      expect(clear.statusCode).toBe(403);

      expect(await linked()).toEqual([asLinked(carla)]);
      expect((await ctx.request('GET', '/api/paineis', { token: anaToken })).json()).toEqual([]);
    });
  });
});
