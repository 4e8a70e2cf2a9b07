import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MudancaCapacidade } from '@paineis/contract/capacity';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser, link } from '../../../test/fixtures.ts';
import { microsoftConfig, person, useStandIns, TEST_CAPACITY } from '../../../test/microsoft.ts';
import { salesPanels, salesReports } from '../../../test/sales-reports.ts';
import { assinaturas, enviosAssinatura } from '../../db/schema.ts';

/**
 * docs/decisions/024-capacity-cost.md: a subscription due while the Power BI capacity is paused. The app's own
 * delivery worker (as app.ts wires it) resumes the capacity, waits for it to run, and only then asks Power BI for the
 * export, which a paused capacity refuses (CapacityNotActive).
 */

const capacity = TEST_CAPACITY;
const reports = salesReports(61);
/** Monday 2 March 2026, 07:00 in São Paulo: the weekly subscription's occurrence. */
const MONDAY = new Date('2026-03-02T10:00:00Z');
const SENDER = 'envios@empresa.com.br';

describe('a delivery due while the capacity is paused', () => {
  const standIns = useStandIns({
    people: [person('envios', 'Envios do portal')],
    reports: [reports.vendas, reports.regional],
    capacities: [{ ...capacity, state: 'paused' }],
    capacityTimings: { resumeMs: 300 },
  });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current, {
      POWER_BI_CAPACITY_ID: standIns.current.capacities.resourceId(capacity.name),
      MAIL_SENDER: SENDER,
    }),
    capacity: { resumeSeconds: 1, pollMs: 20 },
  }));
  beforeEach(() => {
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports([reports.vendas, reports.regional]);
    standIns.current.powerBi.setExportDuration(0);
    standIns.current.capacities.reset();
    standIns.current.capacities.pause(capacity.name);
  });

  it('resumes the capacity, waits for it to run, then exports and sends; the history says a delivery woke it', async () => {
    const admin = await createAdmin(ctx.db, { displayName: 'Ana Admin' });
    const bia = await createUser(ctx.db, { email: 'bia@empresa.com.br', displayName: 'Bia' });
    const { plain } = await salesPanels(ctx.db, reports, []);
    await link(ctx.db, plain.id, [bia.id]);
    const [sub] = await ctx.db
      .insert(assinaturas)
      .values({
        painelId: plain.id,
        usuarioId: bia.id,
        formato: 'PDF',
        frequencia: 'semanal',
        hora: '07:00',
        diaSemana: 1,
        fusoHorario: 'America/Sao_Paulo',
        proximoEnvio: MONDAY,
        comDestinatarios: false,
      })
      .returning();

    await ctx.app.deliveries.runOnce(new Date(MONDAY.getTime() + 30_000));

    const [envio] = await ctx.db.select().from(enviosAssinatura).where(eq(enviosAssinatura.assinaturaId, sub!.id));
    expect(envio).toMatchObject({ estado: 'enviado', tentativas: 1, erro: null });
    // Azure first, then Power BI: the resume was asked before the one export, which the running capacity served.
    const arm = standIns.current.capacities;
    expect(arm.state(capacity.name)).toBe('running');
    expect(arm.calls.filter((c) => c.action === 'resume')).toHaveLength(1);
    expect(standIns.current.powerBi.requests.filter((r) => r.path.endsWith('/ExportTo'))).toHaveLength(1);
    expect(standIns.current.graph.sentMail().map((m) => m.to.map((t) => t.address))).toEqual([['bia@empresa.com.br']]);

    const history = (await ctx.request('GET', '/api/capacidade/historico', { token: await ctx.tokenFor(admin) })).json<
      MudancaCapacidade[]
    >();
    expect(history.filter((c) => c.motivo === 'envio').map((c) => c.estado)).toContain('retomando');
  });
});
