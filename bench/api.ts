// npm run bench: seeds a large organisation, runs the real server and measures each call against its budget.
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config/env.ts';
import { openDatabase, rows, type Db } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { demoUsers } from '../apps/api/src/demo/demo-data.ts';
import { seedUsers } from '../apps/api/src/modules/users/users.service.ts';
import { signSessionToken } from '../apps/api/src/modules/auth/tokens.ts';
import { portalEnvironment, startStandIns } from '../packages/microsoft-stand-ins/src/stand-ins.ts';
import { BUDGETS_P99_MS, SIZES } from './budgets.ts';

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

async function seed(db: Db) {
  const started = Date.now();
  await db.execute(sql`truncate classificacoes, paineis, usuarios restart identity cascade`);
  const users = demoUsers(SIZES.users, 99).map((u, i) => ({ ...u, id: `bench-${i}`, email: `u${i}.${u.email}` }));
  users[0]!.role = 'Admin';
  await seedUsers(db, users, 'bench');
  await db.execute(sql`
    insert into classificacoes (nome, descricao)
    select 'Classificação ' || g, 'Descrição da classificação ' || g from generate_series(1, ${SIZES.classifications}) g`);
  await db.execute(sql`
    insert into paineis (nome_painel, workspace_id, report_id, usa_rls, classificacao_id, ordem)
    select 'Painel ' || g, '11111111-1111-4111-8111-111111111111', gen_random_uuid()::text, g <= ${SIZES.rlsPanels},
           case when g % 50 = 0 then null else (g % ${SIZES.classifications}) + 1 end, g
    from generate_series(1, ${SIZES.panels}) g`);
  // Each panel gets a window of users; user 1 (ordinary) is linked to every tenth panel.
  await db.execute(sql`
    insert into painel_usuarios (painel_id, usuario_id)
    select p.id, 'bench-' || ((p.id * 37 + k) % ${SIZES.users - 2} + 2)
    from paineis p, generate_series(0, ${SIZES.linksPerPanel - 1}) k
    on conflict do nothing`);
  await db.execute(
    sql`insert into painel_usuarios (painel_id, usuario_id) select id, 'bench-1' from paineis where id % 10 = 0`,
  );
  await db.execute(sql`
    insert into painel_rls_roles (painel_id, role_name, posicao)
    select p.id, 'Papel ' || r, r from paineis p, generate_series(1, 3) r where p.usa_rls`);
  await db.execute(sql`
    insert into painel_rls_role_emails (role_id, email)
    select r.id, 'pessoa' || k || '@empresa.com.br' from painel_rls_roles r, generate_series(1, 50) k`);
  // The ordinary user is in a role of panel 10 (RLS), so they can open it.
  await db.execute(sql`
    insert into painel_rls_role_emails (role_id, email)
    select id, ${users[1]!.email.toLowerCase()} from painel_rls_roles where painel_id = 10 and posicao = 1`);
  // As the server does at start on PGlite (no autovacuum there); a server would analyze by itself.
  await db.execute(sql`analyze`);
  return { users, seconds: (Date.now() - started) / 1000 };
}

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
