// npm run bench: seeds a large organisation, runs the real server and measures each call against its budget.
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config/env.ts';
import { openDatabase, rows } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { signSessionToken } from '../apps/api/src/modules/auth/tokens.ts';
import { portalEnvironment, startStandIns } from '../packages/microsoft-stand-ins/src/stand-ins.ts';
import { BUDGETS_P99_MS, SIZES } from './budgets.ts';
import { seed } from './seed.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const database = await openDatabase(
  process.env.BENCH_DATABASE_URL ? { kind: 'postgres', url: process.env.BENCH_DATABASE_URL } : { kind: 'pglite' }, // in memory: nothing left behind
);
await migrateDatabase(database);
// Opening a panel asks Power BI for an embed token: the stand-in plays it, in this process.
const standIns = await startStandIns({ people: [] });
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
  `Base: ${SIZES.panels} painéis, ${SIZES.users} usuários, ${SIZES.linksPerPanel} vínculos por painel (${database.kind}, semeada em ${seconds.toFixed(1)} s)`,
);

const panelReports = await rows<{ report_id: string; usa_rls: boolean }>(
  database.db,
  sql`select report_id, usa_rls from paineis`,
);
standIns.powerBi.setReports(
  panelReports.map((row, i) => ({
    workspaceId: '11111111-1111-4111-8111-111111111111',
    reportId: row.report_id,
    name: `Relatório ${i + 1}`,
    datasetId: row.report_id.replace(/^.{8}/, 'dddddddd'),
    rls: row.usa_rls,
  })),
);

const app = await buildApp({ config, database, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const admin = (await signSessionToken(config.jwt, users[0]!)).token;
const user = (await signSessionToken(config.jwt, users[1]!)).token;

const cases: [string, string, string][] = [
  ['GET /api/paineis/agrupados (admin, 2000 painéis)', '/api/paineis/agrupados', admin],
  ['GET /api/paineis/agrupados (usuário)', '/api/paineis/agrupados', user],
  ['GET /api/paineis (usuário)', '/api/paineis', user],
  ['GET /api/paineis/{id}/dados', '/api/paineis/7/dados', admin],
  ['GET /api/usuarios365/ativos (25000 usuários)', '/api/usuarios365/ativos', admin],
  ['GET /api/paineis/{id}/usuarios (300 vínculos)', '/api/paineis/7/usuarios', admin],
  ['GET /api/classificacoes/admin', '/api/classificacoes/admin', admin],
  ['GET /api/paineis/{id} (usuário abre um painel)', '/api/paineis/210', user],
  ['GET /api/paineis/{id}/token (usuário, RLS)', '/api/paineis/10/token', user],
];

let failed = 0;
const lines: string[] = [];
for (const [name, path, token] of cases) {
  const result = await autocannon({
    url: base + path,
    connections: 10,
    duration: DURATION_S,
    timeout: 30,
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' },
  });
  const budget = BUDGETS_P99_MS[name]!;
  const p99 = result.latency.p99;
  const errors = result.errors + result.timeouts + result.non2xx;
  const ok = p99 <= budget && errors === 0;
  if (!ok) failed += 1;
  lines.push(
    `${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(50)} p50 ${String(result.latency.p50).padStart(5)} ms  p99 ${String(p99).padStart(5)} ms  (orçamento ${budget} ms)  ${Math.round(result.requests.average)} req/s${errors ? `  ${errors} erros` : ''}`,
  );
  console.log(lines.at(-1));
}
await app.close(); // closes the database too
await standIns.close();
console.log(`bench: ${cases.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
