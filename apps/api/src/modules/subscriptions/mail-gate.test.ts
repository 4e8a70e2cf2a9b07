import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUser, link } from '../../../test/fixtures.ts';
import { person } from '../../../test/microsoft.ts';
import { salesPanels, salesReports, useSalesApp } from '../../../test/sales-reports.ts';
import type { GraphMailLimits } from '../../config/env.ts';
import { rows } from '../../db/client.ts';
import { arquivosAssinatura, assinaturas, enviosAssinatura } from '../../db/schema.ts';
import { createMailTransport } from '../../integrations/mail/create-mail-transport.ts';
import { DeliveryWorker } from './deliveries.ts';

/**
 * Deliveries through Graph's sendMail within Outlook's limits (docs/decisions/016-microsoft-contract-tests.md): the
 * portal's real Graph client against the stand-in, which answers 429 with Retry-After past 4 requests in flight and past
 * its upload budget, and 413 past its largest request, as Microsoft documents them.
 */

const reports = salesReports(71);
const SENDER = person('paineis', 'Painéis');
/** Monday 2 March 2026, 07:00 in São Paulo: the weekly subscriptions' occurrence. */
const MONDAY = new Date('2026-03-02T10:00:00Z');
const NOW = new Date(MONDAY.getTime() + 30_000);
/** Microsoft's figures (the configuration's defaults). */
const OUTLOOK: GraphMailLimits = {
  concurrency: 4,
  uploadBytes: 150_000_000,
  uploadWindowSeconds: 300,
  requests: 10_000,
  requestsWindowSeconds: 600,
};

describe('deliveries within Graph’s mail limits', () => {
  const { standIns, ctx } = useSalesApp(reports, { powerBiOptions: { timeoutMs: 5000, sleep: async () => undefined } });
  const graph = () => standIns.current.graph;
  const started: DeliveryWorker[] = [];
  beforeEach(() => {
    graph().reset();
    graph().setPeople([SENDER]);
    standIns.current.powerBi.setExportDuration(0);
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((w) => w.stop()));
  });

  function worker(instanceId: string, limits: Partial<GraphMailLimits> = {}, exportConcurrency = 6) {
    const mail = createMailTransport(
      { kind: 'graph', sender: SENDER.mail!, maxAttachmentBytes: 3_000_000, limits: { ...OUTLOOK, ...limits } },
      { graph: ctx.app.graph },
    )!;
    const created = new DeliveryWorker({
      db: ctx.db,
      reportExports: ctx.app.reportExports,
      mail,
      config: {
        ...ctx.config,
        publicUrl: 'https://paineis.empresa.com.br',
        subscriptions: {
          maxAttempts: 3,
          retrySeconds: 60,
          exportConcurrency,
          pollSeconds: 3600,
          refreshWatchMinutes: 5,
          leaseSeconds: 30,
          fileDays: 7,
          sendNowLimit: 10,
          sendNowWindowSeconds: 3600,
        },
      },
      log: ctx.app.log,
      instanceId,
      // Power BI's Retry-After shortened; the mail limits' waits are real time, as the windows are.
      wait: (ms, signal) => sleep(Math.min(ms, 50), undefined, { signal }).catch(() => undefined),
    });
    started.push(created);
    return created;
  }

  let panel: Promise<{ id: number }> | null = null;
  beforeEach(() => {
    panel = null;
  });
  let made = 0;
  /** `count` more people, each with a weekly subscription of the panel without RLS, due at MONDAY. */
  async function dueSubscriptions(count: number) {
    panel ??= salesPanels(ctx.db, reports, []).then(({ plain }) => plain);
    const plain = await panel;
    const people = [];
    for (let i = 0; i < count; i++) {
      made += 1;
      people.push(await createUser(ctx.db, { email: `pessoa${made}@empresa.com.br` }));
    }
    await link(
      ctx.db,
      plain.id,
      people.map((p) => p.id),
    );
    await ctx.db.insert(assinaturas).values(
      people.map((p) => ({
        painelId: plain.id,
        usuarioId: p.id,
        formato: 'PDF' as const,
        frequencia: 'semanal' as const,
        hora: '07:00',
        diaSemana: 1,
        fusoHorario: 'America/Sao_Paulo',
        proximoEnvio: MONDAY,
      })),
    );
  }
  const envios = () => ctx.db.select().from(enviosAssinatura);

  it('keeps at most 4 sendMail in flight for the mailbox across two instances, and Graph throttles none', async () => {
    graph().setMailLimits({ latencyMs: 150 });
    await dueSubscriptions(16);

    await Promise.all([worker('instancia-a').runOnce(NOW), worker('instancia-b').runOnce(NOW)]);

    const done = await envios();
    expect(done).toHaveLength(16);
    expect(done.every((e) => e.estado === 'enviado' && e.tentativas === 1)).toBe(true);
    expect(graph().sentMail()).toHaveLength(16);
    const stats = graph().mailStats();
    expect(stats.throttled).toBe(0);
    // The places are shared: both instances sent, four at a time.
    expect(stats.peakConcurrent).toBe(4);
  });

  it('waits out a 429’s Retry-After, for every instance, and spends no delivery attempt on it', async () => {
    // Graph allows fewer requests in flight than the portal expects (another application uses the mailbox).
    graph().setMailLimits({ latencyMs: 100, concurrentRequests: 1 });
    await dueSubscriptions(6);

    await Promise.all([worker('instancia-a').runOnce(NOW), worker('instancia-b').runOnce(NOW)]);

    expect(graph().mailStats().throttled).toBeGreaterThan(0);
    const done = await envios();
    expect(done.map((e) => [e.estado, e.tentativas, e.erro])).toEqual(Array(6).fill(['enviado', 1, null]));
    expect(graph().sentMail()).toHaveLength(6);
    // The Retry-After was kept for the mailbox, where every instance reads it.
    const [mailbox] = await rows<{ pausada: boolean }>(
      ctx.db,
      sql`select pausada_ate is not null as pausada from caixas_envio where caixa = ${SENDER.mail!.toLowerCase()}`,
    );
    expect(mailbox).toEqual({ pausada: true });
  });

  it('keeps to the mailbox’s upload budget: waits for the window to move instead of being throttled', async () => {
    await dueSubscriptions(1);
    await worker('instancia-a').runOnce(NOW);
    const [{ bytes }] = (await rows<{ bytes: number }>(ctx.db, sql`select bytes from uso_caixa_envio`)) as [
      { bytes: number },
    ];
    await ctx.db.delete(assinaturas);
    await ctx.db.execute(sql`delete from uso_caixa_envio`);
    graph().reset();
    graph().setPeople([SENDER]);

    // Room for two messages in any 2 seconds, at Graph and in the portal's configuration alike.
    const budget = Math.floor(bytes * 2.5);
    graph().setMailLimits({ uploadBytesPerWindow: budget, uploadWindowMs: 2000 });
    await dueSubscriptions(5);
    const began = performance.now();
    await Promise.all([
      worker('instancia-a', { uploadBytes: budget, uploadWindowSeconds: 2 }).runOnce(NOW),
      worker('instancia-b', { uploadBytes: budget, uploadWindowSeconds: 2 }).runOnce(NOW),
    ]);
    const took = performance.now() - began;

    expect((await envios()).filter((e) => e.estado === 'enviado' && e.tentativas === 1)).toHaveLength(5);
    expect(graph().mailStats().throttled).toBe(0);
    // Two, then two once the first two left the window, then the last: two windows at least.
    expect(took).toBeGreaterThanOrEqual(4000);
  });

  it('sends the download link instead when Graph refuses the message as too large (413)', async () => {
    await dueSubscriptions(1);
    // Graph takes smaller requests than the portal expects: the message with its PDF is refused, the one with the link
    // is not.
    graph().setMailLimits({ maxRequestBytes: 6000 });

    await worker('instancia-a').runOnce(NOW);

    const [envio] = await envios();
    expect(envio).toMatchObject({ estado: 'enviado', tentativas: 1 });
    expect(graph().mailStats().tooLarge).toBe(1);
    const [message, ...more] = graph().sentMail();
    expect(more).toEqual([]);
    expect(message!.attachments).toEqual([]);
    const [file] = await ctx.db.select({ id: arquivosAssinatura.id }).from(arquivosAssinatura);
    expect(message!.body.content).toContain(`/assinaturas/arquivos/${file!.id}`);
  });
});
