// The portal as the benchmark measures it, in a process of its own (bench/api.ts starts it): a seeded database
// (PGlite in memory, or the PostgreSQL database named on the command line), the Power BI stand-in, and the real
// app with the server's logging (level info, lib/log-destination.ts on stdout, which bench/api.ts points at a
// file). Says when it listens, with two session tokens (an admin's, an ordinary user's); then runs the
// usage part when asked (it needs the database and the opening recorder, which live here).
//
// With --directory=<environment> (bench/groups.ts): the Microsoft stand-ins are the caller's (the environment, as
// portalEnvironment gives it, in base64url JSON, ADMIN_USERS included), and the database holds the catalogue
// (seedCatalog) but no one: the people and their groups come from the portal's own directory sync, which the
// caller asks for ('sync', 'group-sync'), with the panels' group links ('link-groups'), session tokens of synced
// people ('tokens') and this process's memory ('memory').
//
//   node --import tsx bench/portal-process.ts [postgres-url] [--quick] [--directory=<environment>]
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config/env.ts';
import { openDatabase, rows } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { openLogDestination } from '../apps/api/src/lib/log-destination.ts';
import { signSessionToken } from '../apps/api/src/modules/auth/tokens.ts';
import { syncGroups } from '../apps/api/src/modules/users/group-sync.ts';
import { portalEnvironment, startStandIns } from '../packages/microsoft-stand-ins/src/stand-ins.ts';
import type { StandInReport } from '../packages/microsoft-stand-ins/src/types.ts';
import { OPENERS, SIZES } from './budgets.ts';
import { serveBenchProcess } from './bench-process.ts';
import { get } from './http-get.ts';
import { seed, seedCatalog, seededReports } from './seed.ts';
import { benchUsage } from './usage.ts';

export interface PortalReady {
  base: string;
  engine: string;
  tokens: { admin: string; user: string };
  /** Session tokens of OPENERS.people ordinary people linked to OPENERS.panel (bench/budgets.ts). */
  openers: string[];
}

/** Ready in --directory mode: no one to sign in yet; the reports the caller's Power BI stand-in must serve. */
export interface DirectoryPortalReady {
  base: string;
  engine: string;
  reports: StandInReport[];
}

/** This process's memory, in bytes (process.memoryUsage). */
export interface PortalMemory {
  rss: number;
  heapUsed: number;
}

// stdout is the portal's log: what this process says to people goes to stderr.
console.log = console.error;

const args = process.argv.slice(2);
const databaseUrl = args.find((arg) => !arg.startsWith('--'));
const directoryArg = args.find((arg) => arg.startsWith('--directory='));
const directoryEnvironment = directoryArg
  ? (JSON.parse(Buffer.from(directoryArg.slice('--directory='.length), 'base64url').toString('utf8')) as Record<
      string,
      string
    >)
  : null;
const logDestination = openLogDestination();
const database = await openDatabase(databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite' });
const engine = database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
let standIns: Awaited<ReturnType<typeof startStandIns>> | null = null;
let portal: Awaited<ReturnType<typeof buildApp>> | null = null;
const jwtSecret = 'benchmark-secret-with-more-than-32-chars';

const memory = (): PortalMemory => {
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
};

/** The portal of --directory mode: the catalogue only, the caller's stand-ins. */
async function directoryPortal(environment: Record<string, string>): Promise<DirectoryPortalReady> {
  await migrateDatabase(database);
  await database.db.execute(sql`truncate classificacoes, paineis, usuarios, grupos restart identity cascade`);
  await seedCatalog(database.db);
  await database.db.execute(sql`analyze`);
  const config = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: jwtSecret,
    LOG_LEVEL: 'info',
    PORT: '0',
    ...environment,
    GRAPH_SYNC_INTERVAL_MINUTES: '0',
  });
  portal = await buildApp({ config, database, logger: { stream: logDestination.stream } });
  await portal.listen({ port: 0, host: '127.0.0.1' });
  return {
    base: `http://127.0.0.1:${(portal.server.address() as AddressInfo).port}`,
    engine,
    reports: await seededReports(database.db),
  };
}

/** The requests of --directory mode. */
async function directoryRequest(request: Record<string, unknown>): Promise<unknown> {
  const app = portal;
  if (!app) throw new Error('o portal não está pronto');
  switch (request.type) {
    case 'memory':
      return memory();
    case 'sync': {
      // The whole directory sync, as the schedule and POST /usuarios365/sincronizar run it: people, then groups.
      if (!app.directorySync) throw new Error('sincronização do diretório não configurada');
      const started = performance.now();
      const result = await app.directorySync.run();
      return { ms: performance.now() - started, result, memory: memory() };
    }
    case 'group-sync': {
      // The groups' part alone: one round of Graph's delta from the saved link.
      if (!app.graph) throw new Error('Graph não configurado');
      const started = performance.now();
      const kept = await syncGroups(database, app.graph, app.log);
      return { ms: performance.now() - started, kept };
    }
    case 'link-groups': {
      // Panels' group links, in one statement (as seed() writes the people's links), then RLS roles' groups.
      const links = request.links as [number, string][];
      const roleGroups = (request.roleGroups ?? []) as [number, string, string][];
      await database.db.execute(sql`
        insert into painel_grupos (painel_id, grupo_id)
        select * from unnest(${sql.param(links.map((l) => l[0]))}::int[], ${sql.param(links.map((l) => l[1]))}::text[])
        on conflict do nothing`);
      for (const [painelId, roleName, grupoId] of roleGroups) {
        await database.db.execute(sql`
          insert into painel_rls_role_grupos (role_id, grupo_id)
          select id, ${grupoId} from painel_rls_roles where painel_id = ${painelId} and role_name = ${roleName}`);
      }
      await database.db.execute(sql`analyze`);
      return links.length;
    }
    case 'tokens': {
      const ids = request.ids as string[];
      const found = await rows<{ id: string; email: string; display_name: string; role: 'Admin' | 'User' }>(
        database.db,
        sql`select id, email, display_name, role from usuarios where id = any(${sql.param(ids)}::text[])`,
      );
      const byId = new Map(found.map((u) => [u.id, u]));
      const jwt = app.config.jwt;
      return Promise.all(
        ids.map(async (id) => {
          const user = byId.get(id);
          if (!user) throw new Error(`a pessoa ${id} não foi sincronizada`);
          return (
            await signSessionToken(jwt, { id, email: user.email, displayName: user.display_name, role: user.role })
          ).token;
        }),
      );
    }
    default:
      throw new Error(`pedido desconhecido: ${String(request.type)}`);
  }
}

await serveBenchProcess<PortalReady | DirectoryPortalReady>(
  async () => {
    if (directoryEnvironment) return directoryPortal(directoryEnvironment);
    await migrateDatabase(database);
    // Opening a panel asks Power BI for an embed token: the stand-in plays it, in this process.
    standIns = await startStandIns({ people: [] });
    const config = loadConfig({
      NODE_ENV: 'test',
      JWT_SECRET: jwtSecret,
      LOG_LEVEL: 'info',
      PORT: '0',
      ...portalEnvironment(standIns),
      GRAPH_SYNC_INTERVAL_MINUTES: '0',
      // No timed round over Power BI: the freshness and health seed() wrote stay as written while measured.
      POWER_BI_REFRESH_INTERVAL_MINUTES: '0',
      POWER_BI_HEALTH_INTERVAL_MINUTES: '0',
    });
    const { users, seconds } = await seed(database.db);
    console.error(
      `api (${engine}): ${SIZES.panels} painéis, ${SIZES.users} usuários, ${SIZES.linksPerPanel} vínculos por painel, semeada em ${seconds.toFixed(1)} s`,
    );
    standIns.powerBi.setReports(await seededReports(database.db));
    // As server.ts builds it: the same logger options and destination.
    portal = await buildApp({ config, database, logger: { stream: logDestination.stream } });
    await portal.listen({ port: 0, host: '127.0.0.1' });
    const openers = await rows<{ usuario_id: string }>(
      database.db,
      sql`select usuario_id from painel_usuarios where painel_id = ${OPENERS.panel} and usuario_id <> 'bench-1'
          order by usuario_id limit ${OPENERS.people}`,
    );
    const byId = new Map(users.map((u) => [u.id, u]));
    return {
      base: `http://127.0.0.1:${(portal.server.address() as AddressInfo).port}`,
      engine,
      tokens: {
        admin: (await signSessionToken(config.jwt, users[0]!)).token,
        user: (await signSessionToken(config.jwt, users[1]!)).token,
      },
      openers: await Promise.all(
        openers.map(async ({ usuario_id }) => (await signSessionToken(config.jwt, byId.get(usuario_id)!)).token),
      ),
    };
  },
  async (request) => {
    if (directoryEnvironment) return directoryRequest(request);
    if (request.type !== 'usage' || !portal) throw new Error(`pedido desconhecido: ${String(request.type)}`);
    const base = `http://127.0.0.1:${(portal.server.address() as AddressInfo).port}`;
    return benchUsage({
      db: database.db,
      engine,
      portalBase: base,
      headers: request.headers as Record<string, string>,
      recorder: portal.openingRecorder,
      get,
    });
  },
  async () => {
    // Closing the app closes the database; without an app, it is closed here.
    if (portal) await portal.close();
    else await database.close();
    await standIns?.close();
    await logDestination.flush();
  },
);
