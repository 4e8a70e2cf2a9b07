// npm run bench: every budget of the portal measured at the sizes an organisation reaches (bench/budgets.ts), in
// one run: the API (on PGlite, then on PostgreSQL when one answers), access by Entra group (bench/groups.ts, on
// both engines too), subscriptions' deliveries by two instances (bench/subscriptions.ts, PostgreSQL only), the web
// app in Chromium, and the server's start-up. Prints one table per part, then "bench: N passed, N failed".
//
//   node --import tsx bench/run.ts           every budget enforced: any row that misses fails the run
//   node --import tsx bench/run.ts --quick   (or BENCH_QUICK=1) CI's check that the benchmark still works:
//                                            short runs, budgets reported but not enforced; only an error (a
//                                            crash, a page that never shows its rows, a non-2xx) fails it
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt, errorRow, printTable, quick, type BenchRow } from './report.ts';
import { POSTGRES_ADMIN_URL, postgresReachable } from './startup.ts';

const started = Date.now();
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
const tables: { title: string; rows: BenchRow[] }[] = [];

const here = path.dirname(fileURLToPath(import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'paineis-bench-'));

/** A part (bench/part.ts) in a child process: its rows, or an error row when it died without writing them. */
function runPart(name: string): Promise<BenchRow[]> {
  const out = path.join(scratch, `${name}.json`);
  const args = ['--import', 'tsx', path.join(here, 'part.ts'), name, out, ...(quick ? ['--quick'] : [])];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.on('exit', (code, signal) => {
      try {
        resolve(JSON.parse(readFileSync(out, 'utf8')) as BenchRow[]);
      } catch {
        resolve([errorRow(name, '—', `o processo da parte terminou sem resultados (${signal ?? `código ${code}`})`)]);
      }
    });
  });
}

/** Runs one part in a process of its own, so that no part runs on what an earlier one left in memory. */
async function part(title: string, name: string): Promise<void> {
  const partStarted = Date.now();
  console.log(`\n▶ ${title}`);
  const rows = await runPart(name);
  console.log(`✓ ${title} (${seconds(partStarted)})`);
  tables.push({ title: `${title} (${seconds(partStarted)})`, rows });
}

/** The figures are times on this machine: how busy it was says how far to trust them. */
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.log(
  `Benchmark${quick ? ' (modo rápido: orçamentos informados, não exigidos)' : ''}. Node ${process.version}, ` +
    `${availableParallelism()} núcleos, carga média ${load()}.`,
);
// Built once here rather than by the parts (each would check again).
ensureBuilt();
await part('API, PGlite', 'api-pglite');
if (await postgresReachable()) {
  await part('API, PostgreSQL', 'api-postgres');
} else {
  tables.push({
    title: 'API, PostgreSQL',
    rows: [
      {
        figure: 'API no PostgreSQL',
        value: `não medida: nada responde em ${new URL(POSTGRES_ADMIN_URL).host}`,
        budget: '—',
        ok: true,
      },
    ],
  });
}
await part('Acesso por grupo, PGlite', 'groups-pglite');
if (await postgresReachable()) {
  await part('Acesso por grupo, PostgreSQL', 'groups-postgres');
} else {
  const value = `não medido: nada responde em ${new URL(POSTGRES_ADMIN_URL).host}`;
  tables.push({
    title: 'Acesso por grupo, PostgreSQL',
    rows: [{ figure: 'Acesso por grupo no PostgreSQL', value, budget: '—', ok: true }],
  });
}
if (await postgresReachable()) {
  await part('Assinaturas: envios, PostgreSQL', 'subscriptions');
  await part('Assinaturas pelo Microsoft Graph, PostgreSQL', 'subscriptions-graph');
} else {
  const value = `não medido: nada responde em ${new URL(POSTGRES_ADMIN_URL).host}`;
  tables.push({
    title: 'Assinaturas: envios, PostgreSQL',
    rows: [{ figure: 'Envios de assinaturas (duas instâncias num PostgreSQL)', value, budget: '—', ok: true }],
  });
}
await part('Custo da capacidade do Power BI (relógio simulado)', 'capacity');
await part('Aplicação web (Chromium)', 'web');
await part('Início do servidor', 'startup');
rmSync(scratch, { recursive: true, force: true });

for (const { title, rows } of tables) printTable(title, rows);
const all = tables.flatMap((t) => t.rows);
const errors = all.filter((r) => r.error);
const failed = all.filter((r) => !r.ok || r.error).length;
console.log(
  `\nTotal: ${seconds(started)}, carga média ${load()}.${quick && failed > errors.length ? ' Orçamentos não exigidos no modo rápido.' : ''}`,
);
console.log(`bench: ${all.length - failed} passed, ${failed} failed`);
process.exit(errors.length > 0 || (!quick && failed > 0) ? 1 : 0);
