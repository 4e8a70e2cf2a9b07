import { describe, expect, it } from 'vitest';
import type { Painel } from '@paineis/contract/panels';
import { useTestApp } from '../../../test/context.ts';
import { classificacao, createUser, link, panel, panelsAtOrdens } from '../../../test/fixtures.ts';
import { SESSION_INVALID } from '../../plugins/auth.ts';
import { body, count, ids, ISO, newPanelAnswer, REPORT, seed, signIn, WORKSPACE } from '../../../test/panel-helpers.ts';

describe('panels', () => {
  const ctx = useTestApp();

  describe('authentication', () => {
    it.each([
      ['GET', '/api/paineis'],
      ['GET', '/api/paineis/agrupados'],
      ['GET', '/api/paineis/proxima-ordem'],
      ['GET', '/api/paineis/proxima-ordem/0'],
      ['GET', '/api/paineis/1'],
      ['GET', '/api/paineis/1/dados'],
      ['GET', '/api/paineis/1/configuracoes'],
      ['POST', '/api/paineis'],
      ['PUT', '/api/paineis/1'],
      ['DELETE', '/api/paineis/1'],
      ['POST', '/api/paineis/reorder'],
    ] as const)('%s %s without a token answers 401', async (method, url) => {
      await panel(ctx.db);
      const res = await ctx.request(method, url, { body: method === 'POST' || method === 'PUT' ? body() : undefined });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: SESSION_INVALID });
      expect(await count(ctx, 'paineis')).toBe(1);
    });
  });

  describe('GET /api/paineis', () => {
    it('gives an admin every panel: classifications by name, then ordem; unclassified last', async () => {
      const s = await seed(ctx);
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('GET', '/api/paineis', { token });
      expect(res.statusCode).toBe(200);
      const list = res.json<Painel[]>();
      expect(list.map((p) => [p.nomePainel, p.classificacaoId, p.classificacaoNome, p.ordem])).toEqual([
        ['Fornecedores', s.compras.id, 'compras', 1],
        ['Faturamento', s.vendas.id, 'Vendas', 1],
        ['Metas', s.vendas.id, 'Vendas', 2],
        ['Regional', s.vendas.id, 'Vendas', 3],
        ['Avulso A', 0, 'Sem Classificação', 1],
        ['Avulso B', 0, 'Sem Classificação', 2],
      ]);
    });

    it('returns each panel with the fields of the contract', async () => {
      const vendas = await classificacao(ctx.db, 'Vendas');
      const created = await panel(ctx.db, {
        nomePainel: 'Faturamento',
        workspaceId: WORKSPACE,
        reportId: REPORT,
        usaRls: true,
        classificacaoId: vendas.id,
        ordem: 4,
      });
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('GET', '/api/paineis', { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([
        newPanelAnswer({
          id: created.id,
          nomePainel: 'Faturamento',
          usaRls: true,
          classificacaoId: vendas.id,
          classificacaoNome: 'Vendas',
          ordem: 4,
        }),
      ]);
    });

    it('gives a non-admin only the panels linked to them, in the same order', async () => {
      const s = await seed(ctx);
      const { user, token } = await signIn(ctx, 'User');
      const other = await createUser(ctx.db);
      await link(ctx.db, s.avulsoB.id, [user.id]);
      await link(ctx.db, s.metas.id, [user.id, other.id]);
      await link(ctx.db, s.fornecedores.id, [other.id]);
      const res = await ctx.request('GET', '/api/paineis', { token });
      expect(res.statusCode).toBe(200);
      expect(ids(res.json())).toEqual([s.metas.id, s.avulsoB.id]);
    });

    it('gives a non-admin with no links an empty list', async () => {
      const s = await seed(ctx);
      const other = await createUser(ctx.db);
      await link(ctx.db, s.metas.id, [other.id]);
      const { token } = await signIn(ctx, 'User');
      const res = await ctx.request('GET', '/api/paineis', { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });
  });

  describe('GET /api/paineis/agrupados', () => {
    it('gives an admin every classification by name (empty ones too), panels in ordem, Sem Classificação last', async () => {
      const s = await seed(ctx);
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('GET', '/api/paineis/agrupados', { token });
      expect(res.statusCode).toBe(200);
      const groups = res.json<Array<{ paineis: Painel[] } & Record<string, unknown>>>();
      expect(groups.map(({ paineis, ...g }) => ({ ...g, paineis: paineis.map((p) => p.nomePainel) }))).toEqual([
        {
          id: s.auditoria.id,
          nome: 'Auditoria',
          descricao: 'Ainda sem painéis',
          ativo: false,
          quantidadePaineis: 0,
          paineis: [],
        },
        {
          id: s.compras.id,
          nome: 'compras',
          descricao: null,
          ativo: true,
          quantidadePaineis: 1,
          paineis: ['Fornecedores'],
        },
        {
          id: s.vendas.id,
          nome: 'Vendas',
          descricao: 'Relatórios comerciais',
          ativo: true,
          quantidadePaineis: 3,
          paineis: ['Faturamento', 'Metas', 'Regional'],
        },
        {
          id: 0,
          nome: 'Sem Classificação',
          descricao: null,
          ativo: true,
          quantidadePaineis: 2,
          paineis: ['Avulso A', 'Avulso B'],
        },
      ]);
      // The panels inside a group are whole panels.
      expect(groups[2]!.paineis[0]).toEqual({
        id: s.faturamento.id,
        nomePainel: 'Faturamento',
        workspaceId: s.faturamento.workspaceId,
        reportId: s.faturamento.reportId,
        usaRls: false,
        permiteExportacao: true,
        permiteExportarDados: true,
        idioma: null,
        classificacaoId: s.vendas.id,
        classificacaoNome: 'Vendas',
        ordem: 1,
        dataCadastro: expect.stringMatching(ISO),
        dataAtualizacao: null,
      });
    });

    it("leaves out 'Sem Classificação' when no panel lacks a classification", async () => {
      const vendas = await classificacao(ctx.db, 'Vendas');
      await panel(ctx.db, { classificacaoId: vendas.id });
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('GET', '/api/paineis/agrupados', { token });
      expect(res.statusCode).toBe(200);
      expect(res.json<{ id: number }[]>().map((g) => g.id)).toEqual([vendas.id]);
    });

    it('gives an admin an empty list when there is nothing at all', async () => {
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('GET', '/api/paineis/agrupados', { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });

    it('gives a non-admin only the groups holding panels they may see, counted for them', async () => {
      const s = await seed(ctx);
      const { user, token } = await signIn(ctx, 'User');
      await link(ctx.db, s.metas.id, [user.id]);
      await link(ctx.db, s.regional.id, [user.id]);
      const res = await ctx.request('GET', '/api/paineis/agrupados', { token });
      expect(res.statusCode).toBe(200);
      const groups = res.json<Array<{ id: number; quantidadePaineis: number; paineis: Painel[] }>>();
      expect(groups.map((g) => [g.id, g.quantidadePaineis, ids(g.paineis)])).toEqual([
        [s.vendas.id, 2, [s.metas.id, s.regional.id]],
      ]);
    });

    it("shows a non-admin 'Sem Classificação' (last) only when one of their panels lacks a classification", async () => {
      const s = await seed(ctx);
      const { user, token } = await signIn(ctx, 'User');
      await link(ctx.db, s.avulsoB.id, [user.id]);
      await link(ctx.db, s.fornecedores.id, [user.id]);
      const res = await ctx.request('GET', '/api/paineis/agrupados', { token });
      expect(res.statusCode).toBe(200);
      const groups = res.json<Array<{ id: number; nome: string; quantidadePaineis: number; paineis: Painel[] }>>();
      expect(groups.map((g) => [g.id, g.nome, g.quantidadePaineis, ids(g.paineis)])).toEqual([
        [s.compras.id, 'compras', 1, [s.fornecedores.id]],
        [0, 'Sem Classificação', 1, [s.avulsoB.id]],
      ]);
    });

    it('gives a non-admin with no links no groups at all', async () => {
      await seed(ctx);
      const { token } = await signIn(ctx, 'User');
      const res = await ctx.request('GET', '/api/paineis/agrupados', { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });
  });

  describe('GET /api/paineis/proxima-ordem', () => {
    it('answers 1 everywhere when there are no panels', async () => {
      const { token } = await signIn(ctx, 'Admin');
      for (const url of [
        '/api/paineis/proxima-ordem',
        '/api/paineis/proxima-ordem/0',
        '/api/paineis/proxima-ordem/7',
      ]) {
        const res = await ctx.request('GET', url, { token });
        expect(res.statusCode, url).toBe(200);
        expect(res.json(), url).toEqual({ proximaOrdem: 1 });
      }
    });

    it('answers the ordem after the last one overall, per classification, and for no classification (0)', async () => {
      const { vendas, compras } = await panelsAtOrdens(ctx.db, { vendas: [4, 9], compras: [2], none: [5] });
      const vazia = await classificacao(ctx.db, 'Vazia');
      const { token } = await signIn(ctx, 'Admin');
      const expected: Array<[string, number]> = [
        ['/api/paineis/proxima-ordem', 10],
        [`/api/paineis/proxima-ordem/${vendas.id}`, 10],
        [`/api/paineis/proxima-ordem/${compras.id}`, 3],
        ['/api/paineis/proxima-ordem/0', 6],
        [`/api/paineis/proxima-ordem/${vazia.id}`, 1],
      ];
      for (const [url, proximaOrdem] of expected) {
        const res = await ctx.request('GET', url, { token });
        expect(res.statusCode, url).toBe(200);
        expect(res.json(), url).toEqual({ proximaOrdem });
      }
    });

    it.each(['abc', '-1', '1.5', '99999999999'])(
      'answers 400 naming classificacaoId for /proxima-ordem/%s',
      async (param) => {
        const { token } = await signIn(ctx, 'Admin');
        const res = await ctx.request('GET', `/api/paineis/proxima-ordem/${param}`, { token });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toContain('classificacaoId');
      },
    );
  });
});
