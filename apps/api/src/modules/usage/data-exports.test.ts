import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Painel } from '@paineis/contract/panels';
import {
  EXPORTACAO_DADOS_DESATIVADA,
  MAX_LINHAS_EXPORTACAO_DADOS,
  type ExportacaoDados,
  type UsoPaineis,
} from '@paineis/contract/usage';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser, link, panel } from '../../../test/fixtures.ts';
import { rows } from '../../db/client.ts';
import { forgetUsageSnapshots } from './usage.ts';

const BODY = {
  pagina: 'ReportSection1',
  visual: 'graficoVendasMes',
  tituloVisual: 'Vendas por mês',
  tipo: 'subjacentes',
  linhas: 12,
};

describe("POST /api/paineis/{id}/exportacoes-dados: 'Exportar dados' recorded (docs/requirements.md#viewer-data-export)", () => {
  const ctx = useTestApp();

  const stored = () =>
    rows<Record<string, unknown>>(
      ctx.db,
      sql`select usuario_id, painel_id, pagina, visual, titulo_visual, tipo, linhas from exportacoes_dados order by momento`,
    );

  async function setup() {
    const admin = await createAdmin(ctx.db, { email: 'admin@empresa.com.br' });
    const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br' });
    const vendas = await panel(ctx.db, { nomePainel: 'Vendas' });
    const fechado = await panel(ctx.db, { nomePainel: 'Fechado', permiteExportarDados: false });
    const alheio = await panel(ctx.db, { nomePainel: 'Alheio' });
    await link(ctx.db, vendas.id, [ana.id]);
    await link(ctx.db, fechado.id, [ana.id]);
    return {
      admin,
      ana,
      vendas,
      fechado,
      alheio,
      adminToken: await ctx.tokenFor(admin),
      anaToken: await ctx.tokenFor(ana),
    };
  }

  it('records who exported which visual of which page, the kind and the rows, and answers 201 with the record', async () => {
    const s = await setup();
    const res = await ctx.request('POST', `/api/paineis/${s.vendas.id}/exportacoes-dados`, {
      token: s.anaToken,
      body: BODY,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<ExportacaoDados>()).toMatchObject({ ...BODY, painelId: s.vendas.id });
    expect(res.json<ExportacaoDados>().momento).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await stored()).toEqual([
      {
        usuario_id: s.ana.id,
        painel_id: s.vendas.id,
        pagina: BODY.pagina,
        visual: BODY.visual,
        titulo_visual: BODY.tituloVisual,
        tipo: 'subjacentes',
        linhas: 12,
      },
    ]);
  });

  it("refuses (403, in Portuguese) when the panel's 'Permitir exportar dados' is off, for admins too, and records nothing", async () => {
    const s = await setup();
    // The panel's answers carry it (the viewer's too: PainelComEmbed extends Painel).
    const opened = await ctx.request('GET', `/api/paineis/${s.fechado.id}/dados`, { token: s.adminToken });
    expect(opened.json<Painel>().permiteExportarDados).toBe(false);
    for (const token of [s.anaToken, s.adminToken]) {
      const res = await ctx.request('POST', `/api/paineis/${s.fechado.id}/exportacoes-dados`, { token, body: BODY });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: EXPORTACAO_DADOS_DESATIVADA });
    }
    expect(await stored()).toEqual([]);
  });

  it('answers 404 for a panel the person does not see, or that does not exist, as if it did not exist', async () => {
    const s = await setup();
    for (const id of [s.alheio.id, 999_999]) {
      const res = await ctx.request('POST', `/api/paineis/${id}/exportacoes-dados`, { token: s.anaToken, body: BODY });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Painel não encontrado.' });
    }
    // An admin sees every panel.
    const admin = await ctx.request('POST', `/api/paineis/${s.alheio.id}/exportacoes-dados`, {
      token: s.adminToken,
      body: BODY,
    });
    expect(admin.statusCode).toBe(201);
  });

  it.each([
    [{ ...BODY, tipo: 'todos' }, "O tipo (tipo) deve ser 'resumidos' ou 'subjacentes'."],
    [{ ...BODY, linhas: MAX_LINHAS_EXPORTACAO_DADOS + 1 }, 'As linhas (linhas) devem ser no máximo 30000.'],
    [{ ...BODY, linhas: -1 }, 'As linhas (linhas) não podem ser negativas.'],
    [{ ...BODY, linhas: 1.5 }, 'As linhas (linhas) devem ser um número inteiro.'],
    [{ ...BODY, pagina: '  ' }, 'Página (pagina) é obrigatório.'],
    [{ ...BODY, visual: 'x'.repeat(201) }, 'Visual (visual) deve ter no máximo 200 caracteres.'],
  ])('refuses bad input (400, in Portuguese): %j', async (body, message) => {
    const s = await setup();
    const res = await ctx.request('POST', `/api/paineis/${s.vendas.id}/exportacoes-dados`, { token: s.anaToken, body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message });
    expect(await stored()).toEqual([]);
  });

  it("counts each panel's data exports of the period on /uso, and the ETag changes with them", async () => {
    const s = await setup();
    forgetUsageSnapshots(ctx.db);
    const before = await ctx.request('GET', '/api/uso/paineis?dias=7', { token: s.adminToken });
    expect(before.json<UsoPaineis>().paineis.map((p) => p.exportacoesDados)).toEqual([0, 0, 0]);
    for (const tipo of ['resumidos', 'subjacentes', 'resumidos']) {
      const res = await ctx.request('POST', `/api/paineis/${s.vendas.id}/exportacoes-dados`, {
        token: s.anaToken,
        body: { ...BODY, tipo },
      });
      expect(res.statusCode).toBe(201);
    }
    // One from before the period counts in 90 days only.
    await ctx.db.execute(
      sql`insert into exportacoes_dados (momento, usuario_id, painel_id, pagina, visual, tipo, linhas)
          values (now() - interval '20 days', ${s.ana.id}, ${s.alheio.id}, 'p', 'v', 'resumidos', 1)`,
    );
    const after = await ctx.request('GET', '/api/uso/paineis?dias=7', {
      token: s.adminToken,
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    const counts = (answer: UsoPaineis) =>
      Object.fromEntries(answer.paineis.map((p) => [p.nomePainel, p.exportacoesDados]));
    expect(counts(after.json())).toEqual({ Vendas: 3, Fechado: 0, Alheio: 0 });
    const ninety = await ctx.request('GET', '/api/uso/paineis?dias=90', { token: s.adminToken });
    expect(counts(ninety.json())).toEqual({ Vendas: 3, Fechado: 0, Alheio: 1 });
    // Nothing new: 304, as before.
    const same = await ctx.request('GET', '/api/uso/paineis?dias=7', {
      token: s.adminToken,
      headers: { 'if-none-match': String(after.headers.etag) },
    });
    expect(same.statusCode).toBe(304);
  });
});
