import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AtualizacoesPaineis, SaudePainel } from '@paineis/contract/power-bi';
import type { StandInDataset, StandInReport } from '@paineis/microsoft-stand-ins/types';
import { useTestApp } from '../../../test/context.ts';
import { eventually } from '../../../test/eventually.ts';
import { createAdmin, panelOver } from '../../../test/fixtures.ts';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';

/**
 * docs/decisions/021-background-tasks.md, through HTTP: a check asked for while a round runs is never lost in it. A
 * panel created, or a 'verificar' sent, while the health round runs gets a check after that round, within seconds,
 * not at the next timed round an hour away; and a panel created by hand gets its health and freshness with no one
 * asking.
 */

const WS = '0a0a0a0a-0000-4000-8000-00000000c001';
const id = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
const report = (n: number, name: string): StandInReport => ({
  workspaceId: WS,
  reportId: id('0b0b0b0b', 700 + n),
  name,
  datasetId: id('0c0c0c0c', 700 + n),
  rls: false,
});
const vendas = report(1, 'Vendas');
const compras = report(2, 'Compras');
const metas = report(3, 'Metas');
const datasets: StandInDataset[] = [vendas, compras, metas].map((r) => ({
  datasetId: r.datasetId,
  refreshes: [{ status: 'Completed', startTime: '2030-01-01T07:00:00Z', endTime: '2030-01-01T07:04:00Z' }],
}));
/** How long Power BI holds back the round's first call: the round is under way all that time. */
const HELD_MS = 1_500;

describe('checks asked for while a round runs', () => {
  const standIns = useStandIns({ people: [], reports: [vendas, compras, metas], datasets });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    // A call held back times out after HELD_MS, and the round asks again at once.
    powerBiOptions: { timeoutMs: HELD_MS, sleep: async () => undefined },
  }));
  let admin: string;
  beforeEach(async () => {
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports([vendas, compras, metas]);
    standIns.current.powerBi.setDatasets(datasets);
    admin = await ctx.tokenFor(await createAdmin(ctx.db, { email: 'admin@empresa.com.br' }));
  });

  const health = async () => {
    const res = await ctx.request('GET', '/api/paineis/saude', { token: admin });
    expect(res.statusCode).toBe(200);
    return new Map(res.json<SaudePainel[]>().map((h) => [h.painelId, h]));
  };
  const freshness = async () =>
    (await ctx.request('GET', '/api/paineis/atualizacoes', { token: admin })).json<AtualizacoesPaineis>();
  const pageCalls = () => standIns.current.powerBi.requests.filter((r) => r.path.endsWith('/pages'));
  const verify = async () =>
    expect((await ctx.request('POST', '/api/paineis/saude/verificar', { token: admin })).statusCode).toBe(202);

  /** A health round under way: Power BI holds back its first call. */
  async function roundUnderWay() {
    await panelOver(ctx.db, vendas, { nomePainel: 'Vendas' });
    await panelOver(ctx.db, compras, { nomePainel: 'Compras' });
    standIns.current.powerBi.hangNext();
    await verify();
    await eventually(() => expect(pageCalls().length).toBeGreaterThan(0));
  }

  /** Waits until the panel's check is listed; answers it with how long it took. */
  async function listedWithin(painelId: number, since: number) {
    let found: SaudePainel | undefined;
    await eventually(async () => {
      found = (await health()).get(painelId);
      expect(found).toBeDefined();
    }, 15_000);
    return { check: found!, seconds: (performance.now() - since) / 1000 };
  }

  it('checks a panel created, and its report missing, while a round runs, right after that round', async () => {
    await roundUnderWay();
    const since = performance.now();
    const created = await ctx.request('POST', '/api/paineis', {
      token: admin,
      body: { nomePainel: 'Relatório apagado', workspaceId: WS, reportId: randomUUID() },
    });
    expect(created.statusCode).toBe(201);
    const painelId = created.json<{ id: number }>().id;
    await verify();
    const { check, seconds } = await listedWithin(painelId, since);
    expect(check.estado).toBe('relatorio-nao-encontrado');
    // The round held back for HELD_MS, then a run after it: seconds, not the next timed round.
    expect(seconds).toBeLessThan(HELD_MS / 1000 + 3);
  });

  it("follows a round with one more when 'verificar' is sent during it, which checks what the first could not see", async () => {
    await roundUnderWay();
    // Written without the API, so that only 'verificar' can ask for its check.
    const unseen = await panelOver(
      ctx.db,
      { workspaceId: WS, reportId: randomUUID() },
      { nomePainel: 'Sem relatório' },
    );
    const since = performance.now();
    await verify();
    await verify();
    const { check, seconds } = await listedWithin(unseen.id, since);
    expect(check.estado).toBe('relatorio-nao-encontrado');
    expect(seconds).toBeLessThan(HELD_MS / 1000 + 3);
    await ctx.app.tasks.idle();
    // The first round: two reports, the call held back asked again; the one more, asked for twice: three. No third.
    expect(pageCalls()).toHaveLength(3 + 3);
  });

  it('gives a panel created by hand its health and freshness with nobody asking, checking that panel alone', async () => {
    await panelOver(ctx.db, vendas, { nomePainel: 'Vendas' });
    const created = await ctx.request('POST', '/api/paineis', {
      token: admin,
      body: { nomePainel: 'Metas', workspaceId: WS, reportId: metas.reportId },
    });
    expect(created.statusCode).toBe(201);
    const painelId = created.json<{ id: number }>().id;
    await eventually(async () => {
      expect((await health()).get(painelId)?.estado).toBe('ok');
      expect((await freshness())[painelId]).toMatchObject({
        status: 'concluida',
        ultimaAtualizacao: '2030-01-01T07:04:00.000Z',
      });
    });
    await ctx.app.tasks.idle();
    // Vendas, there before, was not checked: a created panel costs no round over every panel.
    expect(pageCalls().map((r) => r.path)).toEqual([expect.stringContaining(metas.reportId) as string]);
    expect((await health()).has(painelId - 1)).toBe(false);
  });
});
