// Start-up (STARTUP_BUDGETS_MS in bench/budgets.ts): the compiled server (apps/api/dist/server.js) in demo mode,
// from spawn to its first /readyz 200, on a data folder (and database) that already exists; and its resident
// memory once it idles after the start. As scripts/measure-startup.mjs does, with its helpers: a first run
// creates the data, then the server restarts RESTARTS times. PGlite always; PostgreSQL when a server answers at
// BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres), in a database of its own, dropped after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  freePort,
  residentMemoryKb,
  serverEnv,
  startServer,
  stopServer,
  waitUntilReady,
} from '../scripts/lib/server-process.mjs';
import { postgresReachable as postgresReachableAt } from '../scripts/lib/postgres.mjs';
import { STARTUP_BUDGETS_MS } from './budgets.ts';
import { ensureBuilt, errorRow, formatNumber, median, quick, type BenchRow } from './report.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESTARTS = quick ? 1 : 5;
/** After ready: the demo's start-up directory sync ends, and the server idles (its memory is read then). */
const SETTLE_MS = 1_500;
export const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether PostgreSQL answers at POSTGRES_ADMIN_URL. */
export const postgresReachable = (): Promise<boolean> => postgresReachableAt(POSTGRES_ADMIN_URL);

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Runs `work` on a new, empty PostgreSQL database (its URL), dropped afterwards whatever happens. */
export async function withScratchDatabase<T>(label: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `paineis_bench_${label}_${process.pid}`;
  await adminQuery(`drop database if exists ${name} with (force)`);
  await adminQuery(`create database ${name}`);
  try {
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await adminQuery(`drop database if exists ${name} with (force)`).catch((error: unknown) =>
      console.error(`não consegui apagar o banco ${name}: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}

/** One start: milliseconds to ready and the resident memory after settling; stopped with SIGTERM. */
async function once(extraEnv: Record<string, string>) {
  const port = await freePort();
  const env = serverEnv({ PORT: String(port), HOST: '127.0.0.1', DEMO_MODE: 'true', LOG_LEVEL: 'warn', ...extraEnv });
  const server = startServer(process.execPath, ['--enable-source-maps', 'apps/api/dist/server.js'], {
    cwd: root,
    env,
  });
  try {
    const ready = await waitUntilReady(server, `http://127.0.0.1:${port}/readyz`, 120_000);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return { ready, rssKb: residentMemoryKb(server.child.pid!) };
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${server.output().slice(-3000)}`);
  } finally {
    await stopServer(server, 'SIGTERM', 20_000);
  }
}

async function measure(database: string, budgetMs: number, env: Record<string, string>): Promise<BenchRow[]> {
  const figure = `Início até /readyz 200, ${database} (mediana de ${RESTARTS} ${RESTARTS === 1 ? 'reinício' : 'reinícios'})`;
  const memoryFigure = `Memória residente em repouso após o início, ${database}`;
  try {
    await once(env); // creates the data
    const runs = [];
    for (let run = 0; run < RESTARTS; run += 1) runs.push(await once(env));
    const ready = median(runs.map((r) => r.ready));
    const memory = runs.map((r) => r.rssKb).filter((kb): kb is number => kb !== null);
    return [
      {
        figure,
        value: `${formatNumber(ready)} ms (${runs.map((r) => Math.round(r.ready)).join(', ')})`,
        budget: `≤ ${formatNumber(budgetMs)} ms`,
        ok: ready <= budgetMs,
      },
      {
        figure: memoryFigure,
        value: memory.length > 0 ? `${formatNumber(median(memory) / 1024)} MB (VmRSS, mediana)` : 'sem /proc',
        budget: '—',
        ok: true,
      },
    ];
  } catch (error) {
    return [errorRow(figure, `≤ ${formatNumber(budgetMs)} ms`, error)];
  }
}

export async function benchStartup(): Promise<BenchRow[]> {
  ensureBuilt();
  const work = mkdtempSync(path.join(tmpdir(), 'paineis-bench-startup-'));
  try {
    const rows = await measure('PGlite', STARTUP_BUDGETS_MS.pglite, { DATA_DIR: path.join(work, 'pglite') });
    if (await postgresReachable()) {
      rows.push(
        ...(await withScratchDatabase('startup', (url) =>
          measure('PostgreSQL', STARTUP_BUDGETS_MS.postgres, {
            DATA_DIR: path.join(work, 'postgres'),
            DATABASE_URL: url,
          }),
        )),
      );
    } else {
      rows.push({
        figure: 'Início até /readyz 200, PostgreSQL',
        value: `não medido: nada responde em ${new URL(POSTGRES_ADMIN_URL).host}`,
        budget: `≤ ${formatNumber(STARTUP_BUDGETS_MS.postgres)} ms`,
        ok: true,
      });
    }
    return rows;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
