import { beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/context.ts';
import { classificacao, createAdmin, createUser, panel } from '../../../test/fixtures.ts';

const CLASSIFICATION_NOT_FOUND = 'Classificação não encontrada.';
const ADMIN_ONLY = 'Acesso restrito a administradores.';
const NOME_OBRIGATORIO = 'Nome (nome) é obrigatório.';

interface Classificacao {
  id: number;
  nome: string;
  descricao: string | null;
  ativo: boolean;
  dataCadastro: string;
}
type ClassificacaoAdmin = Classificacao & { quantidadePaineis: number };

describe('classificações', () => {
  const ctx = useTestApp();
  let adminToken: string;
  let userToken: string;

  beforeEach(async () => {
    adminToken = await ctx.tokenFor(await createAdmin(ctx.db));
    userToken = await ctx.tokenFor(await createUser(ctx.db));
  });

  /** Everything the database holds, as the admin list shows it: the baseline for "nothing changed". */
  async function adminList(): Promise<ClassificacaoAdmin[]> {
    const res = await ctx.request('GET', '/api/classificacoes/admin', { token: adminToken });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  /** The stored classification `c` as the API answers it, with the fields it should have now. */
  const answerFor = (
    c: { id: number; dataCadastro: string },
    now: Pick<Classificacao, 'nome' | 'descricao' | 'ativo'>,
  ) => ({
    id: c.id,
    ...now,
    dataCadastro: c.dataCadastro,
  });
  const create = (body: unknown, token = adminToken) => ctx.request('POST', '/api/classificacoes', { token, body });
  const update = (id: number | string, body: unknown, token = adminToken) =>
    ctx.request('PUT', `/api/classificacoes/${id}`, { token, body });

  describe('GET /api/classificacoes', () => {
    it('lists only the active ones, sorted by name as pt-BR sorts (accents and case ignored)', async () => {
      await classificacao(ctx.db, 'Comercial', { descricao: 'Vendas e metas' });
      await classificacao(ctx.db, 'Zeladoria', { ativo: false });
      await classificacao(ctx.db, 'operações');
      await classificacao(ctx.db, 'Área Técnica');
      await classificacao(ctx.db, 'Bancos');
      await classificacao(ctx.db, 'Arquivo Morto', { ativo: false });

      const res = await ctx.request('GET', '/api/classificacoes', { token: userToken });
      expect(res.statusCode).toBe(200);
      const list = res.json<Classificacao[]>();
      expect(list.map((c) => c.nome)).toEqual(['Área Técnica', 'Bancos', 'Comercial', 'operações']);
      expect(list.every((c) => c.ativo)).toBe(true);
      const comercial = list.find((c) => c.nome === 'Comercial')!;
      expect(comercial).toEqual({
        id: expect.any(Number),
        nome: 'Comercial',
        descricao: 'Vendas e metas',
        ativo: true,
        dataCadastro: expect.any(String),
      });
      expect(Number.isNaN(Date.parse(comercial.dataCadastro))).toBe(false);
    });

    it('answers [] when there is none, and 401 without a token', async () => {
      const res = await ctx.request('GET', '/api/classificacoes', { token: userToken });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
      expect((await ctx.request('GET', '/api/classificacoes')).statusCode).toBe(401);
    });
  });

  describe('GET /api/classificacoes/admin', () => {
    it('lists every classification, inactive ones too, with the number of panels of each', async () => {
      const comercial = await classificacao(ctx.db, 'Comercial');
      const inativa = await classificacao(ctx.db, 'Legado', { ativo: false, descricao: 'Antigos' });
      const vazia = await classificacao(ctx.db, 'Área Vazia');
      await panel(ctx.db, { classificacaoId: comercial.id });
      await panel(ctx.db, { classificacaoId: comercial.id });
      await panel(ctx.db, { classificacaoId: comercial.id });
      await panel(ctx.db, { classificacaoId: inativa.id });
      await panel(ctx.db); // no classification: counted nowhere

      const list = await adminList();
      expect(list.map((c) => [c.nome, c.quantidadePaineis, c.ativo])).toEqual([
        ['Área Vazia', 0, true],
        ['Comercial', 3, true],
        ['Legado', 1, false],
      ]);
      expect(list.find((c) => c.id === inativa.id)).toEqual({
        id: inativa.id,
        nome: 'Legado',
        descricao: 'Antigos',
        ativo: false,
        dataCadastro: expect.any(String),
        quantidadePaineis: 1,
      });
      expect(list.find((c) => c.id === vazia.id)?.quantidadePaineis).toBe(0);
    });
  });

  describe('GET /api/classificacoes/{id}', () => {
    it('answers one classification, 404 for an unknown id and 400 for an id that is not a number', async () => {
      const c = await classificacao(ctx.db, 'Financeiro', { descricao: 'Custos' });

      const found = await ctx.request('GET', `/api/classificacoes/${c.id}`, { token: userToken });
      expect(found.statusCode).toBe(200);
      expect(found.json()).toEqual(answerFor(c, { nome: 'Financeiro', descricao: 'Custos', ativo: true }));

      const missing = await ctx.request('GET', `/api/classificacoes/${c.id + 100}`, { token: userToken });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: CLASSIFICATION_NOT_FOUND });

      const bad = await ctx.request('GET', '/api/classificacoes/abc', { token: userToken });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/id da classificação/);

      expect((await ctx.request('GET', '/api/classificacoes/0', { token: userToken })).statusCode).toBe(400);
    });
  });

  describe('POST /api/classificacoes', () => {
    it('creates an active classification with trimmed name and description (201)', async () => {
      const res = await create({ nome: '  Financeiro  ', descricao: '  Indicadores de custo  ' });
      expect(res.statusCode).toBe(201);
      const created = res.json<Classificacao>();
      expect(created).toEqual({
        id: expect.any(Number),
        nome: 'Financeiro',
        descricao: 'Indicadores de custo',
        ativo: true,
        dataCadastro: expect.any(String),
      });
      expect(Number.isNaN(Date.parse(created.dataCadastro))).toBe(false);

      const stored = await ctx.request('GET', `/api/classificacoes/${created.id}`, { token: adminToken });
      expect(stored.json()).toEqual(created);
      expect((await adminList()).map((c) => c.nome)).toEqual(['Financeiro']);
    });

    it('stores an empty, blank, null or missing description as null', async () => {
      const bodies = [
        { nome: 'A', descricao: '' },
        { nome: 'B', descricao: '    ' },
        { nome: 'C', descricao: null },
        { nome: 'D' },
      ];
      for (const body of bodies) {
        const res = await create(body);
        expect(res.statusCode).toBe(201);
        expect(res.json().descricao).toBeNull();
      }
      expect((await adminList()).map((c) => c.descricao)).toEqual([null, null, null, null]);
    });

    it('rejects a blank or missing name with 400 and creates nothing', async () => {
      for (const body of [{ nome: '' }, { nome: '   ' }, { descricao: 'Sem nome' }, { nome: null }]) {
        const res = await create(body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: NOME_OBRIGATORIO });
      }
      const noBody = await create(undefined);
      expect(noBody.statusCode).toBe(400);
      expect(noBody.json().message).toEqual(expect.any(String));
      expect(await adminList()).toEqual([]);
    });

    it('accepts a name of 100 characters and rejects 101 (after trimming)', async () => {
      const tooLong = await create({ nome: 'x'.repeat(101) });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json()).toEqual({ message: 'Nome (nome) deve ter no máximo 100 caracteres.' });
      expect(await adminList()).toEqual([]);

      const ok = await create({ nome: `  ${'y'.repeat(100)}  ` });
      expect(ok.statusCode).toBe(201);
      expect(ok.json().nome).toBe('y'.repeat(100));
    });

    it('rejects a description longer than 500 characters', async () => {
      const res = await create({ nome: 'Longa', descricao: 'd'.repeat(501) });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/descricao/);
      expect(await adminList()).toEqual([]);
    });

    it('answers 409 naming the duplicate when the name exists in any case, and creates nothing', async () => {
      await classificacao(ctx.db, 'Financeiro', { descricao: 'original' });
      const before = await adminList();

      const res = await create({ nome: '  FINANCEIRO ', descricao: 'cópia' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('FINANCEIRO');

      const lower = await create({ nome: 'financeiro' });
      expect(lower.statusCode).toBe(409);
      expect(lower.json().message).toContain("'financeiro'");

      expect(await adminList()).toEqual(before);
    });
  });

  describe('PUT /api/classificacoes/{id}', () => {
    it('updates name, description and status, trimming them', async () => {
      const c = await classificacao(ctx.db, 'Comercial', { descricao: 'antiga' });
      const res = await update(c.id, { nome: '  Vendas ', descricao: ' Metas do mês ', ativo: false });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(answerFor(c, { nome: 'Vendas', descricao: 'Metas do mês', ativo: false }));

      const stored = await ctx.request('GET', `/api/classificacoes/${c.id}`, { token: adminToken });
      expect(stored.json()).toEqual(res.json());
      // Inactive now: out of the public list, still in the admin one.
      expect((await ctx.request('GET', '/api/classificacoes', { token: userToken })).json()).toEqual([]);
      expect((await adminList()).map((x) => x.nome)).toEqual(['Vendas']);
    });

    it('keeps the status when ativo is omitted, and can reactivate', async () => {
      const c = await classificacao(ctx.db, 'Comercial', { ativo: false });

      const kept = await update(c.id, { nome: 'Comercial 2', descricao: '' });
      expect(kept.statusCode).toBe(200);
      expect(kept.json()).toMatchObject({ nome: 'Comercial 2', descricao: null, ativo: false });

      const reactivated = await update(c.id, { nome: 'Comercial 2', ativo: true });
      expect(reactivated.statusCode).toBe(200);
      expect(reactivated.json().ativo).toBe(true);
      const active = await ctx.request('GET', '/api/classificacoes', { token: userToken });
      expect(active.json().map((x: Classificacao) => x.nome)).toEqual(['Comercial 2']);

      const stillActive = await update(c.id, { nome: 'Comercial 3' });
      expect(stillActive.json().ativo).toBe(true);
    });

    it('answers 404 for an unknown id and 400 for a bad id or body, changing nothing', async () => {
      await classificacao(ctx.db, 'Comercial', { descricao: 'fica' });
      const before = await adminList();

      const missing = await update(999, { nome: 'Novo' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: CLASSIFICATION_NOT_FOUND });

      expect((await update('abc', { nome: 'Novo' })).statusCode).toBe(400);

      const blank = await update(before[0]!.id, { nome: '  ', descricao: 'x' });
      expect(blank.statusCode).toBe(400);
      expect(blank.json()).toEqual({ message: NOME_OBRIGATORIO });

      const badAtivo = await update(before[0]!.id, { nome: 'Comercial', ativo: 'sim' });
      expect(badAtivo.statusCode).toBe(400);
      expect(badAtivo.json()).toEqual({ message: 'Ativo (ativo) deve ser verdadeiro ou falso.' });

      expect((await update(before[0]!.id, { nome: 'z'.repeat(101) })).statusCode).toBe(400);

      expect(await adminList()).toEqual(before);
    });

    it('answers 409 when renaming to the name of another one (any case), changing nothing', async () => {
      await classificacao(ctx.db, 'Financeiro');
      const outra = await classificacao(ctx.db, 'Comercial', { descricao: 'fica' });
      const before = await adminList();

      const res = await update(outra.id, { nome: 'financeiro', descricao: 'mudaria', ativo: false });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain("'financeiro'");
      expect(await adminList()).toEqual(before);
    });

    it('renames a classification to its own name in another case', async () => {
      const c = await classificacao(ctx.db, 'Financeiro');
      const res = await update(c.id, { nome: 'FINANCEIRO' });
      expect(res.statusCode).toBe(200);
      expect(res.json().nome).toBe('FINANCEIRO');
      expect((await adminList()).map((x) => x.nome)).toEqual(['FINANCEIRO']);
    });
  });

  describe('DELETE /api/classificacoes/{id}', () => {
    it("answers 204 and leaves its panels under 'Sem Classificação' (id 0)", async () => {
      const comercial = await classificacao(ctx.db, 'Comercial');
      const financeiro = await classificacao(ctx.db, 'Financeiro');
      const p1 = await panel(ctx.db, { nomePainel: 'Metas', classificacaoId: comercial.id });
      const p2 = await panel(ctx.db, { nomePainel: 'Pedidos', classificacaoId: comercial.id });
      const p3 = await panel(ctx.db, { nomePainel: 'Custos', classificacaoId: financeiro.id });

      const res = await ctx.request('DELETE', `/api/classificacoes/${comercial.id}`, { token: adminToken });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');

      const panels = await ctx.request('GET', '/api/paineis', { token: adminToken });
      expect(panels.statusCode).toBe(200);
      const byId = new Map(panels.json().map((p: { id: number }) => [p.id, p]));
      expect(byId.size).toBe(3);
      for (const p of [p1, p2]) {
        expect(byId.get(p.id)).toMatchObject({
          nomePainel: p.nomePainel,
          classificacaoId: 0,
          classificacaoNome: 'Sem Classificação',
        });
      }
      expect(byId.get(p3.id)).toMatchObject({ classificacaoId: financeiro.id, classificacaoNome: 'Financeiro' });

      const gone = await ctx.request('GET', `/api/classificacoes/${comercial.id}`, { token: adminToken });
      expect(gone.statusCode).toBe(404);
      expect((await adminList()).map((c) => c.nome)).toEqual(['Financeiro']);

      const again = await ctx.request('DELETE', `/api/classificacoes/${comercial.id}`, { token: adminToken });
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ message: CLASSIFICATION_NOT_FOUND });
    });

    it('answers 404 for an unknown id and 400 for a bad one, deleting nothing', async () => {
      await classificacao(ctx.db, 'Comercial');
      const before = await adminList();
      const missing = await ctx.request('DELETE', '/api/classificacoes/4242', { token: adminToken });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: CLASSIFICATION_NOT_FOUND });
      expect((await ctx.request('DELETE', '/api/classificacoes/abc', { token: adminToken })).statusCode).toBe(400);
      expect(await adminList()).toEqual(before);
    });
  });

  describe('admin-only routes', () => {
    it('answer 403 to a non-admin and change nothing', async () => {
      const c = await classificacao(ctx.db, 'Comercial', { descricao: 'fica' });
      await panel(ctx.db, { classificacaoId: c.id });
      const before = await adminList();
      const forbidden = { message: ADMIN_ONLY };

      const list = await ctx.request('GET', '/api/classificacoes/admin', { token: userToken });
      expect(list.statusCode).toBe(403);
      expect(list.json()).toEqual(forbidden);

      const post = await create({ nome: 'Nova' }, userToken);
      expect(post.statusCode).toBe(403);
      expect(post.json()).toEqual(forbidden);

      const put = await update(c.id, { nome: 'Trocada', descricao: null, ativo: false }, userToken);
      expect(put.statusCode).toBe(403);
      expect(put.json()).toEqual(forbidden);

      // Checked before anything else: no hint whether the id exists or the body is valid.
      expect((await update(9999, { nome: '' }, userToken)).statusCode).toBe(403);

      const del = await ctx.request('DELETE', `/api/classificacoes/${c.id}`, { token: userToken });
      expect(del.statusCode).toBe(403);
      expect(del.json()).toEqual(forbidden);

      expect(await adminList()).toEqual(before);
      const panels = await ctx.request('GET', '/api/paineis', { token: adminToken });
      expect(panels.json()[0]).toMatchObject({ classificacaoId: c.id, classificacaoNome: 'Comercial' });
    });
  });
});
