#!/usr/bin/env node
// Measures start-up: the time from spawning the server to its first /readyz 200, in demo mode, on a data folder
// (and database) that already exists. For each way of running the server and each database: a first run
// creates the data, then it restarts MEASURE_RUNS times (5 by default); the run before the third restart is
// stopped with SIGKILL instead of SIGTERM, so one restart follows a crash. Prints every time and the medians.
//
// Ways: the compiled server (node apps/api/dist/server.js; build it first: npm run build) and the TypeScript
// sources through tsx. Databases: the embedded PGlite, and PostgreSQL when a server answers at
// MEASURE_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres), in a database of its own that is
// dropped at the end.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { postgresReachable } from './lib/postgres.mjs';
import { freePort, serverEnv, startServer, stopServer, waitUntilReady } from './lib/server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.MEASURE_RUNS ?? 5);
const SETTLE_MS = 1_500;
const KILLED_BEFORE = Math.min(3, RUNS); // the restart that follows a SIGKILL
const adminUrl = process.env.MEASURE_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const ways = [
  { name: 'compilado', args: ['--enable-source-maps', 'apps/api/dist/server.js'] },
  { name: 'tsx', args: ['--import', 'tsx', 'apps/api/src/server.ts'] },
];
if (!existsSync(path.join(root, 'apps', 'api', 'dist', 'server.js'))) {
  console.error('Sem build: rode npm run build antes (npm run measure:startup já faz isso).');
  process.exit(1);
}

const work = mkdtempSync(path.join(tmpdir(), 'paineis-startup-'));
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Starts the server, waits until it is ready, and stops it with `stopWith`. Returns the milliseconds to ready. */
async function once(way, extraEnv, stopWith) {
  const port = await freePort();
  const env = serverEnv({ PORT: String(port), HOST: '127.0.0.1', DEMO_MODE: 'true', LOG_LEVEL: 'warn', ...extraEnv });
  const server = startServer(process.execPath, way.args, { cwd: root, env });
  try {
    const ready = await waitUntilReady(server, `http://127.0.0.1:${port}/readyz`, 120_000);
    // Let the start-up directory sync finish, so that the stop is the one asked for: a SIGTERM during that sync
    // can wait out close-with-grace's 10 s and end like a crash.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return ready;
  } catch (error) {
    throw new Error(`${way.name}: ${error instanceof Error ? error.message : error}\n${server.output().slice(-3000)}`);
  } finally {
    await stopServer(server, stopWith, 20_000);
  }
}

/** Both ways on one database, their restarts interleaved so that both see the same machine load. */
async function measure(database, envOf) {
  const rows = ways.map((way) => ({ way: way.name, database, restarts: [] }));
  for (const [i, way] of ways.entries()) rows[i].first = await once(way, envOf(way), 'SIGTERM');
  for (let run = 1; run <= RUNS; run += 1) {
    for (const [i, way] of ways.entries()) {
      rows[i].restarts.push(await once(way, envOf(way), run === KILLED_BEFORE - 1 ? 'SIGKILL' : 'SIGTERM'));
    }
  }
  for (const row of rows) {
    row.median = median(row.restarts);
    const times = row.restarts.map((ms, i) => `${Math.round(ms)}${i + 1 === KILLED_BEFORE ? '*' : ''}`).join(' ');
    console.log(
      `${`${row.way}, ${database}`.padEnd(22)} primeira ${String(Math.round(row.first)).padStart(5)} ms   ` +
        `reinícios ${times} ms   mediana ${Math.round(row.median)} ms`,
    );
  }
  return rows;
}

async function adminQuery(text) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const results = [];
const databases = [];
try {
  console.log(`Início até /readyz 200, modo demonstração; * = reinício depois de um SIGKILL. Node ${process.version}.`);
  results.push(...(await measure('PGlite', (way) => ({ DATA_DIR: path.join(work, `${way.name}-pglite`) }))));
  if (await postgresReachable(adminUrl)) {
    const urls = {};
    for (const way of ways) {
      const name = `paineis_startup_${process.pid}_${way.name}`;
      await adminQuery(`create database ${name}`);
      databases.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      urls[way.name] = url.toString();
    }
    const envOf = (way) => ({ DATA_DIR: path.join(work, `${way.name}-postgres`), DATABASE_URL: urls[way.name] });
    results.push(...(await measure('PostgreSQL', envOf)));
  } else {
    console.log(`PostgreSQL não respondeu em ${new URL(adminUrl).host}: medido só o PGlite.`);
  }
} finally {
  for (const name of databases) {
    await adminQuery(`drop database if exists ${name} with (force)`).catch((error) =>
      console.error(`não consegui apagar o banco ${name}: ${error instanceof Error ? error.message : error}`),
    );
  }
  rmSync(work, { recursive: true, force: true });
}

console.log('\nMedianas dos reinícios (ms):');
for (const database of [...new Set(results.map((r) => r.database))]) {
  const of = (way) => results.find((r) => r.database === database && r.way === way);
  const compiled = of('compilado');
  const tsx = of('tsx');
  console.log(
    `  ${database.padEnd(11)} compilado ${Math.round(compiled.median)}   tsx ${Math.round(tsx.median)}   ` +
      `(tsx - compilado: ${Math.round(tsx.median - compiled.median)} ms)`,
  );
}
