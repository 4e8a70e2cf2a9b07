// The API's budgets (bench/budgets.ts), measured against the real server on a seeded database: PGlite in memory, or
// a PostgreSQL database the caller made (bench/run.ts calls benchApi for each engine).
//
// Each read that screens wait on is held against a baseline measured in the same run: a bare Fastify app with
// helmet's default headers and no logging, whose route replies with the very bytes the portal answered (same
// status, content-type and content-encoding, compressed once, up front). The bare route and the portal's are
// loaded back to back, in alternating slices, with the same connections and duration, both sent a browser's
// Accept-Encoding; the read passes when it reaches THROUGHPUT_RATIO_MIN of the bare route's req/s, and when its p99
// at a fixed FIXED_RATE req/s is within budget. The other calls keep their p99 budgets (BUDGETS_P99_MS).
//
// Three processes. The portal runs as it does in production (bench/portal-process.ts): the real app with the
// server's logging (level info, one line per request, asynchronous writes to stdout, here a file that is counted
// and removed at the end), so the price of its request log is in the figures; a portal built with `logger: false`
// would hide it. The baseline (bench/bare-process.ts) logs nothing, in a process of its own. And this process
// only generates the load (autocannon and bench/fixed-rate.mjs, in worker threads). Each server has a process to
// itself, as in production: nothing else runs on its event loop, and it shares no heap, garbage collector, V8
// helper threads or libuv thread pool (where the portal's log writes and compression run) with the load generator
// or with the other server. In one process the load generator's work and the other server's garbage would weigh on
// whichever was measured, unevenly.
//
// Alone: `node --import tsx bench/api.ts [--quick]` runs PGlite, and PostgreSQL too when BENCH_DATABASE_URL names
// a database (it is migrated and its data replaced).
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import {
  BUDGETS_P99_MS,
  FIXED_RATE,
  FIXED_RATE_P99_MS,
  OPENERS,
  THROUGHPUT_CONNECTIONS,
  THROUGHPUT_RATIO_MIN,
} from './budgets.ts';
import { errorRow, formatNumber, printTable, quick, type BenchRow } from './report.ts';
import { fixedRate } from './fixed-rate.mjs';
import { startBenchProcess, type BenchProcess } from './bench-process.ts';
import type { BareAnswer } from './bare-process.ts';
import { get, type Answer } from './http-get.ts';
import type { PortalReady } from './portal-process.ts';

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

/** The reads held against the bare baseline (bench/budgets.ts). Panel 210: no RLS, linked to the ordinary user. */
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
  // What the list's rows say of Power BI (bench/seed.ts seeds every panel's last refresh and report check).
  { name: 'GET /api/paineis/atualizacoes (usuário)', path: '/api/paineis/atualizacoes', as: 'user' },
  { name: 'GET /api/paineis/atualizacoes (admin, 2000 painéis)', path: '/api/paineis/atualizacoes', as: 'admin' },
  { name: 'GET /api/paineis/saude (admin)', path: '/api/paineis/saude', as: 'admin' },
];

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
    portalTotal: totals.portal.requests,
    failed: problems.join('; '),
  };
}

const ms = (value: number) => `${formatNumber(value, value < 10 ? 1 : 0)} ms`;
const rps = (value: number) => formatNumber(value);
const kb = (answer: Answer) =>
  `${formatNumber(answer.body.length / 1000, 1)} kB${answer.contentEncoding ? ` (${answer.contentEncoding})` : ''}`;

const here = path.dirname(fileURLToPath(import.meta.url));

/** Lines and bytes of the portal's log file. */
async function countLines(file: string): Promise<{ lines: number; bytes: number }> {
  let lines = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return { lines, bytes: statSync(file).size };
}

/** A read held against the bare baseline: its name in the figures, its path, its headers (the session). */
export interface BaselineRead {
  name: string;
  path: string;
  headers: Record<string, string>;
}

/** A call held to a p99 budget (BUDGETS_P99_MS) with P99_CONNECTIONS in flight. */
export interface P99Call {
  figure: string;
  path: string;
  headers: Record<string, string>;
  budgetMs: number;
}

/**
 * The reads that screens wait on, against the bare baseline (its own process, started and stopped here): each read's
 * ratio of req/s and its p99 at FIXED_RATE; then the other calls' p99 against their budgets. Rows, and how many
 * requests the portal answered under the loads (each must have its line in the portal's log).
 */
export async function measureReads(options: {
  portalBase: string;
  engine: string;
  /** A folder for the bare process's answers file. */
  scratch: string;
  reads: BaselineRead[];
  p99Calls: P99Call[];
}): Promise<{ rows: BenchRow[]; portalRequests: number }> {
  const { portalBase, engine, scratch, reads, p99Calls } = options;
  const results: BenchRow[] = [];
  let portalRequests = 0;
  let bare: BenchProcess<{ base: string; paths: string[] }> | null = null;
  try {
    // The portal's answers, once warm (the last of the warming requests), and a bare route for each.
    const answers: (Answer | { error: unknown })[] = [];
    for (const read of reads) {
      try {
        let answer: Answer | null = null;
        for (let i = 0; i < WARM_REQUESTS; i++) answer = await get(portalBase + read.path, read.headers);
        if (!answer || !ok2xx(answer)) throw new Error(`o portal respondeu ${answer?.status} a ${read.path}`);
        answers.push(answer);
      } catch (error) {
        answers.push({ error });
      }
    }
    const served = answers.filter((a): a is Answer => !('error' in a));
    const answersFile = path.join(scratch, 'answers.json');
    writeFileSync(
      answersFile,
      JSON.stringify(
        served.map((a): BareAnswer => ({
          status: a.status,
          contentType: a.contentType,
          contentEncoding: a.contentEncoding,
          body: a.body.toString('base64'),
        })),
      ),
    );
    bare = await startBenchProcess(path.join(here, 'bare-process.ts'), [answersFile], 'ignore');
    const bareBase = bare.ready.base;
    const prepared = answers.map((a) =>
      'error' in a ? a : { answer: a, barePath: bare!.ready.paths[served.indexOf(a)]! },
    );

    for (const [i, read] of reads.entries()) {
      const ratioFigure = `${read.name}: vazão vs. base (${engine})`;
      const ratioBudget = `≥ ${formatNumber(THROUGHPUT_RATIO_MIN, 2)}`;
      const rateFigure = `${read.name}: p99 a ${FIXED_RATE} req/s (${engine})`;
      const rateBudget = `≤ ${ms(FIXED_RATE_P99_MS)}`;
      const setup = prepared[i]!;
      if ('error' in setup) {
        results.push(errorRow(ratioFigure, ratioBudget, setup.error), errorRow(rateFigure, rateBudget, setup.error));
        continue;
      }
      const headers = read.headers;
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
        const warm = await load(portalUrl, headers, {
          connections: THROUGHPUT_CONNECTIONS,
          amount: WARM_LOAD_REQUESTS,
        });
        portalRequests += warm.requests.total;
        const { bare: bareRps, portal: portalRps, portalTotal, failed } = await compare(bareUrl, portalUrl, headers);
        portalRequests += portalTotal;
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
        const from = process.hrtime.bigint();
        const fixed = await fixedRate({ url: portalUrl, headers, rate: FIXED_RATE, seconds: SECONDS });
        // A profiling run: the load's span on the monotonic clock, the clock of the portal's --cpu-prof timestamps.
        if (process.env.BENCH_PORTAL_NODE_FLAGS)
          console.error(
            `api: ${rateFigure}: de ${from / 1000n} a ${process.hrtime.bigint() / 1000n} µs (relógio monotônico)`,
          );
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

    for (const call of p99Calls) {
      const figure = `${call.figure}: p99 (${engine})`;
      const budgetMs = call.budgetMs;
      const budget = `≤ ${ms(budgetMs)}`;
      try {
        const headers = call.headers;
        for (let i = 0; i < WARM_REQUESTS; i++) await get(portalBase + call.path, headers);
        const result = await load(portalBase + call.path, headers, {
          connections: P99_CONNECTIONS,
          duration: SECONDS,
        });
        portalRequests += result.requests.total;
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
  } finally {
    await bare?.stop();
  }
  return { rows: results, portalRequests };
}

/**
 * OPENERS.people distinct people open one panel in turn at FIXED_RATE: each opening is a row for the opening
 * recorder, whose batched writes then run on the portal's event loop (PGlite) while the requests come in.
 */
export async function distinctOpenings(portalBase: string, engine: string, openers: string[]): Promise<BenchRow> {
  const figure = `${OPENERS.people} usuários distintos abrem um painel: p99 a ${FIXED_RATE} req/s (${engine})`;
  const budget = `≤ ${ms(FIXED_RATE_P99_MS)}`;
  try {
    const url = `${portalBase}/api/paineis/${OPENERS.panel}`;
    const headers = openers.map((token) => ({ authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' }));
    if (headers.length < OPENERS.people) throw new Error(`só ${headers.length} pessoas vinculadas ao painel`);
    // Each person's first opening fills their caches; then a short load, for JIT-compiled code.
    for (const h of headers) {
      const answer = await get(url, h);
      if (!ok2xx(answer)) throw new Error(`o portal respondeu ${answer.status} a ${url}`);
    }
    await fixedRate({ url, headers, rate: FIXED_RATE, seconds: 1 });
    const from = process.hrtime.bigint();
    const fixed = await fixedRate({ url, headers, rate: FIXED_RATE, seconds: SECONDS });
    if (process.env.BENCH_PORTAL_NODE_FLAGS)
      console.error(`api: ${figure}: de ${from / 1000n} a ${process.hrtime.bigint() / 1000n} µs (relógio monotônico)`);
    const value = `${ms(fixed.p99)} (p50 ${ms(fixed.p50)}, máx. ${ms(fixed.max)}; ${rps(fixed.rate)} req/s)`;
    console.log(`api: ${figure} ${value}`);
    return fixed.failed
      ? errorRow(figure, budget, `${fixed.failed} erros ou respostas não 2xx; p99 ${value}`)
      : { figure, value, budget, ok: fixed.p99 <= FIXED_RATE_P99_MS };
  } catch (error) {
    return errorRow(figure, budget, error);
  }
}

/**
 * Starts the portal on a seeded database (PGlite in memory without databaseUrl; otherwise that PostgreSQL
 * database, which the caller creates and drops) and the baseline, each in a process of its own (see the top of
 * the file), loads them from this one, and returns one row per figure.
 */
export async function benchApi(options: { databaseUrl?: string } = {}): Promise<BenchRow[]> {
  const engine = options.databaseUrl ? 'PostgreSQL' : 'PGlite';
  const scratch = mkdtempSync(path.join(tmpdir(), 'paineis-bench-api-'));
  const logFile = path.join(scratch, 'portal.log');
  const logFd = openSync(logFile, 'w');
  let portal: BenchProcess<PortalReady> | null = null;
  /** Requests the portal answered under autocannon's loads: each must have its line in the log. */
  let portalRequests = 0;
  const results: BenchRow[] = [];
  try {
    portal = await startBenchProcess<PortalReady>(
      path.join(here, 'portal-process.ts'),
      [...(options.databaseUrl ? [options.databaseUrl] : []), ...(quick ? ['--quick'] : [])],
      logFd,
      // A profiling run: BENCH_PORTAL_NODE_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof' (the portal's process only).
      process.env.BENCH_PORTAL_NODE_FLAGS?.split(' ').filter(Boolean),
    );
    const { base: portalBase, tokens } = portal.ready;
    const headersOf = (who: Who) => ({ authorization: `Bearer ${tokens[who]}`, 'accept-encoding': 'gzip' });

    const measured = await measureReads({
      portalBase,
      engine,
      scratch,
      reads: READS.map((read) => ({ ...read, headers: headersOf(read.as) })),
      p99Calls: P99_CALLS.map((call) => ({
        figure: call.name,
        path: call.path,
        headers: headersOf(call.as),
        budgetMs: BUDGETS_P99_MS[call.name]!,
      })),
    });
    results.push(...measured.rows);
    portalRequests += measured.portalRequests;
    results.push(await distinctOpenings(portalBase, engine, portal.ready.openers));

    // Usage: recording openings (made above, under load), and '/uso' on a year of views.
    // In the portal's process, which holds the database and the opening recorder.
    results.push(...(await portal.ask<BenchRow[]>({ type: 'usage', headers: headersOf('admin') })));
  } catch (error) {
    results.push(errorRow(`API (${engine})`, '—', error));
  } finally {
    await portal?.stop();
    closeSync(logFd);
  }
  // The request log, once the portal has stopped (and flushed it): a line for every request it answered.
  const logFigure = `Registro das requisições do portal: linhas escritas (${engine})`;
  try {
    const { lines, bytes } = await countLines(logFile);
    const value = `${formatNumber(lines)} linhas, ${formatNumber(bytes / 1e6, 0)} MB, para ${formatNumber(portalRequests)} pedidos das cargas`;
    results.push(
      lines >= portalRequests && portalRequests > 0
        ? { figure: logFigure, value, budget: '≥ 1 por pedido', ok: true }
        : errorRow(logFigure, '≥ 1 por pedido', `linhas faltando: ${value}`),
    );
    console.log(`api: ${logFigure} ${value}`);
  } catch (error) {
    results.push(errorRow(logFigure, '≥ 1 por pedido', error));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return results;
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
