// Subscriptions' deliveries through Microsoft Graph's sendMail (GRAPH_MAIL_SCALE and GRAPH_RATIO_MAX in
// bench/budgets.ts): bench/subscriptions.ts's scenario, two compiled servers on one PostgreSQL database, with the
// messages sent from one mailbox through the Graph stand-in, which holds them to Outlook's limits as Microsoft documents
// them: 4 requests in flight, an upload budget per window, 429 with Retry-After beyond. The upload window is scaled
// down (5 minutes would make a round last an hour), the budget with it, so that the budget binds as a real tenant's
// 150 MB does once PDFs are large or many. Every occurrence must be sent, none failed. The figure stands against the
// floor the limits impose (the slowest of: the upload budget's windows, four requests at a time at the stand-in's
// latency, Power BI's Retry-After per export), with the 429s the stand-in answered.
//
// Alone: node --import tsx bench/part.ts subscriptions-graph <rows.json> [--quick]
import { sql } from 'drizzle-orm';
import { openDatabase, rows } from '../apps/api/src/db/client.ts';
import { deliveryServerEnv } from '../apps/api/test/subscription-setup.ts';
import { startStandIns } from '../packages/microsoft-stand-ins/src/stand-ins.ts';
import type { StandInPerson, StandIns } from '../packages/microsoft-stand-ins/src/types.ts';
import { stopServer, type startServer } from '../scripts/lib/server-process.mjs';
import { GRAPH_MAIL_SCALE, GRAPH_RATIO_MAX } from './budgets.ts';
import { errorRow, formatNumber, median, quick, type BenchRow, ensureBuilt } from './report.ts';
import {
  deliverRound,
  exportConcurrency,
  INSTANCES,
  people,
  POWER_BI_RETRY_AFTER_S,
  report,
  reportPdf,
  ROUNDS,
  seconds,
  seedOrganisation,
  SUBSCRIPTIONS,
  startInstances,
} from './subscriptions.ts';

const sender: StandInPerson = {
  id: '6e6e6e6e-0000-4000-8000-00000000006e',
  displayName: 'Painéis',
  mail: 'paineis@empresa.com.br',
  userPrincipalName: 'paineis@empresa.com.br',
};
const { latencyMs: LATENCY_MS, windowSeconds: WINDOW_S, concurrency: CONCURRENCY } = GRAPH_MAIL_SCALE;
/** How many windows' budget a round's messages take: the upload floor is one window less. */
const WINDOWS = quick ? 3 : GRAPH_MAIL_SCALE.windows;

export async function benchSubscriptionsGraph(databaseUrl: string): Promise<BenchRow[]> {
  ensureBuilt();
  const figure = `${formatNumber(SUBSCRIPTIONS)} assinaturas devidas de uma vez pelo Microsoft Graph, ${INSTANCES} instâncias (mediana de ${ROUNDS})`;
  let standIns: StandIns | undefined;
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 });
  const servers: ReturnType<typeof startServer>[] = [];
  try {
    // Each message's request, roughly: the PDF in base64 and the message around it; the floor uses the real bytes.
    const pdf = await reportPdf();
    const requestBytes = Math.ceil(pdf.length / 3) * 4 + 3000;
    const budget = Math.ceil((SUBSCRIPTIONS * requestBytes) / WINDOWS);
    standIns = await startStandIns({
      people: [...people, sender],
      reports: [report],
      exportDurationMs: 100,
      mailLimits: {
        concurrentRequests: CONCURRENCY,
        latencyMs: LATENCY_MS,
        uploadBytesPerWindow: budget,
        uploadWindowMs: WINDOW_S * 1000,
      },
    });
    const painelId = await seedOrganisation(database);
    const env = {
      ...deliveryServerEnv({
        databaseUrl,
        jwtSecret: 'segredo-do-benchmark-de-assinaturas-0123456789',
        mailSender: sender.mail!,
        standIns,
      }),
      NODE_ENV: 'production',
      SUBSCRIPTION_EXPORT_CONCURRENCY: String(exportConcurrency),
      // The portal is told the same scaled window and budget as the stand-in keeps.
      MAIL_GRAPH_UPLOAD_BYTES: String(budget),
      MAIL_GRAPH_UPLOAD_WINDOW_SECONDS: String(WINDOW_S),
    };
    servers.push(...(await startInstances(env)));
    const pids = servers.map((server) => server.child.pid!);

    const portal: number[] = [];
    const throttled: number[] = [];
    const peaks: number[] = [];
    const sentBytes: number[] = [];
    /** What the portal counted against the budget: every request Graph took, its bytes (rows go after 10 minutes). */
    const counted = async () =>
      (
        await rows<{ last: number; bytes: number }>(
          database.db,
          sql`select coalesce(max(id), 0)::int as last, coalesce(sum(bytes), 0)::bigint as bytes from uso_caixa_envio`,
        )
      )[0]!;
    for (let round = 0; round < ROUNDS; round++) {
      standIns.graph.resetMailStats();
      // Each round starts with the windows as empty at Graph as in the portal: the previous round's requests aged out.
      await new Promise((resolve) => setTimeout(resolve, WINDOW_S * 1000));
      const before = await counted();
      const measured = await deliverRound(database, painelId, pids, SUBSCRIPTIONS);
      const [round_] = await rows<{ bytes: number }>(
        database.db,
        sql`select coalesce(sum(bytes), 0)::bigint as bytes from uso_caixa_envio where id > ${before.last}`,
      );
      sentBytes.push(Number(round_!.bytes));
      portal.push(measured.ms);
      const stats = standIns.graph.mailStats();
      throttled.push(stats.throttled);
      peaks.push(stats.peakConcurrent);
      console.error(
        `assinaturas pelo Graph, rodada ${round + 1}: ${seconds(measured.ms)}, ${stats.throttled} respostas 429`,
      );
    }
    const floors = {
      // The windows the round's bytes fill, from what the requests really weighed: all but the last must pass.
      upload: (Math.ceil(median(sentBytes) / budget) - 1) * WINDOW_S * 1000,
      concurrency: Math.ceil(SUBSCRIPTIONS / CONCURRENCY) * LATENCY_MS,
      powerBi: Math.ceil(SUBSCRIPTIONS / (INSTANCES * exportConcurrency)) * POWER_BI_RETRY_AFTER_S * 1000,
    };
    const floorMs = Math.max(floors.upload, floors.concurrency, floors.powerBi);
    const portalMs = median(portal);
    const list = (values: number[]) => values.map((v) => formatNumber(v / 1000, 1)).join(', ');
    return [
      {
        figure,
        value: `${seconds(portalMs)} (${list(portal)}); ${formatNumber(portalMs / floorMs, 2)} × o piso`,
        budget: `≤ ${formatNumber(GRAPH_RATIO_MAX, 1)} × piso = ${seconds(GRAPH_RATIO_MAX * floorMs)}`,
        ok: portalMs <= GRAPH_RATIO_MAX * floorMs,
      },
      {
        figure: `Piso dos limites: ${formatNumber(median(sentBytes))} bytes enviados, orçamento de ${formatNumber(budget)} por ${WINDOW_S} s (${seconds(floors.upload)}), ${CONCURRENCY} de cada vez a ${LATENCY_MS} ms (${seconds(floors.concurrency)}), Power BI (${seconds(floors.powerBi)})`,
        value: seconds(floorMs),
        budget: '—',
        ok: true,
      },
      {
        figure: 'Respostas 429 do Graph por rodada; máximo de pedidos simultâneos',
        value: `${throttled.join(', ')}; ${Math.max(...peaks)}`,
        budget: `máximo ≤ ${CONCURRENCY}`,
        ok: Math.max(...peaks) <= CONCURRENCY,
      },
    ];
  } catch (error) {
    return [errorRow(figure, `≤ ${formatNumber(GRAPH_RATIO_MAX, 1)} × piso`, error)];
  } finally {
    for (const server of servers) await stopServer(server, 'SIGTERM', 20_000).catch(() => undefined);
    await database.close();
    await standIns?.close();
  }
}
