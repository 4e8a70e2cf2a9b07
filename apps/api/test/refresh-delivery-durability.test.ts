import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStandIns } from '@paineis/microsoft-stand-ins/stand-ins';
import type { StandInRefresh, StandInReport, StandIns } from '@paineis/microsoft-stand-ins/types';
import { openDatabase, rows, type Database } from '../src/db/client.ts';
import { assinaturas } from '../src/db/schema.ts';
import { eventually } from './eventually.ts';
import { link, panelOver } from './fixtures.ts';
import { person } from './microsoft.ts';
import { freePort, printServerOutputOnFailure, startServer, type ServerProcess } from './server-process.ts';
import { countByDeliveryKey, startSmtpSink, type SmtpSink } from './smtp-sink.ts';
import { deliveryServerEnv, seedDirectoryPeople } from './subscription-setup.ts';

/**
 * Subscriptions sent after each refresh ('apos-atualizacao', docs/requirements.md#subscriptions-after-refresh), exactly
 * once as the scheduled ones (docs/decisions/020-subscription-deliveries.md): real server processes on one PostgreSQL
 * database, the Power BI stand-in's dataset completing a refresh, a real SMTP server in this process. An instance is
 * SIGKILLed between detecting the refresh and sending it (once holding the delivery, once before it was queued), and
 * another one delivers that refresh once to each recipient and never queues it again. A run without a kill measures the
 * delay from the refresh's end to the message.
 */

const onPostgres = inject('database') === 'postgres';
const WORKSPACE = '6a6a6a6a-0000-4000-8000-00000000006a';
const report: StandInReport = {
  workspaceId: WORKSPACE,
  reportId: '6b6b6b6b-0000-4000-8000-00000000006b',
  name: 'Metas Comerciais',
  datasetId: '6c6c6c6c-0000-4000-8000-00000000006c',
  rls: false,
};
const people = Array.from({ length: 3 }, (_, i) =>
  person(`6d6d6d6d-0000-4000-8000-${String(i).padStart(12, '0')}`, `Assinante ${i + 1}`),
);
/** The full freshness round every 3 s: a refresh is found within seconds. */
const ROUND_SECONDS = 3;
/**
 * How long a round may wait for a claim held by an instance killed during one (the task runner's 2-minute lease,
 * docs/decisions/021-background-tasks.md), plus margin: rare, as a round takes a small part of its interval.
 */
const ROUND_CLAIM_LAPSE_MS = 150_000;

// Said in the PGlite project's report rather than left out silently.
if (!onPostgres) {
  describe('subscriptions sent after each refresh, durability', () => {
    it.skip('runs on PostgreSQL only: one process owns a PGlite data directory, so two instances cannot share it', () => {});
  });
}

describe.runIf(onPostgres)('subscriptions sent after each refresh: an instance killed between refresh and send', () => {
  const name = `paineis_atualizacao_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  let admin: pg.Client | undefined;
  let created = false;
  let database: Database | undefined;
  let standIns: StandIns | undefined;
  let sink: SmtpSink | undefined;
  let env: Record<string, string> = {};
  const servers: ServerProcess[] = [];
  /** When each message reached the sink (Date.now()), by its place in sink.messages. */
  const arrivals: number[] = [];
  /** The dataset's refresh history in the stand-in, newest first. */
  const history: StandInRefresh[] = [];
  printServerOutputOnFailure(() => servers);

  beforeAll(async () => {
    const started = Date.now();
    // An old refresh, before the subscriptions began waiting: never delivered.
    history.push({
      status: 'Completed',
      startTime: new Date(started - 3_600_000).toISOString(),
      endTime: new Date(started - 3_540_000).toISOString(),
    });
    standIns = await startStandIns({
      people,
      reports: [report],
      datasets: [{ datasetId: report.datasetId, refreshes: [...history] }],
      exportDurationMs: 200,
    });
    sink = await startSmtpSink();
    sink.onMessage(() => arrivals.push(Date.now()));
    admin = new pg.Client({ connectionString: inject('postgresUrl') });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
    created = true;
    const url = new URL(inject('postgresUrl'));
    url.pathname = `/${name}`;
    database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 });

    await seedDirectoryPeople(database.db, people, 'test');
    const painelId = (await panelOver(database.db, report, { nomePainel: 'Metas Comerciais' })).id;
    await link(
      database.db,
      painelId,
      people.map((p) => p.id),
    );
    // Each person's own subscription, waiting for the refreshes from a minute ago.
    await database.db.insert(assinaturas).values(
      people.map((p) => ({
        painelId,
        usuarioId: p.id,
        formato: 'PDF' as const,
        frequencia: 'apos-atualizacao' as const,
        hora: null,
        fusoHorario: 'America/Sao_Paulo',
        proximoEnvio: null,
        atualizacoesDesde: new Date(started - 60_000),
      })),
    );

    env = {
      ...deliveryServerEnv({
        databaseUrl: url.toString(),
        jwtSecret: 'segredo-das-instancias-apos-atualizacao-0123456789',
        smtpUrl: sink.url,
        standIns,
      }),
      POWER_BI_REFRESH_INTERVAL_MINUTES: String(ROUND_SECONDS / 60),
      // A dead instance's claims are taken over 3 s after its last renewal.
      SUBSCRIPTION_LEASE_SECONDS: '3',
      SUBSCRIPTION_EXPORT_CONCURRENCY: '10',
      SUBSCRIPTION_RETRY_SECONDS: '1',
    };
  });

  afterAll(async () => {
    const bounded = (p: Promise<unknown>) => Promise.race([p, new Promise((r) => setTimeout(r, 10_000))]);
    await Promise.all(servers.map((s) => bounded(s.stop())));
    await database?.close();
    await sink?.close();
    await standIns?.close();
    if (created) await admin?.query(`drop database if exists ${name} with (force)`);
    await admin?.end();
  });

  /** An instance signing its messages as `label`, so that the sink tells who sent what. */
  async function instance(label: string, overrides: Record<string, string | null> = {}): Promise<ServerProcess> {
    const own: Record<string, string> = { ...env, PORT: String(await freePort()), MAIL_FROM: sender(label) };
    for (const [key, value] of Object.entries(overrides)) {
      if (value === null) delete own[key];
      else own[key] = value;
    }
    return startServer(own, { readyWithinMs: 60_000, onSpawn: (s) => servers.push(s) });
  }
  const sender = (label: string) => `paineis-${label}@empresa.com.br`;

  /** The dataset completes a refresh now (its end, what the deliveries are queued for), and when. */
  function refreshCompletes(): { end: Date; at: number } {
    const at = Date.now();
    const end = new Date(at);
    history.unshift({
      status: 'Completed',
      startTime: new Date(at - 30_000).toISOString(),
      endTime: end.toISOString(),
    });
    standIns!.powerBi.setRefreshes(report.datasetId, [...history]);
    return { end, at };
  }

  type Delivery = {
    id: string;
    estado: string;
    ocupado_por: string | null;
    tentativas: number;
    usuario_id: string;
    email: string;
  };
  /** The deliveries queued for the refresh that ended at `end`. */
  const deliveriesOf = (end: Date) =>
    rows<Delivery>(
      database!.db,
      sql`select e.id, e.estado, e.ocupado_por, e.tentativas, s.usuario_id, u.email
          from envios_assinatura e join assinaturas s on s.id = e.assinatura_id join usuarios u on u.id = s.usuario_id
          where e.ocorrencia = ${end.toISOString()}::timestamptz`,
    );
  const deliveryCount = async () =>
    (await rows<{ n: number }>(database!.db, sql`select count(*)::int as n from envios_assinatura`))[0]!.n;
  const lastRefreshStored = async () =>
    (
      await rows<{ fim: string | Date | null }>(
        database!.db,
        sql`select ultima_atualizacao as fim from datasets_atualizacao where dataset_id = ${report.datasetId}`,
      )
    )[0]?.fim ?? null;
  /** Whether a freshness round stored the refresh that ended at `end` as the dataset's last. */
  const storedAs = async (end: Date) => {
    const stored = await lastRefreshStored();
    return stored !== null && new Date(stored).getTime() === end.getTime();
  };
  /** The instance's id in a claim names its pid (deliveries.ts: host, pid and a random part). */
  const heldBy = (server: ServerProcess, d: Delivery) =>
    d.estado === 'executando' && (d.ocupado_por ?? '').split(/[^0-9A-Za-z]+/).includes(String(server.pid));

  /** Until every delivery of the refresh ended, one per subscription; answers them. */
  async function allSent(end: Date, timeoutMs: number): Promise<Delivery[]> {
    let found: Delivery[] = [];
    await eventually(async () => {
      found = await deliveriesOf(end);
      expect(found.map((d) => d.estado)).toEqual(people.map(() => 'enviado'));
    }, timeoutMs);
    return found;
  }

  /** Each delivery reached its owner once, from `label`; no other message names these deliveries. */
  function deliveredOnceBy(deliveries: Delivery[], label: string) {
    const keys = new Map(deliveries.map((d) => [`${d.id}/${d.usuario_id}`, d.email]));
    const theirs = sink!.messages.filter((m) => m.deliveryKey && keys.has(m.deliveryKey));
    const counts = countByDeliveryKey(theirs);
    expect([...keys.keys()].map((key) => counts.get(key) ?? 0)).toEqual(deliveries.map(() => 1));
    expect(theirs.map((m) => m.from)).toEqual(deliveries.map(() => sender(label)));
    expect(theirs.filter((m) => m.to.join() !== keys.get(m.deliveryKey!))).toEqual([]);
  }

  /** When the messages of these deliveries reached the sink. */
  function arrivalsOf(deliveries: Delivery[]): number[] {
    const keys = new Set(deliveries.map((d) => `${d.id}/${d.usuario_id}`));
    return sink!.messages.flatMap((m, i) => (keys.has(m.deliveryKey ?? '') ? [arrivals[i]!] : []));
  }

  /** A few more polls and rounds of the instance left: nothing more is queued or sent for what was delivered. */
  async function nothingMoreAfter(rounds: number) {
    const queued = await deliveryCount();
    const messages = sink!.messages.length;
    await new Promise((resolve) => setTimeout(resolve, rounds * ROUND_SECONDS * 1000));
    expect(await deliveryCount()).toBe(queued);
    expect(sink!.messages.length).toBe(messages);
  }

  it('without a kill, sends each subscription once within seconds of the refresh', { timeout: 120_000 }, async () => {
    const n = await instance('n');
    // Its first round read the dataset (the old refresh), so the next one finds the new refresh.
    await eventually(async () => expect(await lastRefreshStored()).not.toBeNull(), 30_000);
    const refresh = refreshCompletes();
    let detectedAt = 0;
    await eventually(async () => {
      expect(await storedAs(refresh.end)).toBe(true);
      detectedAt = Date.now();
    }, 30_000);
    const deliveries = await allSent(refresh.end, 60_000);
    const delays = arrivalsOf(deliveries).map((t) => t - refresh.at);
    process.stdout.write(
      `\nsubscription after refresh, no kill: refresh found ${((detectedAt - refresh.at) / 1000).toFixed(1)} s and ` +
        `messages ${(Math.min(...delays) / 1000).toFixed(1)} to ${(Math.max(...delays) / 1000).toFixed(1)} s after ` +
        `the refresh's end (full round every ${ROUND_SECONDS} s)\n`,
    );
    deliveredOnceBy(deliveries, 'n');
    // A round's interval, the export and the mail: a few seconds.
    expect(Math.max(...delays), `delays ${delays.join(', ')} ms`).toBeLessThan(20_000);
    await nothingMoreAfter(2);
    await n.stop();
  });

  it(
    'killed while rendering the delivery it claimed, another instance sends it once',
    { timeout: 240_000 },
    async () => {
      // A renders for a long time: it still holds the deliveries when it is killed.
      standIns!.powerBi.setExportDuration(60_000);
      const a = await instance('a');
      const refresh = refreshCompletes();
      let claimed: Delivery[] = [];
      await eventually(async () => {
        claimed = await deliveriesOf(refresh.end);
        expect(claimed.filter((d) => heldBy(a, d)).length).toBe(people.length);
      }, ROUND_CLAIM_LAPSE_MS);
      expect(sink!.messages.filter((m) => m.from === sender('a'))).toEqual([]);
      await a.kill();
      const killedAt = Date.now();
      expect(sink!.messages.filter((m) => m.from === sender('a'))).toEqual([]);

      standIns!.powerBi.setExportDuration(200);
      const b = await instance('b');
      const deliveries = await allSent(refresh.end, 60_000);
      process.stdout.write(
        `\nsubscription after refresh, A killed holding the deliveries ${((killedAt - refresh.at) / 1000).toFixed(1)} s ` +
          `after the refresh's end: B (ready ${(b.readyAfterMs / 1000).toFixed(1)} s after its start) sent them ` +
          `${((Math.max(...arrivalsOf(deliveries)) - killedAt) / 1000).toFixed(1)} s after the kill\n`,
      );
      expect(deliveries.map((d) => d.id).sort()).toEqual(claimed.map((d) => d.id).sort());
      // Taken over: A's attempt and B's.
      expect(deliveries.map((d) => d.tentativas)).toEqual(people.map(() => 2));
      deliveredOnceBy(deliveries, 'b');
      await nothingMoreAfter(3);
      expect(await deliveriesOf(refresh.end)).toHaveLength(people.length);
      await b.stop();
    },
  );

  it(
    'killed after its round found the refresh and before queueing it, another instance sends it once',
    { timeout: 300_000 },
    async () => {
      // Without a mail transport A's deliveries never queue anything, while its rounds read Power BI: it is killed in
      // the window between the round saving the refresh and its queueing, however long.
      const a = await instance('a2', { SMTP_URL: null, MAIL_FROM: null });
      const refresh = refreshCompletes();
      await eventually(async () => expect(await storedAs(refresh.end)).toBe(true), ROUND_CLAIM_LAPSE_MS);
      expect(await deliveriesOf(refresh.end)).toEqual([]);
      await a.kill();

      const b = await instance('b2');
      const deliveries = await allSent(refresh.end, 60_000);
      expect(deliveries.map((d) => d.tentativas)).toEqual(people.map(() => 1));
      deliveredOnceBy(deliveries, 'b2');
      await nothingMoreAfter(3);
      expect(await deliveriesOf(refresh.end)).toHaveLength(people.length);
      // Every refresh since the subscriptions began, once each (the old one, before, never).
      expect(await deliveryCount()).toBe(3 * people.length);
      await b.stop();
    },
  );
});
