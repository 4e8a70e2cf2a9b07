import { beforeEach, describe, expect, it } from 'vitest';
import { PANEL_UNAVAILABLE, type SaudePainel } from '@paineis/contract/power-bi';
import type { StandInReport } from '@paineis/microsoft-stand-ins/types';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser, link, panelOver } from '../../../test/fixtures.ts';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import type { PowerBiEmbeddingService } from '../../integrations/power-bi/power-bi-embedding-service.ts';
import { POWER_BI_NOT_CONFIGURED, POWER_BI_UNAVAILABLE } from '../../plugins/microsoft-error-answers.ts';
import { HEALTH_MESSAGES } from './panel-health.ts';

/**
 * docs/requirements.md#power-bi: whether Power BI still serves each panel's report, checked in the background over the
 * stand-in Power BI, and a broken panel's opening answered without Power BI's error.
 */

const WS = '0a0a0a0a-0000-4000-8000-00000000b001';
const WS2 = '0a0a0a0a-0000-4000-8000-00000000b002';
const id = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
const report = (n: number, name: string, workspaceId = WS): StandInReport => ({
  workspaceId,
  reportId: id('0b0b0b0b', 800 + n),
  name,
  datasetId: id('0c0c0c0c', 800 + n),
  rls: false,
});
const vendas = report(1, 'Vendas');
const compras = report(2, 'Compras');
const rh = report(3, 'RH', WS2);
const all = [vendas, compras, rh];

describe('the health of each panel’s report', () => {
  const standIns = useStandIns({ people: [], reports: all });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    powerBiOptions: { sleep: async () => undefined },
  }));
  beforeEach(() => {
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports(all);
    (ctx.app.embedding as PowerBiEmbeddingService).clear();
  });

  async function organisation() {
    const admin = await createAdmin(ctx.db, { email: 'admin@empresa.com.br' });
    const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br' });
    const panels = {
      vendas: await panelOver(ctx.db, vendas, { nomePainel: 'Vendas' }),
      // A second panel over the same report: one check for both.
      vendasDiretoria: await panelOver(ctx.db, vendas, { nomePainel: 'Vendas (Diretoria)' }),
      compras: await panelOver(ctx.db, compras, { nomePainel: 'Compras' }),
      rh: await panelOver(ctx.db, rh, { nomePainel: 'RH' }),
    };
    for (const p of Object.values(panels)) await link(ctx.db, p.id, [ana.id]);
    return { panels, admin: await ctx.tokenFor(admin), ana: await ctx.tokenFor(ana) };
  }

  const health = async (token: string) => {
    const res = await ctx.request('GET', '/api/paineis/saude', { token });
    expect(res.statusCode).toBe(200);
    return new Map(res.json<SaudePainel[]>().map((h) => [h.painelId, h]));
  };
  const pageCalls = () => standIns.current.powerBi.requests.filter((r) => r.path.endsWith('/pages'));

  it('finds every report there: ok, one call per report, and nothing before the first check', async () => {
    const { panels, admin } = await organisation();
    expect((await health(admin)).size).toBe(0);
    const before = Date.now();
    await ctx.app.panelHealth!.run();
    const found = await health(admin);
    expect([...found.keys()]).toEqual(Object.values(panels).map((p) => p.id));
    for (const check of found.values()) {
      expect(check).toMatchObject({ estado: 'ok', mensagem: null });
      expect(Date.parse(check.verificadoEm)).toBeGreaterThanOrEqual(before - 1_000);
    }
    expect(pageCalls()).toHaveLength(3);
  });

  it('finds a deleted report and a lost permission, and the panels are unavailable without asking Power BI', async () => {
    const { panels, admin, ana } = await organisation();
    await ctx.app.panelHealth!.run();
    standIns.current.powerBi.setReports([compras, rh]);
    standIns.current.powerBi.removeServicePrincipal(WS2);
    await ctx.app.panelHealth!.run();
    const found = await health(admin);
    expect(found.get(panels.vendas.id)).toMatchObject({
      estado: 'relatorio-nao-encontrado',
      mensagem: HEALTH_MESSAGES.notFound,
    });
    expect(found.get(panels.vendasDiretoria.id)?.estado).toBe('relatorio-nao-encontrado');
    expect(found.get(panels.rh.id)).toMatchObject({ estado: 'sem-acesso', mensagem: HEALTH_MESSAGES.noAccess });
    expect(found.get(panels.compras.id)?.estado).toBe('ok');

    standIns.current.powerBi.reset();
    for (const p of [panels.vendas, panels.rh]) {
      const res = await ctx.request('GET', `/api/paineis/${p.id}`, { token: ana });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: PANEL_UNAVAILABLE });
      expect((await ctx.request('GET', `/api/paineis/${p.id}/token`, { token: ana })).statusCode).toBe(503);
    }
    expect(standIns.current.powerBi.requests).toEqual([]);
    expect((await ctx.request('GET', `/api/paineis/${panels.compras.id}`, { token: ana })).statusCode).toBe(200);

    // Put right in Power BI: the next check finds it, and the panel opens again.
    standIns.current.powerBi.restoreServicePrincipal(WS2);
    await ctx.app.panelHealth!.run();
    expect((await health(admin)).get(panels.rh.id)?.estado).toBe('ok');
    expect((await ctx.request('GET', `/api/paineis/${panels.rh.id}`, { token: ana })).statusCode).toBe(200);
  });

  it('does not mark a panel broken when Power BI is merely down or throttling', async () => {
    const { panels, admin, ana } = await organisation();
    await ctx.app.panelHealth!.run();
    const before = await health(admin);
    standIns.current.powerBi.failNext(503, 1_000);
    await ctx.app.panelHealth!.run();
    expect(await health(admin)).toEqual(before);
    standIns.current.powerBi.reset();
    standIns.current.powerBi.failNext(429, 1_000);
    await ctx.app.panelHealth!.run();
    expect(await health(admin)).toEqual(before);
    standIns.current.powerBi.reset();
    expect((await ctx.request('GET', `/api/paineis/${panels.vendas.id}`, { token: ana })).statusCode).toBe(200);
  });

  it('records the report an opening finds gone, and answers the person PANEL_UNAVAILABLE instead of Power BI’s error', async () => {
    const { panels, admin, ana } = await organisation();
    standIns.current.powerBi.setReports([compras, rh]);
    const res = await ctx.request('GET', `/api/paineis/${panels.vendas.id}`, { token: ana });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: PANEL_UNAVAILABLE });
    expect((await health(admin)).get(panels.vendas.id)).toMatchObject({ estado: 'relatorio-nao-encontrado' });
    // The next opening does not ask Power BI.
    const asked = standIns.current.powerBi.requests.length;
    expect((await ctx.request('GET', `/api/paineis/${panels.vendas.id}`, { token: ana })).statusCode).toBe(503);
    expect(standIns.current.powerBi.requests).toHaveLength(asked);

    // A lost permission found by an opening too.
    standIns.current.powerBi.removeServicePrincipal(WS2);
    const refused = await ctx.request('GET', `/api/paineis/${panels.rh.id}`, { token: ana });
    expect(refused.json()).toEqual({ message: PANEL_UNAVAILABLE });
    expect((await health(admin)).get(panels.rh.id)).toMatchObject({ estado: 'sem-acesso' });
  });

  it('keeps Power BI’s other errors as they are', async () => {
    const { panels, ana, admin } = await organisation();
    standIns.current.powerBi.failNext(500, 20);
    const res = await ctx.request('GET', `/api/paineis/${panels.vendas.id}`, { token: ana });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: POWER_BI_UNAVAILABLE });
    expect((await health(admin)).size).toBe(0);
  });

  it('judges a panel pointed at another report by that report, not by the old one’s check', async () => {
    const { panels, admin, ana } = await organisation();
    standIns.current.powerBi.setReports([compras, rh]);
    await ctx.app.panelHealth!.run();
    // Power BI down: the check the change asks for finds nothing, and the old report's check stays in the table.
    standIns.current.powerBi.failNext(503, 50);
    const moved = await ctx.request('PUT', `/api/paineis/${panels.vendas.id}`, {
      token: admin,
      body: { nomePainel: 'Vendas', workspaceId: WS, reportId: compras.reportId, usaRls: false },
    });
    expect(moved.statusCode).toBe(200);
    await ctx.app.tasks.idle();
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports([compras, rh]);
    expect((await health(admin)).has(panels.vendas.id)).toBe(false);
    expect((await ctx.request('GET', `/api/paineis/${panels.vendas.id}`, { token: ana })).statusCode).toBe(200);
  });

  it('keeps an unlinked person’s answer 404 on a broken panel, as if it did not exist', async () => {
    const { panels } = await organisation();
    standIns.current.powerBi.setReports([compras, rh]);
    await ctx.app.panelHealth!.run();
    const bia = await ctx.tokenFor(await createUser(ctx.db, { email: 'bia@empresa.com.br' }));
    expect((await ctx.request('GET', `/api/paineis/${panels.vendas.id}`, { token: bia })).statusCode).toBe(404);
  });

  it('is for admins: the list and the check on demand (202)', async () => {
    const { panels, admin, ana } = await organisation();
    expect((await ctx.request('GET', '/api/paineis/saude', { token: ana })).statusCode).toBe(403);
    expect((await ctx.request('POST', '/api/paineis/saude/verificar', { token: ana })).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/paineis/saude')).statusCode).toBe(401);
    expect(pageCalls()).toHaveLength(0);
    const res = await ctx.request('POST', '/api/paineis/saude/verificar', { token: admin });
    expect(res.statusCode).toBe(202);
    await ctx.app.panelHealth!.idle();
    expect((await health(admin)).get(panels.vendas.id)?.estado).toBe('ok');
  });

  it('refuses a malformed panel id in the opening (400), before anything else', async () => {
    const { ana } = await organisation();
    const res = await ctx.request('GET', '/api/paineis/abc', { token: ana });
    expect(res.statusCode).toBe(400);
    expect(standIns.current.powerBi.requests).toEqual([]);
  });
});

describe('health without Microsoft configuration', () => {
  const ctx = useTestApp();

  it('lists nothing and says that no check can be started', async () => {
    const token = await ctx.tokenFor(await createAdmin(ctx.db));
    await panelOver(ctx.db, vendas);
    expect(ctx.app.panelHealth).toBeNull();
    expect((await ctx.request('GET', '/api/paineis/saude', { token })).json()).toEqual([]);
    const started = await ctx.request('POST', '/api/paineis/saude/verificar', { token });
    expect(started.statusCode).toBe(503);
    expect(started.json()).toEqual({ message: POWER_BI_NOT_CONFIGURED });
  });
});
