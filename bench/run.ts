// npm run bench: every budget of the portal measured at the sizes an organisation reaches (bench/budgets.ts), in
// one run: the API (on PGlite, then on PostgreSQL when one answers), the web app in Chromium, and the server's
// start-up. Prints one table per part, then "bench: N passed, N failed".
//
//   node --import tsx bench/run.ts           every budget enforced: any row that misses fails the run
//   node --import tsx bench/run.ts --quick   (or BENCH_QUICK=1) CI's check that the benchmark still works:
//                                            short runs, budgets reported but not enforced; only an error (a
//                                            crash, a page that never shows its rows, a non-2xx) fails it
import { availableParallelism, loadavg } from 'node:os';
import { benchApi } from './api.ts';
import { errorRow, printTable, quick, type BenchRow } from './report.ts';
import { benchStartup, POSTGRES_ADMIN_URL, postgresReachable, withScratchDatabase } from './startup.ts';
import { benchWeb } from './web.ts';

const started = Date.now();
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
const tables: { title: string; rows: BenchRow[] }[] = [];

/** Runs one part; a throw becomes an error row, so the other parts still run. */
async function part(title: string, run: () => Promise<BenchRow[]>): Promise<void> {
  const partStarted = Date.now();
  console.log(`\n▶ ${title}`);
  let rows: BenchRow[];
  try {
    rows = await run();
  } catch (error) {
    console.error(error);
    rows = [errorRow(title, '—', error)];
  }
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
await part('API, PGlite', () => benchApi({}));
if (await postgresReachable()) {
  await part('API, PostgreSQL', () => withScratchDatabase('api', (databaseUrl) => benchApi({ databaseUrl })));
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
await part('Aplicação web (Chromium)', () => benchWeb());
await part('Início do servidor', benchStartup);

for (const { title, rows } of tables) printTable(title, rows);
const all = tables.flatMap((t) => t.rows);
const errors = all.filter((r) => r.error);
const failed = all.filter((r) => !r.ok || r.error).length;
console.log(
  `\nTotal: ${seconds(started)}, carga média ${load()}.${quick && failed > errors.length ? ' Orçamentos não exigidos no modo rápido.' : ''}`,
);
console.log(`bench: ${all.length - failed} passed, ${failed} failed`);
process.exit(errors.length > 0 || (!quick && failed > 0) ? 1 : 0);
