import { beforeEach, describe, expect, it } from 'vitest';
import type { CapacidadeIndisponivel, MudancaCapacidade, PoliticaCapacidade } from '@paineis/contract/capacity';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser, link } from '../../../test/fixtures.ts';
import { microsoftConfig, useStandIns, TEST_CAPACITY } from '../../../test/microsoft.ts';
import { salesPanels, salesReports } from '../../../test/sales-reports.ts';
import { DEFAULT_POLICY } from '../capacity/capacity-policy.ts';
import type { PowerBiEmbeddingService } from '../../integrations/power-bi/power-bi-embedding-service.ts';

/**
 * docs/decisions/024-capacity-cost.md: opening a panel, or exporting it, while the Power BI capacity is paused. The
 * portal answers 503 before asking Power BI (which would refuse the token: CapacityNotActive), wakes the capacity
 * when the person may, says how long to wait, and serves the panel once the capacity runs again.
 */

const capacity = TEST_CAPACITY;
const reports = salesReports(1);

describe('opening a panel while the capacity is paused', () => {
  const standIns = useStandIns({
    people: [],
    reports: [reports.vendas, reports.regional],
    capacities: [capacity],
    // Long enough that the test moves the capacity on itself (settle), never a timer racing it.
    capacityTimings: { resumeMs: 600_000, suspendMs: 600_000, scaleMs: 600_000 },
  });
  // The state is read at most every few seconds: the test's clock moves past that before each request.
  let now = Date.now();
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current, {
      POWER_BI_CAPACITY_ID: standIns.current.capacities.resourceId(capacity.name),
    }),
    capacity: { clock: () => now, resumeSeconds: 12, pollMs: 10 },
  }));
  beforeEach(() => {
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports([reports.vendas, reports.regional]);
    (ctx.app.embedding as PowerBiEmbeddingService).clear();
    const arm = standIns.current.capacities;
    arm.reset();
    arm.setRole(capacity.name, true);
    arm.resume(capacity.name);
    arm.settle();
    now += 60_000;
  });

  async function setup(politica: Partial<PoliticaCapacidade> = {}) {
    const admin = await createAdmin(ctx.db, { displayName: 'Ana Admin' });
    const bia = await createUser(ctx.db, { email: 'bia@empresa.com.br', displayName: 'Bia' });
    const { plain } = await salesPanels(ctx.db, reports, []);
    await link(ctx.db, plain.id, [bia.id]);
    const tokens = { admin: await ctx.tokenFor(admin), bia: await ctx.tokenFor(bia) };
    const saved = await ctx.request('PUT', '/api/capacidade/politica', {
      token: tokens.admin,
      body: { ...DEFAULT_POLICY, ...politica },
    });
    expect(saved.statusCode).toBe(200);
    return { ...tokens, panel: plain };
  }

  const pause = () => {
    standIns.current.capacities.pause(capacity.name);
    standIns.current.capacities.settle();
    now += 60_000;
  };
  const generateTokens = () =>
    standIns.current.powerBi.requests.filter((r) => r.path === '/v1.0/myorg/GenerateToken').length;
  const history = async (token: string) =>
    (await ctx.request('GET', '/api/capacidade/historico', { token })).json<MudancaCapacidade[]>();

  it('wakes it for a person who may, answers 503 with Retry-After and the state, then serves the panel once it runs', async () => {
    const s = await setup({ quemRetomaAoAbrir: 'todos' });
    pause();

    const opened = await ctx.request('GET', `/api/paineis/${s.panel.id}`, { token: s.bia });
    expect(opened.statusCode).toBe(503);
    expect(opened.headers['retry-after']).toBe('12');
    expect(opened.json<CapacidadeIndisponivel>()).toEqual({
      message: 'Iniciando o Power BI… isso leva cerca de 12 segundos',
      capacidade: { estado: 'retomando', podeRetomar: true, retomadaSegundos: 12, contato: null },
    });
    // Azure was asked to resume; Power BI is asked for no token meanwhile (below).
    expect(standIns.current.capacities.state(capacity.name)).toBe('resuming');
    const asked = generateTokens();

    // A second opening meanwhile (the token renewal too) waits the time left, and asks Azure nothing more.
    now += 5_000;
    const again = await ctx.request('GET', `/api/paineis/${s.panel.id}/token`, { token: s.bia });
    expect(again.statusCode).toBe(503);
    expect(Number(again.headers['retry-after'])).toBe(7);
    expect(standIns.current.capacities.calls.filter((c) => c.action === 'resume')).toHaveLength(1);
    expect(generateTokens()).toBe(asked);

    standIns.current.capacities.settle();
    now += 10_000;
    const served = await ctx.request('GET', `/api/paineis/${s.panel.id}`, { token: s.bia });
    expect(served.statusCode).toBe(200);
    expect(generateTokens()).toBe(asked + 1);

    // Newest first: Azure's end of the resume, then the opening that asked for it, both with the opening's reason and person.
    const woke = (await history(s.admin)).filter((c) => c.motivo === 'abertura');
    expect(woke.map((c) => [c.estado, c.pessoa])).toEqual([
      ['ativa', 'bia@empresa.com.br'],
      ['retomando', 'bia@empresa.com.br'],
    ]);
  });

  it('does not wake it for a person who may not: 503 without Retry-After, the paused message and whom to ask', async () => {
    const s = await setup({ quemRetomaAoAbrir: 'administradores', contato: 'TI, ramal 1234' });
    pause();

    const opened = await ctx.request('GET', `/api/paineis/${s.panel.id}`, { token: s.bia });
    expect(opened.statusCode).toBe(503);
    expect(opened.headers['retry-after']).toBeUndefined();
    expect(opened.json<CapacidadeIndisponivel>()).toEqual({
      message: 'Os relatórios estão pausados fora do horário de uso. Para usá-los agora, fale com TI, ramal 1234.',
      capacidade: { estado: 'pausada', podeRetomar: false, retomadaSegundos: null, contato: 'TI, ramal 1234' },
    });
    expect(standIns.current.capacities.state(capacity.name)).toBe('paused');
    // Memory held the capacity as running when it paused: at most that one opening reached Power BI, and was refused
    // (CapacityNotActive) before the portal read Azure again. The next one is answered without asking Power BI.
    const asked = generateTokens();
    expect(asked).toBeLessThanOrEqual(1);
    expect((await ctx.request('GET', `/api/paineis/${s.panel.id}`, { token: s.bia })).statusCode).toBe(503);
    expect(generateTokens()).toBe(asked);

    // An administrator may: the same panel wakes it.
    const byAdmin = await ctx.request('GET', `/api/paineis/${s.panel.id}`, { token: s.admin });
    expect(byAdmin.statusCode).toBe(503);
    expect(byAdmin.headers['retry-after']).toBe('12');
    expect(standIns.current.capacities.state(capacity.name)).toBe('resuming');
  });

  it('answers an export the same way, and a running capacity costs an opening no call to Azure', async () => {
    const s = await setup({ quemRetomaAoAbrir: 'ninguem' });
    const gets = () => standIns.current.capacities.calls.filter((c) => c.action === 'get').length;

    // Running: the first opening reads the state; the next ones, within seconds, are served from memory.
    expect((await ctx.request('GET', `/api/paineis/${s.panel.id}`, { token: s.bia })).statusCode).toBe(200);
    const read = gets();
    for (let i = 0; i < 5; i++) {
      expect((await ctx.request('GET', `/api/paineis/${s.panel.id}/token`, { token: s.bia })).statusCode).toBe(200);
    }
    expect(gets()).toBe(read);

    pause();
    const exportTos = () => standIns.current.powerBi.requests.filter((r) => r.path.endsWith('/ExportTo')).length;
    const exportPdf = () =>
      ctx.request('POST', `/api/paineis/${s.panel.id}/exportacoes`, { token: s.bia, body: { formato: 'PDF' } });
    // Memory held it as running: Power BI refuses the export (CapacityNotActive), Azure is read, and the answer is the
    // paused capacity's, not Power BI's refusal.
    const exported = await exportPdf();
    expect(exported.statusCode).toBe(503);
    expect(exported.json<CapacidadeIndisponivel>().capacidade).toMatchObject({ estado: 'pausada', podeRetomar: false });
    const asked = exportTos();
    expect(asked).toBeLessThanOrEqual(1);
    expect((await exportPdf()).statusCode).toBe(503);
    expect(exportTos()).toBe(asked);
    expect(standIns.current.capacities.state(capacity.name)).toBe('paused');
  });

  it('leaves the Power BI rounds for later while it is paused, so that nothing reads as broken; they run once it runs', async () => {
    await setup();
    pause();
    const calls = () => standIns.current.powerBi.requests.length;
    const before = calls();
    await ctx.app.panelHealth!.run();
    await ctx.app.freshness!.run();
    expect(calls()).toBe(before);
    const health = await ctx.request('GET', '/api/paineis/saude', { token: (await setupAdmin()).token });
    expect(health.json<unknown[]>()).toEqual([]);

    standIns.current.capacities.resume(capacity.name);
    now += 60_000;
    await ctx.app.panelHealth!.run();
    expect(calls()).toBeGreaterThan(before);
  });

  async function setupAdmin() {
    const admin = await createAdmin(ctx.db, { displayName: 'Caio Admin' });
    return { token: await ctx.tokenFor(admin) };
  }
});
