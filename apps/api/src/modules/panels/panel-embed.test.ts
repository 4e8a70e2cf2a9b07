import { beforeEach, describe, expect, it } from 'vitest';
import type { Painel } from '@paineis/contract/panels';
import { useTestApp } from '../../../test/context.ts';
import { classificacao, createAdmin, createUser, link, panel } from '../../../test/fixtures.ts';
import type { EmbedViewer, EmbeddingService } from '../../integrations/power-bi/embedding-service.ts';
import { POWER_BI_NOT_CONFIGURED } from '../../plugins/microsoft-error-answers.ts';
import { NO_RLS_ROLE_FOR_PERSON } from './panel-access.ts';
import { ISO, NOT_FOUND, signIn } from '../../../test/panel-helpers.ts';

describe('panels', () => {
  const ctx = useTestApp();

  describe('GET /api/paineis/{id} (Power BI not configured)', () => {
    it('answers 404 for an unknown panel', async () => {
      await panel(ctx.db);
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('GET', '/api/paineis/999', { token });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    });

    it('answers 404 to a non-admin for a panel not linked to them, exactly as if it did not exist', async () => {
      const p = await panel(ctx.db);
      const other = await createUser(ctx.db);
      await link(ctx.db, p.id, [other.id]);
      const { token } = await signIn(ctx, 'User');
      const res = await ctx.request('GET', `/api/paineis/${p.id}`, { token });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    });

    it('answers 503 with a clear message to a linked user, since nothing can be embedded yet', async () => {
      const p = await panel(ctx.db);
      const { user, token } = await signIn(ctx, 'User');
      await link(ctx.db, p.id, [user.id]);
      const res = await ctx.request('GET', `/api/paineis/${p.id}`, { token });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: POWER_BI_NOT_CONFIGURED });
    });

    it('answers 503 to an admin for any existing panel', async () => {
      const p = await panel(ctx.db);
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('GET', `/api/paineis/${p.id}`, { token });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: POWER_BI_NOT_CONFIGURED });
    });

    it.each(['abc', '0', '-2', '1.5'])('answers 400 naming the id for /api/paineis/%s', async (param) => {
      const { token } = await signIn(ctx, 'Admin');
      const res = await ctx.request('GET', `/api/paineis/${param}`, { token });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/\bid\b/);
    });
  });
});

describe('GET /api/paineis/{id} with Power BI embedding', () => {
  const calls: Array<{ panel: Painel; viewer: EmbedViewer }> = [];
  const embedUrl = 'https://app.powerbi.com/reportEmbed?reportId=x';
  const embedding: EmbeddingService = {
    embedFor: async (panel, viewer) => {
      calls.push({ panel, viewer });
      return {
        info: { embedToken: 't', embedUrl, tokenExpiration: new Date().toISOString() },
        identity: null,
        requestId: null,
        fromCache: false,
      };
    },
    embeddedNow: () => undefined,
  };
  const ctx = useTestApp({ embedding });
  beforeEach(() => {
    calls.length = 0;
  });

  it('gives an admin the panel with embedToken, embedUrl and tokenExpiration', async () => {
    const vendas = await classificacao(ctx.db, 'Vendas');
    const p = await panel(ctx.db, { nomePainel: 'Faturamento', classificacaoId: vendas.id, ordem: 2, usaRls: true });
    const admin = await createAdmin(ctx.db, { email: 'chefe@empresa.com.br' });
    const res = await ctx.request('GET', `/api/paineis/${p.id}`, { token: await ctx.tokenFor(admin) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: p.id,
      nomePainel: 'Faturamento',
      workspaceId: p.workspaceId,
      reportId: p.reportId,
      usaRls: true,
      permiteExportacao: true,
      permiteExportarDados: true,
      idioma: null,
      classificacaoId: vendas.id,
      classificacaoNome: 'Vendas',
      ordem: 2,
      dataCadastro: p.dataCadastro,
      dataAtualizacao: null,
      embedToken: 't',
      embedUrl,
      tokenExpiration: expect.stringMatching(ISO),
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.panel).toMatchObject({ id: p.id, workspaceId: p.workspaceId, reportId: p.reportId, usaRls: true });
    // An RLS panel with no roles yet: the admin previews with all of them, which is none.
    expect(calls[0]!.viewer).toMatchObject({
      id: admin.id,
      username: 'chefe@empresa.com.br',
      isAdmin: true,
      roles: [],
    });
  });

  it('gives a linked non-admin the embed, passing their UPN as RLS username and isAdmin false', async () => {
    const p = await panel(ctx.db, { nomePainel: 'Metas' });
    const user = await createUser(ctx.db, {
      email: 'ana@empresa.com.br',
      upn: 'ana.souza@empresa.onmicrosoft.com',
      tipo: 'Member',
    });
    await link(ctx.db, p.id, [user.id]);
    const res = await ctx.request('GET', `/api/paineis/${p.id}`, { token: await ctx.tokenFor(user) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: p.id,
      nomePainel: 'Metas',
      classificacaoId: 0,
      classificacaoNome: 'Sem Classificação',
      embedToken: 't',
      embedUrl,
    });
    expect(calls.map((c) => c.viewer)).toMatchObject([
      { id: user.id, username: 'ana.souza@empresa.onmicrosoft.com', isAdmin: false, roles: [] },
    ]);
  });

  describe('on a panel with row-level security', () => {
    async function rlsPanel() {
      const p = await panel(ctx.db, { nomePainel: 'Vendas por Região', usaRls: true });
      const res = await ctx.request('POST', `/api/paineis/${p.id}/rls`, {
        token: await ctx.tokenFor(await createAdmin(ctx.db, { email: 'config@empresa.com.br' })),
        body: [
          { roleName: 'Sul', userEmails: ['ana@empresa.com.br'] },
          { roleName: 'Norte', userEmails: ['bia@empresa.com.br'] },
          { roleName: 'Diretoria', userEmails: ['ANA@empresa.com.br'] },
        ],
      });
      expect(res.statusCode).toBe(200);
      return p;
    }

    it('opens the report with the roles that list the user, in the panel order', async () => {
      const p = await rlsPanel();
      const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br' });
      await link(ctx.db, p.id, [ana.id]);
      const res = await ctx.request('GET', `/api/paineis/${p.id}`, { token: await ctx.tokenFor(ana) });
      expect(res.statusCode).toBe(200);
      expect(calls.map((c) => c.viewer.roles)).toEqual([['Sul', 'Diretoria']]);
    });

    it('refuses a linked user who is in no role, with a Portuguese message, and embeds nothing', async () => {
      const p = await rlsPanel();
      const carla = await createUser(ctx.db, { email: 'carla@empresa.com.br' });
      await link(ctx.db, p.id, [carla.id]);
      const res = await ctx.request('GET', `/api/paineis/${p.id}`, { token: await ctx.tokenFor(carla) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: NO_RLS_ROLE_FOR_PERSON });
      expect(calls).toHaveLength(0);
    });

    it('lets an admin preview with every role of the panel', async () => {
      const p = await rlsPanel();
      const admin = await createAdmin(ctx.db, { email: 'outra.admin@empresa.com.br' });
      const res = await ctx.request('GET', `/api/paineis/${p.id}`, { token: await ctx.tokenFor(admin) });
      expect(res.statusCode).toBe(200);
      expect(calls.map((c) => c.viewer.roles)).toEqual([['Sul', 'Norte', 'Diretoria']]);
    });

    it('gives no roles on a panel without RLS, even to a user listed in its (unused) roles', async () => {
      const p = await rlsPanel();
      await ctx.request('PUT', `/api/paineis/${p.id}`, {
        token: await ctx.tokenFor(await createAdmin(ctx.db)),
        body: { nomePainel: p.nomePainel, workspaceId: p.workspaceId, reportId: p.reportId, usaRls: false },
      });
      const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br' });
      await link(ctx.db, p.id, [ana.id]);
      const res = await ctx.request('GET', `/api/paineis/${p.id}`, { token: await ctx.tokenFor(ana) });
      expect(res.statusCode).toBe(200);
      expect(calls.at(-1)!.viewer.roles).toEqual([]);
    });
  });

  it('answers 404 to a non-admin not linked to the panel without asking for a token', async () => {
    const p = await panel(ctx.db);
    const user = await createUser(ctx.db);
    const res = await ctx.request('GET', `/api/paineis/${p.id}`, { token: await ctx.tokenFor(user) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND);
    expect(calls).toEqual([]);
  });

  it('answers 404 for an unknown panel without asking for a token', async () => {
    const admin = await createAdmin(ctx.db);
    const res = await ctx.request('GET', '/api/paineis/999', { token: await ctx.tokenFor(admin) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND);
    expect(calls).toEqual([]);
  });
});
