// The portal as the benchmark measures it, in a process of its own (bench/api.ts starts it): a seeded database
// (PGlite in memory, or the PostgreSQL database named on the command line), the Power BI stand-in, and the real
// app with the server's logging (level info, lib/log-destination.ts on stdout, which bench/api.ts points at a
// file). Says when it listens, with two session tokens (an admin's, an ordinary user's); then runs the
// usage part when asked (it needs the database and the opening recorder, which live here).
//
//   node --import tsx bench/portal-process.ts [postgres-url] [--quick]
import type { AddressInfo } from 'node:net';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config/env.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { migrateDatabase } from '../apps/api/src/db/migrate.ts';
import { openLogDestination } from '../apps/api/src/lib/log-destination.ts';
import { signSessionToken } from '../apps/api/src/modules/auth/tokens.ts';
import { portalEnvironment, startStandIns } from '../packages/microsoft-stand-ins/src/stand-ins.ts';
import { SIZES } from './budgets.ts';
import { serveBenchProcess } from './bench-process.ts';
import { get } from './http-get.ts';
import { seed, seededReports } from './seed.ts';
import { benchUsage } from './usage.ts';

export interface PortalReady {
  base: string;
  engine: string;
  tokens: { admin: string; user: string };
}

// stdout is the portal's log: what this process says to people goes to stderr.
console.log = console.error;

const databaseUrl = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
const logDestination = openLogDestination();
const database = await openDatabase(databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite' });
const engine = database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
let standIns: Awaited<ReturnType<typeof startStandIns>> | null = null;
let portal: Awaited<ReturnType<typeof buildApp>> | null = null;

await serveBenchProcess<PortalReady>(
  async () => {
    await migrateDatabase(database);
    // Opening a panel asks Power BI for an embed token: the stand-in plays it, in this process.
    standIns = await startStandIns({ people: [] });
    const config = loadConfig({
      NODE_ENV: 'test',
      JWT_SECRET: 'benchmark-secret-with-more-than-32-chars',
      LOG_LEVEL: 'info',
      PORT: '0',
      ...portalEnvironment(standIns),
      GRAPH_SYNC_INTERVAL_MINUTES: '0',
    });
    const { users, seconds } = await seed(database.db);
    console.error(
      `api (${engine}): ${SIZES.panels} painéis, ${SIZES.users} usuários, ${SIZES.linksPerPanel} vínculos por painel, semeada em ${seconds.toFixed(1)} s`,
    );
    standIns.powerBi.setReports(await seededReports(database.db));
    // As server.ts builds it: the same logger options and destination.
    portal = await buildApp({ config, database, logger: { stream: logDestination.stream } });
    await portal.listen({ port: 0, host: '127.0.0.1' });
    return {
      base: `http://127.0.0.1:${(portal.server.address() as AddressInfo).port}`,
      engine,
      tokens: {
        admin: (await signSessionToken(config.jwt, users[0]!)).token,
        user: (await signSessionToken(config.jwt, users[1]!)).token,
      },
    };
  },
  async (request) => {
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
