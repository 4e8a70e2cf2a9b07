// The API's budgets (bench/budgets.ts), measured against the real server in this process on a seeded database:
// PGlite in memory, or a PostgreSQL database the caller made (bench/run.ts calls benchApi for each engine).
//
// Each read that screens wait on is held against a baseline measured in the same run: a bare Fastify app with
// helmet's default headers, on another port, whose route replies with the very bytes the portal answered (same
// status, content-type and content-encoding, compressed once, up front). The bare route and the portal's are
// loaded back to back, in alternating slices, with the same connections and duration; the read passes when it
// reaches THROUGHPUT_RATIO_MIN of the bare route's req/s, and when its p99 at a fixed FIXED_RATE req/s is within
// budget.
// The other calls keep their p99 budgets (BUDGETS_P99_MS).
//
// autocannon runs in a worker thread, so its own work (sending, parsing answers) is not done on the servers'
// event loop: on the same thread it would cost the bare route as much as the portal, and flatten the ratio.
//
// Alone: `node --import tsx bench/api.ts [--quick]` runs PGlite, and PostgreSQL too when BENCH_DATABASE_URL names
// a database (it is migrated and its data replaced).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config/env.ts';
import { openDatabase, type Database } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { signSessionToken } from '../apps/api/src/modules/auth/tokens.ts';
import { portalEnvironment, startStandIns } from '../packages/microsoft-stand-ins/src/stand-ins.ts';
import {
  BUDGETS_P99_MS,
  FIXED_RATE,
  FIXED_RATE_P99_MS,
  SIZES,
  THROUGHPUT_CONNECTIONS,
  THROUGHPUT_RATIO_MIN,
} from './budgets.ts';
import { errorRow, formatNumber, printTable, quick, type BenchRow } from './report.ts';
import { seed, seededReports } from './seed.ts';
import { fixedRate } from './fixed-rate.mjs';
import { benchUsage } from './usage.ts';

/** Seconds of each load (throughput, fixed rate, p99). */
const SECONDS = quick ? 1 : Number(process.env.BENCH_SECONDS ?? 5);
/** Requests sent one by one to each portal route before it is measured: its caches fill on first use. */
const WARM_REQUESTS = 5;
/** Then a short load on each route, bare and portal, so that both run JIT-compiled code when measured. */
const WARM_LOAD_REQUESTS = quick ? 200 : 2_000;
/** The throughput comparison alternates bare and portal this many times (each gets SECONDS in all). */
const THROUGHPUT_SLICES = quick ? 1 : 5;
/** Connections of the p99 checks of the other calls. */
const P99_CONNECTIONS = 10;

type Who = 'admin' | 'user';

/** The reads held against the bare baseline (issue 12). Panel 210: no RLS, linked to the ordinary user. */
const READS: { name: string; path: string; as: Who }[] = [
  { name: 'agrupados admin', path: '/api/paineis/agrupados', as: 'admin' },
  { name: 'painéis do usuário', path: '/api/paineis', as: 'user' },
  { name: 'classificações admin', path: '/api/classificacoes/admin', as: 'admin' },
  { name: 'dados de um painel (admin)', path: '/api/paineis/7/dados', as: 'admin' },
  { name: 'usuário abre um painel (token quente)', path: '/api/paineis/210', as: 'user' },
];

/** The other calls, with their p99 budgets (BUDGETS_P99_MS). */
const P99_CALLS: { name: keyof typeof BUDGETS_P99_MS; path: string; as: Who }[] = [
  { name: 'GET /api/paineis/agrupados (usuário)', path: '/api/paineis/agrupados', as: 'user' },
  { name: 'GET /api/usuarios365/ativos (25000 usuários)', path: '/api/usuarios365/ativos', as: 'admin' },
  { name: 'GET /api/paineis/{id}/usuarios (300 vínculos)', path: '/api/paineis/7/usuarios', as: 'admin' },
  { name: 'GET /api/paineis/{id}/token (usuário, RLS)', path: '/api/paineis/10/token', as: 'user' },
];

interface Answer {
  status: number;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /** As sent: not decompressed. */
  body: Buffer;
}

/** One GET with node:http, which (unlike fetch) leaves the body as it came, compressed or not. */
function get(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const header = (name: string) => {
            const value = response.headers[name];
            return Array.isArray(value) ? value.join(', ') : value;
          };
          resolve({
            status: response.statusCode ?? 0,
            contentType: header('content-type'),
            contentEncoding: header('content-encoding'),
            body: Buffer.concat(chunks),
          });
        });
      })
      .on('error', reject);
  });
}

const ok2xx = (answer: Answer) => answer.status >= 200 && answer.status < 300;

/** A load on one URL, from a worker thread (see the top of the file). */
function load(
  url: string,
  headers: Record<string, string>,
  options: { connections: number; duration?: number; amount?: number; overallRate?: number },
): Promise<autocannon.Result> {
  return autocannon({ url, headers, timeout: 30, workers: 1, ...options });
}

/** Errors, timeouts and answers other than 2xx, or '' when there were none. */
function failures(result: autocannon.Result, what: string): string {
  const count = result.errors + result.timeouts + result.non2xx;
  if (!count) return '';
  const codes = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count: n }]) => `${n}× ${code}`);
  return `${what}: ${count} erros ou respostas não 2xx${codes.length ? ` (${codes.join(', ')})` : ''}`;
}

/**
 * The bare route's and the portal's req/s under the same load (THROUGHPUT_CONNECTIONS, SECONDS each), measured
 * back to back in alternating slices (bare, portal, portal, bare, …) so that a burst of other work on the machine
 * weighs on both alike.
 */
async function compare(bareUrl: string, portalUrl: string, headers: Record<string, string>) {
  const totals = { bare: { requests: 0, seconds: 0 }, portal: { requests: 0, seconds: 0 } };
  const problems: string[] = [];
  for (let slice = 0; slice < THROUGHPUT_SLICES; slice++) {
    const order = slice % 2 ? (['portal', 'bare'] as const) : (['bare', 'portal'] as const);
    for (const which of order) {
      const result = await load(which === 'bare' ? bareUrl : portalUrl, headers, {
        connections: THROUGHPUT_CONNECTIONS,
        duration: SECONDS / THROUGHPUT_SLICES,
      });
      totals[which].requests += result.requests.total;
      totals[which].seconds += result.duration;
      const problem = failures(result, which === 'bare' ? 'base' : 'portal');
      if (problem) problems.push(problem);
    }
  }
  return {
    bare: totals.bare.requests / totals.bare.seconds,
    portal: totals.portal.requests / totals.portal.seconds,
    failed: problems.join('; '),
  };
}

const ms = (value: number) => `${formatNumber(value, value < 10 ? 1 : 0)} ms`;
const rps = (value: number) => formatNumber(value);
const kb = (answer: Answer) =>
  `${formatNumber(answer.body.length / 1000, 1)} kB${answer.contentEncoding ? ` (${answer.contentEncoding})` : ''}`;

/** A bare Fastify app with helmet's defaults; `serve` adds a route that replies with an answer's bytes. */
async function startBareApp() {
  const app: FastifyInstance = Fastify({ logger: false });
  await app.register(helmet);
  let next = 0;
  return {
    app,
    /** Registers the route before the app listens; returns its path. */
    serve(answer: Answer): string {
      const path = `/base/${next++}`;
      app.get(path, (_request, reply) => {
        void reply.code(answer.status);
        if (answer.contentType) void reply.header('content-type', answer.contentType);
        if (answer.contentEncoding) void reply.header('content-encoding', answer.contentEncoding);
        return reply.send(answer.body);
      });
      return path;
    },
    async listen(): Promise<string> {
      await app.listen({ port: 0, host: '127.0.0.1' });
      return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    },
  };
}

/**
 * Seeds the database (PGlite in memory without databaseUrl; otherwise that PostgreSQL database, which the caller
 * creates and drops), runs the portal and the baseline in this process, and returns one row per figure.
 */
export async function benchApi(options: { databaseUrl?: string } = {}): Promise<BenchRow[]> {
  const database: Database = await openDatabase(
    options.databaseUrl ? { kind: 'postgres', url: options.databaseUrl } : { kind: 'pglite' },
  );
  const engine = database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  let databaseOwnedByApp = false;
  let standIns: Awaited<ReturnType<typeof startStandIns>> | null = null;
  let portal: Awaited<ReturnType<typeof buildApp>> | null = null;
  let bare: FastifyInstance | null = null;
  try {
    await migrateDatabase(database);
    // Opening a panel asks Power BI for an embed token: the stand-in plays it, in this process.
    standIns = await startStandIns({ people: [] });
    const config = loadConfig({
      NODE_ENV: 'test',
      JWT_SECRET: 'benchmark-secret-with-more-than-32-chars',
      LOG_LEVEL: 'silent',
      PORT: '0',
      ...portalEnvironment(standIns),
      GRAPH_SYNC_INTERVAL_MINUTES: '0',
    });

    const { users, seconds } = await seed(database.db);
    console.log(
      `api (${engine}): ${SIZES.panels} painéis, ${SIZES.users} usuários, ${SIZES.linksPerPanel} vínculos por painel, semeada em ${seconds.toFixed(1)} s`,
    );
    standIns.powerBi.setReports(await seededReports(database.db));

    portal = await buildApp({ config, database, logger: false });
    databaseOwnedByApp = true; // closing the app closes the database
    await portal.listen({ port: 0, host: '127.0.0.1' });
    const portalBase = `http://127.0.0.1:${(portal.server.address() as AddressInfo).port}`;
    const tokens: Record<Who, string> = {
      admin: (await signSessionToken(config.jwt, users[0]!)).token,
      user: (await signSessionToken(config.jwt, users[1]!)).token,
    };
    const headersOf = (who: Who) => ({ authorization: `Bearer ${tokens[who]}`, 'accept-encoding': 'gzip' });

    // The portal's answers, once warm (the last of the warming requests), and a bare route for each.
    const bareApp = await startBareApp();
    bare = bareApp.app;
    const prepared: ({ answer: Answer; barePath: string } | { error: unknown })[] = [];
    for (const read of READS) {
      try {
        let answer: Answer | null = null;
        for (let i = 0; i < WARM_REQUESTS; i++) answer = await get(portalBase + read.path, headersOf(read.as));
        if (!answer || !ok2xx(answer)) throw new Error(`o portal respondeu ${answer?.status} a ${read.path}`);
        prepared.push({ answer, barePath: bareApp.serve(answer) });
      } catch (error) {
        prepared.push({ error });
      }
    }
    const bareBase = await bareApp.listen();

    const results: BenchRow[] = [];
    for (const [i, read] of READS.entries()) {
      const ratioFigure = `${read.name}: vazão vs. base (${engine})`;
      const ratioBudget = `≥ ${formatNumber(THROUGHPUT_RATIO_MIN, 2)}`;
      const rateFigure = `${read.name}: p99 a ${FIXED_RATE} req/s (${engine})`;
      const rateBudget = `≤ ${ms(FIXED_RATE_P99_MS)}`;
      const setup = prepared[i]!;
      if ('error' in setup) {
        results.push(errorRow(ratioFigure, ratioBudget, setup.error), errorRow(rateFigure, rateBudget, setup.error));
        continue;
      }
      const headers = headersOf(read.as);
      const portalUrl = portalBase + read.path;
      const bareUrl = bareBase + setup.barePath;
      try {
        // The bare route answers what the portal answered, byte for byte.
        const check = await get(bareUrl, headers);
        if (
          !check.body.equals(setup.answer.body) ||
          check.contentType !== setup.answer.contentType ||
          check.contentEncoding !== setup.answer.contentEncoding
        )
          throw new Error(`a rota de base não responde os bytes do portal (${read.path})`);

        await load(bareUrl, headers, { connections: THROUGHPUT_CONNECTIONS, amount: WARM_LOAD_REQUESTS });
        await load(portalUrl, headers, { connections: THROUGHPUT_CONNECTIONS, amount: WARM_LOAD_REQUESTS });
        const { bare: bareRps, portal: portalRps, failed } = await compare(bareUrl, portalUrl, headers);
        const ratio = portalRps / bareRps;
        const value = `${rps(portalRps)} vs ${rps(bareRps)} req/s (${formatNumber(ratio, 2)})`;
        results.push(
          failed
            ? errorRow(ratioFigure, ratioBudget, `${failed}; ${value}`)
            : { figure: ratioFigure, value, budget: ratioBudget, ok: ratio >= THROUGHPUT_RATIO_MIN },
        );
        console.log(`api: ${ratioFigure} ${value}, ${kb(setup.answer)}`);
      } catch (error) {
        results.push(errorRow(ratioFigure, ratioBudget, error));
      }
      try {
        const fixed = await fixedRate({ url: portalUrl, headers, rate: FIXED_RATE, seconds: SECONDS });
        const value = `${ms(fixed.p99)} (p50 ${ms(fixed.p50)}, máx. ${ms(fixed.max)}; ${rps(fixed.rate)} req/s)`;
        results.push(
          fixed.failed
            ? errorRow(rateFigure, rateBudget, `${fixed.failed} erros ou respostas não 2xx; p99 ${value}`)
            : { figure: rateFigure, value, budget: rateBudget, ok: fixed.p99 <= FIXED_RATE_P99_MS },
        );
        console.log(`api: ${rateFigure} ${value}`);
      } catch (error) {
        results.push(errorRow(rateFigure, rateBudget, error));
      }
    }

    for (const call of P99_CALLS) {
      const figure = `${call.name}: p99 (${engine})`;
      const budgetMs = BUDGETS_P99_MS[call.name]!;
      const budget = `≤ ${ms(budgetMs)}`;
      try {
        const headers = headersOf(call.as);
        for (let i = 0; i < WARM_REQUESTS; i++) await get(portalBase + call.path, headers);
        const result = await load(portalBase + call.path, headers, {
          connections: P99_CONNECTIONS,
          duration: SECONDS,
        });
        const value = `${ms(result.latency.p99)} (p50 ${ms(result.latency.p50)}, ${rps(result.requests.average)} req/s)`;
        const failed = failures(result, 'portal');
        results.push(
          failed
            ? errorRow(figure, budget, `${failed}; p99 ${value}`)
            : { figure, value, budget, ok: result.latency.p99 <= budgetMs },
        );
        console.log(`api: ${figure} ${value}`);
      } catch (error) {
        results.push(errorRow(figure, budget, error));
      }
    }

    // Issue 13: recording openings (made above, under load), and '/uso' on a year of views.
    results.push(
      ...(await benchUsage({
        db: database.db,
        engine,
        portalBase,
        headers: headersOf('admin'),
        recorder: portal.viewRecorder,
        get,
      })),
    );
    return results;
  } finally {
    await bare?.close();
    await portal?.close();
    if (!databaseOwnedByApp) await database.close();
    await standIns?.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = [...(await benchApi())];
  if (process.env.BENCH_DATABASE_URL)
    results.push(...(await benchApi({ databaseUrl: process.env.BENCH_DATABASE_URL })));
  printTable(`API${quick ? ' (rápido: orçamentos informados, não exigidos)' : ''}`, results);
  const failed = results.filter((r) => r.error || (!quick && !r.ok)).length;
  console.log(`\nbench api: ${results.length - failed} ok, ${failed} falharam`);
  process.exit(failed ? 1 : 0);
}
