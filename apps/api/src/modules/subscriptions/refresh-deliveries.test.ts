import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Assinatura } from '@paineis/contract/subscriptions';
import type { StandInRefresh } from '@paineis/microsoft-stand-ins/types';
import { createUser, link } from '../../../test/fixtures.ts';
import { salesPanels, salesReports, useSalesApp } from '../../../test/sales-reports.ts';
import { countByDeliveryKey, startSmtpSink, type SmtpSink } from '../../../test/smtp-sink.ts';
import { assinaturas, enviosAssinatura } from '../../db/schema.ts';
import { createMailTransport } from '../../integrations/mail/create-mail-transport.ts';
import type { MailTransport } from '../../integrations/mail/mail-transport.ts';
import { readFreshness, readWatchedFreshness } from '../power-bi/freshness.ts';
import { DeliveryWorker, panelsAwaitingRefresh } from './deliveries.ts';
import { deliveryMessage } from './delivery-message.ts';

/**
 * Subscriptions sent after each refresh (docs/requirements.md#subscriptions-after-refresh): the freshness rounds read
 * the dataset's refresh history from the Power BI stand-in through the portal's client, and the deliveries' workers
 * queue and send through a real SMTP server. The clock is vitest's (Date only), so that the refreshes, the quiet window
 * and the subscriptions' marks follow the test's moments.
 */

const reports = salesReports(61);
/**
 * Each test's first moment, a day after the last one's: the clock only moves forward, as the portal's caches, which
 * look at it to know when to read again, expect of it.
 */
let T0 = new Date('2027-03-01T10:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const completed = (endMinutes: number): StandInRefresh => ({
  status: 'Completed',
  startTime: at(endMinutes - 0.5).toISOString(),
  endTime: at(endMinutes).toISOString(),
});

describe('subscriptions sent after each refresh', () => {
  const { standIns, ctx } = useSalesApp(reports, { powerBiOptions: { timeoutMs: 2000, sleep: async () => undefined } });
  const powerBi = () => standIns.current.powerBi;
  let sink: SmtpSink;
  const transports: MailTransport[] = [];
  const workers: DeliveryWorker[] = [];
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());
  beforeEach(() => {
    T0 = new Date(T0.getTime() + 86_400_000);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    powerBi().setExportDuration(0);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await Promise.all(transports.splice(0).map((t) => t.close()));
  });

  function worker(instanceId = 'instancia-a') {
    const mail = createMailTransport(
      { kind: 'smtp', url: sink.url, from: 'Painéis <paineis@empresa.com.br>', maxAttachmentBytes: 10 * 1024 * 1024 },
      { graph: null },
    )!;
    transports.push(mail);
    const created = new DeliveryWorker({
      db: ctx.db,
      reportExports: ctx.app.reportExports,
      mail,
      config: { ...ctx.config, publicUrl: 'https://paineis.empresa.com.br' },
      log: ctx.app.log,
      instanceId,
      wait: (ms, signal) => sleep(Math.min(ms, 20), undefined, { signal }).catch(() => undefined),
    });
    workers.push(created);
    return created;
  }

  /** Ana may open the plain panel over Vendas, whose dataset the tests refresh; the first round finds the dataset. */
  async function setup() {
    const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br', displayName: 'Ana Souza' });
    const bia = await createUser(ctx.db, { email: 'bia@empresa.com.br', displayName: 'Bia Lima' });
    const { plain } = await salesPanels(ctx.db, reports, []);
    await link(ctx.db, plain.id, [ana.id, bia.id]);
    powerBi().setRefreshes(reports.vendas.datasetId, [completed(-60)]);
    await readFreshness(ctx.db, ctx.app.powerBi!, ctx.app.log);
    return { ana, bia, plain, token: await ctx.tokenFor(ana) };
  }

  const subscribe = async (token: string, body: Record<string, unknown>) => {
    const res = await ctx.request('POST', '/api/assinaturas', { token, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Assinatura>();
  };
  /** The history Power BI answers now, newest first, and the watch round that reads it. */
  const refreshes = async (...history: StandInRefresh[]) => {
    powerBi().setRefreshes(reports.vendas.datasetId, history);
    const watched = new Set(await panelsAwaitingRefresh(ctx.db));
    return readWatchedFreshness(ctx.db, ctx.app.powerBi!, ctx.app.log, watched);
  };
  const deliveries = (assinaturaId: string) =>
    ctx.db
      .select()
      .from(enviosAssinatura)
      .where(eq(enviosAssinatura.assinaturaId, assinaturaId))
      .orderBy(enviosAssinatura.ocorrencia);
  const occurrences = async (assinaturaId: string) =>
    (await deliveries(assinaturaId)).map((d) => [d.ocorrencia.toISOString(), d.estado]);

  it('is created without a time, waits for a refresh, and is sent once per completed refresh, never for one before it', async () => {
    const s = await setup();
    const sub = await subscribe(s.token, { painelId: s.plain.id, formato: 'PDF', frequencia: 'apos-atualizacao' });
    expect(sub).toMatchObject({ frequencia: 'apos-atualizacao', hora: null, intervaloHoras: null, proximoEnvio: null });

    // The refresh of an hour ago, before the subscription: nothing.
    vi.setSystemTime(at(1));
    await worker().runOnce(at(1));
    expect(await occurrences(sub.id)).toEqual([]);

    // A refresh ends at +3: the watch round finds it, and the next poll sends it, with its end as the occurrence.
    vi.setSystemTime(at(4));
    expect(await refreshes(completed(3), completed(-60))).toBe(1);
    const sentBefore = sink.messages.length;
    await worker().runOnce(at(4));
    expect(await occurrences(sub.id)).toEqual([[at(3).toISOString(), 'enviado']]);
    expect(sink.messages.length - sentBefore).toBe(1);
    expect(sink.messages.at(-1)!.to).toEqual(['ana@empresa.com.br']);

    // Read again, polled again: the same refresh is not sent twice.
    vi.setSystemTime(at(6));
    await refreshes(completed(3), completed(-60));
    await worker().runOnce(at(6));
    await worker('instancia-b').runOnce(at(6));
    expect(await occurrences(sub.id)).toHaveLength(1);

    // The next completed refresh is sent in turn.
    vi.setSystemTime(at(10));
    await refreshes(completed(9), completed(3));
    await worker().runOnce(at(10));
    expect(await occurrences(sub.id)).toEqual([
      [at(3).toISOString(), 'enviado'],
      [at(9).toISOString(), 'enviado'],
    ]);
  });

  it('sends nothing for a failed, cancelled or running refresh, and the next completed one after them', async () => {
    const s = await setup();
    const sub = await subscribe(s.token, { painelId: s.plain.id, formato: 'PDF', frequencia: 'apos-atualizacao' });
    const failed: StandInRefresh = {
      status: 'Failed',
      startTime: at(1).toISOString(),
      endTime: at(2).toISOString(),
      serviceExceptionJson: '{"errorCode":"ModelRefresh_ShortMessage_ProcessingError"}',
    };
    const cancelled: StandInRefresh = {
      status: 'Cancelled',
      startTime: at(3).toISOString(),
      endTime: at(4).toISOString(),
    };
    const running: StandInRefresh = { status: 'Unknown', startTime: at(5).toISOString() };
    for (const [minute, history] of [
      [3, [failed, completed(-60)]],
      [5, [cancelled, failed, completed(-60)]],
      [6, [running, cancelled, failed, completed(-60)]],
    ] as const) {
      vi.setSystemTime(at(minute));
      await refreshes(...history);
      await worker().runOnce(at(minute));
    }
    expect(await occurrences(sub.id)).toEqual([]);

    vi.setSystemTime(at(8));
    await refreshes(completed(7), cancelled, failed, completed(-60));
    await worker().runOnce(at(8));
    expect(await occurrences(sub.id)).toEqual([[at(7).toISOString(), 'enviado']]);
  });

  it('holds back refreshes inside the quiet window, then sends the newest once the window ends', async () => {
    const s = await setup();
    const sub = await subscribe(s.token, {
      painelId: s.plain.id,
      formato: 'PDF',
      frequencia: 'apos-atualizacao',
      intervaloHoras: 2,
    });
    expect(sub.intervaloHoras).toBe(2);

    vi.setSystemTime(at(10));
    await refreshes(completed(9));
    await worker().runOnce(at(10));
    // Refreshes at +40 and +70: inside two hours of the first delivery (queued at +10), held back.
    for (const [minute, history] of [
      [41, [completed(40), completed(9)]],
      [71, [completed(70), completed(40)]],
      [129, [completed(70), completed(40)]],
    ] as const) {
      vi.setSystemTime(at(minute));
      await refreshes(...history);
      await worker().runOnce(at(minute));
    }
    expect(await occurrences(sub.id)).toEqual([[at(9).toISOString(), 'enviado']]);

    // Two hours after the first was queued: the newest refresh (+70) goes, once; the one at +40 never does.
    vi.setSystemTime(at(130));
    await worker().runOnce(at(130));
    await worker('instancia-b').runOnce(at(131));
    expect(await occurrences(sub.id)).toEqual([
      [at(9).toISOString(), 'enviado'],
      [at(70).toISOString(), 'enviado'],
    ]);
  });

  it('sends nothing while paused, nor on resuming for a refresh of while it was paused', async () => {
    const s = await setup();
    const sub = await subscribe(s.token, { painelId: s.plain.id, formato: 'PDF', frequencia: 'apos-atualizacao' });
    vi.setSystemTime(at(1));
    expect(
      (await ctx.request('PATCH', `/api/assinaturas/${sub.id}`, { token: s.token, body: { ativa: false } })).statusCode,
    ).toBe(200);
    vi.setSystemTime(at(5));
    // Paused: not watched, and the full round's finding is not queued.
    expect(await refreshes(completed(4))).toBe(0);
    await readFreshness(ctx.db, ctx.app.powerBi!, ctx.app.log);
    await worker().runOnce(at(5));
    vi.setSystemTime(at(6));
    expect(
      (await ctx.request('PATCH', `/api/assinaturas/${sub.id}`, { token: s.token, body: { ativa: true } })).statusCode,
    ).toBe(200);
    await worker().runOnce(at(6));
    expect(await occurrences(sub.id)).toEqual([]);

    vi.setSystemTime(at(9));
    await refreshes(completed(8), completed(4));
    await worker().runOnce(at(9));
    expect(await occurrences(sub.id)).toEqual([[at(8).toISOString(), 'enviado']]);
  });

  it('switches between a clock and refreshes: the time goes and comes back, and a time is refused for refreshes', async () => {
    const s = await setup();
    const daily = await subscribe(s.token, {
      painelId: s.plain.id,
      formato: 'PDF',
      frequencia: 'diaria',
      hora: '08:00',
    });
    expect(daily.proximoEnvio).not.toBeNull();
    const path = `/api/assinaturas/${daily.id}`;
    const switched = await ctx.request('PATCH', path, { token: s.token, body: { frequencia: 'apos-atualizacao' } });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json<Assinatura>()).toMatchObject({
      hora: null,
      proximoEnvio: null,
      frequencia: 'apos-atualizacao',
    });
    // Back to a clock without a time: refused, nothing changed.
    const noTime = await ctx.request('PATCH', path, { token: s.token, body: { frequencia: 'diaria' } });
    expect(noTime.statusCode).toBe(400);
    expect(noTime.json()).toEqual({ message: 'Uma assinatura diária, semanal ou mensal precisa da hora (hora).' });
    for (const body of [
      { frequencia: 'apos-atualizacao', hora: '08:00' },
      { intervaloHoras: 3, frequencia: 'semanal', diaSemana: 1, hora: '08:00' },
      { intervaloHoras: 0 },
      { intervaloHoras: 169 },
    ]) {
      const res = await ctx.request('PATCH', path, { token: s.token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const refused = await ctx.request('POST', '/api/assinaturas', {
      token: s.token,
      body: { painelId: s.plain.id, formato: 'PDF', frequencia: 'diaria' },
    });
    expect(refused.statusCode).toBe(400);
    const [stored] = await ctx.db.select().from(assinaturas).where(eq(assinaturas.id, daily.id));
    expect(stored).toMatchObject({ frequencia: 'apos-atualizacao', hora: null, proximoEnvio: null });
    const back = await ctx.request('PATCH', path, { token: s.token, body: { frequencia: 'diaria', hora: '09:00' } });
    expect(back.json<Assinatura>()).toMatchObject({ frequencia: 'diaria', hora: '09:00', intervaloHoras: null });
    expect(back.json<Assinatura>().proximoEnvio).not.toBeNull();
  });

  it('two instances polling at once queue and send each refresh once', async () => {
    const s = await setup();
    const subs = await Promise.all(
      [s.ana, s.bia].map(async (person) =>
        subscribe(await ctx.tokenFor(person), { painelId: s.plain.id, formato: 'PDF', frequencia: 'apos-atualizacao' }),
      ),
    );
    const sentBefore = sink.messages.length;
    for (const minute of [3, 6, 9]) {
      vi.setSystemTime(at(minute + 1));
      await refreshes(completed(minute));
      await Promise.all([worker('instancia-a').runOnce(at(minute + 1)), worker('instancia-b').runOnce(at(minute + 1))]);
    }
    for (const sub of subs) {
      expect((await occurrences(sub.id)).map(([, estado]) => estado)).toEqual(['enviado', 'enviado', 'enviado']);
    }
    const sent = sink.messages.slice(sentBefore);
    expect(sent).toHaveLength(6);
    expect([...countByDeliveryKey(sent).values()].every((n) => n === 1)).toBe(true);
  });

  it('says in the message when the data was refreshed', () => {
    const message = deliveryMessage({
      envioId: 'e1',
      base: 'https://paineis.empresa.com.br',
      recipient: { id: 'u1', nome: 'Ana', email: 'ana@empresa.com.br' },
      panel: { id: 7, nomePainel: 'Vendas' },
      formato: 'PDF',
      schedule: {
        frequencia: 'apos-atualizacao',
        hora: null,
        diaSemana: null,
        diaMes: null,
        fusoHorario: 'America/Sao_Paulo',
      },
      ocorrencia: new Date('2026-03-02T10:03:00Z'),
      manual: false,
      visao: null,
      file: { kind: 'attached', filename: 'Vendas.pdf', contentType: 'application/pdf', content: Buffer.from('x') },
    });
    expect(message.subject).toBe('Vendas — 02/03/2026 às 07:03');
    expect(message.text).toContain(
      'Os dados foram atualizados em 02/03/2026 às 07:03 (America/Sao_Paulo); a assinatura é enviada após cada atualização dos dados.',
    );
  });
});
