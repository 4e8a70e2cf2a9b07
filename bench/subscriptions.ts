// Subscriptions' deliveries (SUBSCRIPTION_SIZES and SUBSCRIPTION_RATIO_MAX in bench/budgets.ts): the durability
// test's scenario (apps/api/test/subscription-durability.test.ts) without the kill. Two compiled servers
// (apps/api/dist/server.js) on one PostgreSQL database; the Microsoft stand-ins and a real SMTP server
// (apps/api/test/smtp-sink.ts) in this process. Each round, 1,000 subscriptions fall due at once (one insert) and the
// figure is the time from that insert to the last delivery recorded 'enviado'; every occurrence must be delivered,
// none twice. Beside it, in the same round: the bare baseline, the same number of messages (with a PDF of the
// stand-in's attached) handed by nodemailer alone to the same SMTP server, over as many pooled connections and as many
// at once as the two instances; and Power BI's floor (each export waits its 1 s Retry-After). Budget: the portal's
// median within SUBSCRIPTION_RATIO_MAX × (floor + the baseline's median).
//
// Alone: node --import tsx bench/part.ts subscriptions <rows.json> [--quick]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { openDatabase, rows, type Database } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { assinaturas } from '../apps/api/src/db/schema.ts';
import { DELIVERY_HEADER } from '../apps/api/src/integrations/mail/mail-transport.ts';
import { createPanel } from '../apps/api/src/modules/panels/panels.repository.ts';
import { replaceLinks } from '../apps/api/src/modules/panels/panel-users.repository.ts';
import { countByDeliveryKey, startSmtpSink, type SmtpSink } from '../apps/api/test/smtp-sink.ts';
import { deliveryServerEnv, seedDirectoryPeople } from '../apps/api/test/subscription-setup.ts';
import { renderExportFile } from '../packages/microsoft-stand-ins/src/export-files.ts';
import { startStandIns } from '../packages/microsoft-stand-ins/src/stand-ins.ts';
import type { StandInPerson, StandInReport, StandIns } from '../packages/microsoft-stand-ins/src/types.ts';
import { freePort, serverEnv, startServer, stopServer, waitUntilReady } from '../scripts/lib/server-process.mjs';
import { SUBSCRIPTION_RATIO_MAX, SUBSCRIPTION_SIZES } from './budgets.ts';
import { ensureBuilt, errorRow, formatNumber, median, quick, type BenchRow } from './report.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Quick mode (CI) checks that the part works, on a tenth of the subscriptions, once. */
export const SUBSCRIPTIONS = quick ? SUBSCRIPTION_SIZES.subscriptions / 10 : SUBSCRIPTION_SIZES.subscriptions;
export const ROUNDS = quick ? 1 : 3;
export const INSTANCES = 2;
export const { exportConcurrency, people: PEOPLE } = SUBSCRIPTION_SIZES;
/** What the stand-in's ExportTo and running export answer: the wait Power BI asks for before the next look. */
export const POWER_BI_RETRY_AFTER_S = 1;
/** The connections of each instance's SMTP pool (apps/api/src/integrations/mail/smtp-transport.ts). */
const SMTP_POOL_CONNECTIONS = 3;
/** Longest wait for a round's deliveries before the figure is an error. */
const ROUND_TIMEOUT_MS = 300_000;

export const report: StandInReport = {
  workspaceId: '6a6a6a6a-0000-4000-8000-00000000006a',
  reportId: '6b6b6b6b-0000-4000-8000-00000000006b',
  name: 'Vendas Semanais',
  datasetId: '6c6c6c6c-0000-4000-8000-00000000006c',
  rls: false,
};
export const people: StandInPerson[] = Array.from({ length: PEOPLE }, (_, i) => {
  const mail = `assinante.${i}@empresa.com.br`;
  return {
    id: `6d6d6d6d-0000-4000-8000-${String(i).padStart(12, '0')}`,
    displayName: `Assinante ${i + 1}`,
    mail,
    userPrincipalName: mail,
  };
});

/**
 * The CPU time (user and system) a process has used so far, in ms, from /proc (fields 14 and 15 of its stat, in
 * clock ticks of 1/100 s); null where there is no /proc. Says how much of a round was the instances' own work.
 */
function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
export const cpuOf = (pids: number[]) => {
  const each = pids.map(cpuMs);
  return each.includes(null) ? null : each.reduce<number>((sum, ms) => sum + ms!, 0);
};

export const seconds = (ms: number) => `${formatNumber(ms / 1000, 1)} s`;

/** The people (as the directory has them, so the instances' sync at start keeps them), the panel, its links. */
export async function seedOrganisation(database: Database): Promise<number> {
  await migrateDatabase(database);
  await seedDirectoryPeople(database.db, people, 'bench');
  const panel = await createPanel(database.db, {
    nomePainel: report.name,
    workspaceId: report.workspaceId,
    reportId: report.reportId,
    usaRls: false,
  });
  await database.db.transaction((tx) =>
    replaceLinks(
      tx,
      panel.id,
      people.map((p) => p.id),
    ),
  );
  return panel.id;
}

/**
 * `count` subscriptions of the panel falling due at once (one insert), after the previous round's went (cascade, so
 * each round starts from the same tables); resolves when every delivery ended, all of them sent. Milliseconds, and the
 * instances' CPU time meanwhile.
 */
export async function deliverRound(
  database: Database,
  painelId: number,
  pids: number[],
  count: number,
): Promise<{ ms: number; cpuMs: number | null }> {
  const db = database.db;
  await db.execute(sql`delete from assinaturas`);
  const due = new Date(Date.now() - 60_000);
  const subscriptions = Array.from({ length: count }, (_, i) => ({
    painelId,
    usuarioId: people[i % PEOPLE]!.id,
    formato: 'PDF' as const,
    frequencia: 'diaria' as const,
    hora: `${String(6 + (i % 12)).padStart(2, '0')}:00`,
    fusoHorario: 'America/Sao_Paulo',
    proximoEnvio: due,
  }));
  const cpuBefore = cpuOf(pids);
  const began = performance.now();
  await db.insert(assinaturas).values(subscriptions);
  type Progress = { queued: number; sent: number; open: number };
  const progress = async () =>
    (
      await rows<Progress>(
        db,
        sql`select count(*)::int as queued, (count(*) filter (where estado = 'enviado'))::int as sent,
                   (count(*) filter (where estado in ('pendente', 'executando')))::int as open
            from envios_assinatura`,
      )
    )[0]!;
  let now = await progress();
  while (now.queued < count || now.open > 0) {
    if (performance.now() - began > ROUND_TIMEOUT_MS) {
      throw new Error(`${now.sent} de ${count} envios concluídos em ${ROUND_TIMEOUT_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    now = await progress();
  }
  const took = performance.now() - began;
  const cpuAfter = cpuOf(pids);
  if (now.sent !== count) throw new Error(`${count - now.sent} envios falharam`);
  return { ms: took, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

/** One round of the portal through SMTP: every occurrence received by the mail server, none twice. */
async function portalRound(
  database: Database,
  sink: SmtpSink,
  painelId: number,
  pids: number[],
): Promise<{ ms: number; cpuMs: number | null }> {
  const firstMessage = sink.messages.length;
  const measured = await deliverRound(database, painelId, pids, SUBSCRIPTIONS);
  const counts = countByDeliveryKey(sink.messages.slice(firstMessage));
  const twice = [...counts.values()].filter((n) => n > 1).length;
  if (counts.size !== SUBSCRIPTIONS || twice > 0) {
    throw new Error(`${counts.size} envios distintos recebidos pelo servidor SMTP, ${twice} duas vezes`);
  }
  return measured;
}

/**
 * One round of the baseline: as many messages, nodemailer alone, as the instances send them: one pooled transport
 * each (SMTP_POOL_CONNECTIONS connections, as the portal's SMTP transport opens), exportConcurrency messages at once.
 */
async function bareRound(sink: SmtpSink, attachment: Buffer): Promise<number> {
  const transports = Array.from({ length: INSTANCES }, () =>
    nodemailer.createTransport({ url: sink.url, pool: true, maxConnections: SMTP_POOL_CONNECTIONS }),
  );
  let next = 0;
  const began = performance.now();
  const lane = async (transport: (typeof transports)[number]) => {
    for (let i = next++; i < SUBSCRIPTIONS; i = next++) {
      const person = people[i % PEOPLE]!;
      await transport.sendMail({
        from: 'Painéis <paineis@empresa.com.br>',
        to: { address: person.mail!, name: person.displayName },
        subject: `${report.name} — 27/11/2026`,
        text: `Olá, ${person.displayName}. Segue o painel ${report.name}.`,
        html: `<p>Olá, ${person.displayName}.</p><p>Segue o painel ${report.name}.</p>`,
        headers: { [DELIVERY_HEADER]: `base-${i}/${person.id}` },
        attachments: [{ filename: `${report.name}.pdf`, contentType: 'application/pdf', content: attachment }],
      });
    }
  };
  await Promise.all(
    transports.flatMap((transport) => Array.from({ length: exportConcurrency }, () => lane(transport))),
  );
  const took = performance.now() - began;
  for (const transport of transports) transport.close();
  return took;
}

/** INSTANCES compiled servers with `env`, each on its own port, ready. */
export async function startInstances(env: Record<string, string>): Promise<ReturnType<typeof startServer>[]> {
  const servers: ReturnType<typeof startServer>[] = [];
  for (let i = 0; i < INSTANCES; i++) {
    const port = await freePort();
    const server = startServer(process.execPath, ['--enable-source-maps', 'apps/api/dist/server.js'], {
      cwd: root,
      env: serverEnv({ ...env, PORT: String(port), HOST: '127.0.0.1' }),
    });
    servers.push(server);
    try {
      await waitUntilReady(server, `http://127.0.0.1:${port}/readyz`, 60_000);
    } catch (error) {
      for (const started of servers) await stopServer(started, 'SIGTERM', 20_000).catch(() => undefined);
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${server.output().slice(-3000)}`);
    }
  }
  return servers;
}

/** The PDF the stand-in renders for the report: what each message attaches. */
export const reportPdf = () =>
  renderExportFile('PDF', {
    report,
    pages: [
      { name: 'ReportSection1', displayName: 'Visão geral' },
      { name: 'ReportSection2', displayName: 'Por região' },
      { name: 'ReportSection3', displayName: 'Detalhes' },
    ],
    regiao: 'Todas',
    identity: null,
    exportedAt: new Date(),
  });

export async function benchSubscriptions(databaseUrl: string): Promise<BenchRow[]> {
  ensureBuilt();
  const figure = `${formatNumber(SUBSCRIPTIONS)} assinaturas devidas de uma vez, ${INSTANCES} instâncias: até o último envio (mediana de ${ROUNDS})`;
  const floorMs = Math.ceil(SUBSCRIPTIONS / (INSTANCES * exportConcurrency)) * POWER_BI_RETRY_AFTER_S * 1000;
  let standIns: StandIns | undefined;
  let sink: SmtpSink | undefined;
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 });
  const servers: ReturnType<typeof startServer>[] = [];
  try {
    standIns = await startStandIns({ people, reports: [report], exportDurationMs: 100 });
    sink = await startSmtpSink();
    const painelId = await seedOrganisation(database);
    const env = {
      ...deliveryServerEnv({
        databaseUrl,
        jwtSecret: 'segredo-do-benchmark-de-assinaturas-0123456789',
        smtpUrl: sink.url,
        standIns,
      }),
      NODE_ENV: 'production',
      MAIL_FROM: 'Painéis <paineis@empresa.com.br>',
      SUBSCRIPTION_EXPORT_CONCURRENCY: String(exportConcurrency),
    };
    servers.push(...(await startInstances(env)));
    const attachment = await reportPdf();

    const pids = servers.map((server) => server.child.pid!);
    const portal: number[] = [];
    const cpu: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const measured = await portalRound(database, sink, painelId, pids);
      portal.push(measured.ms);
      if (measured.cpuMs !== null) cpu.push(measured.cpuMs);
      bare.push(await bareRound(sink, attachment));
      console.error(
        `assinaturas, rodada ${round + 1}: portal ${seconds(portal.at(-1)!)}, base ${seconds(bare.at(-1)!)}`,
      );
    }
    const portalMs = median(portal);
    const bareMs = median(bare);
    const budgetMs = SUBSCRIPTION_RATIO_MAX * (floorMs + bareMs);
    const list = (values: number[]) => values.map((v) => formatNumber(v / 1000, 1)).join(', ');
    return [
      {
        figure,
        value: `${seconds(portalMs)} (${list(portal)}); ${formatNumber((SUBSCRIPTIONS * 1000) / portalMs, 1)} envios/s`,
        budget: `≤ ${formatNumber(SUBSCRIPTION_RATIO_MAX, 1)} × (piso + base) = ${seconds(budgetMs)}`,
        ok: portalMs <= budgetMs,
      },
      {
        figure: `Base: as mesmas ${formatNumber(SUBSCRIPTIONS)} mensagens pelo nodemailer, ${INSTANCES * exportConcurrency} de cada vez (mediana)`,
        value: `${seconds(bareMs)} (${list(bare)})`,
        budget: '—',
        ok: true,
      },
      {
        figure: `CPU das ${INSTANCES} instâncias numa rodada (mediana)`,
        value:
          cpu.length > 0
            ? `${seconds(median(cpu))} (${formatNumber(median(cpu) / SUBSCRIPTIONS, 1)} ms por envio)`
            : 'sem /proc',
        budget: '—',
        ok: true,
      },
      {
        figure: `Piso do Power BI: ${POWER_BI_RETRY_AFTER_S} s de Retry-After por exportação, ${INSTANCES} × ${exportConcurrency} simultâneas`,
        value: seconds(floorMs),
        budget: '—',
        ok: true,
      },
    ];
  } catch (error) {
    return [errorRow(figure, `≤ ${formatNumber(SUBSCRIPTION_RATIO_MAX, 1)} × (piso + base)`, error)];
  } finally {
    for (const server of servers) await stopServer(server, 'SIGTERM', 20_000).catch(() => undefined);
    await database.close();
    await sink?.close();
    await standIns?.close();
  }
}
