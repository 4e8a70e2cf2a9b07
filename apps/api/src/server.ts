import closeWithGrace from 'close-with-grace';
import { sql } from 'drizzle-orm';
import { buildApp } from './app.ts';
import { DEMO_CAPACITY, DEMO_RESUME_SECONDS } from './demo/demo-capacity.ts';
import { parseCapacityResourceId } from './integrations/azure/capacity-client.ts';
import { ConfigError, GRAPH_MAX_ATTACHMENT_BYTES, loadConfig, REPO_ROOT, type Config } from './config/env.ts';
import { DataDirInUseError, openDatabase } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { DEMO_ADMIN, DEMO_USER } from './demo/demo-data.ts';
import { demoRefusal, loadDemoData } from './demo/load-demo-data.ts';
import { demoDatasets, demoDirectory, demoGroups, demoReports, demoWorkspaces } from './demo/demo-directory.ts';
import { demoOutboxOf } from './demo/demo-outbox.ts';
import { openLogDestination } from './lib/log-destination.ts';
import { logMicrosoftReachability } from './integrations/microsoft-reachability.ts';
import { ensureLocalAccounts } from './modules/auth/bootstrap-accounts.ts';
import { signSessionToken } from './modules/auth/tokens.ts';
import path from 'node:path';
import { existsSync } from 'node:fs';

const envFile = path.join(REPO_ROOT, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

let database;
try {
  database = await openDatabase(config.database);
} catch (error) {
  if (error instanceof DataDirInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
await migrateDatabase(database);
// A database that has run outside demo mode may hold real people: the demo, its stand-in sign-in above all, never runs
// on it.
if (config.demoMode) {
  const refusal = await demoRefusal(database.db);
  if (refusal) {
    console.error(refusal);
    await database.close();
    process.exit(1);
  }
}
// Demo mode: local stand-ins play Entra ID and Graph, and the real clients talk to them.
const standIns = config.demoMode
  ? await (
      await import('@paineis/microsoft-stand-ins/stand-ins')
    ).startStandIns({
      people: demoDirectory(),
      reports: demoReports(),
      groups: demoGroups(),
      workspaces: demoWorkspaces(),
      datasets: demoDatasets(),
      capacities: [DEMO_CAPACITY],
      capacityTimings: { resumeMs: DEMO_RESUME_SECONDS * 1000 },
    })
  : null;
if (standIns) {
  config = {
    ...config,
    microsoft: {
      tenantId: standIns.tenantId,
      clientId: standIns.clientId,
      clientSecret: standIns.clientSecret,
      authorityHost: standIns.authorityHost,
      graphUrl: standIns.graphUrl,
      powerBiApiUrl: standIns.powerBiApiUrl,
      demoEmbedHost: standIns.embedHostUrl,
    },
    // The demo's running A1, in the stand-in's Azure Resource Manager (issue 40).
    capacity: {
      resource: parseCapacityResourceId(standIns.capacities.resourceId(DEMO_CAPACITY.name)),
      managementUrl: standIns.managementUrl,
    },
    // Without SMTP_URL, subscriptions are sent through the Graph stand-in's sendMail from the demo administrator's
    // mailbox, and read on the demo outbox (docs/requirements.md#subscriptions).
    mail:
      config.mail?.kind === 'smtp'
        ? config.mail
        : {
            kind: 'graph',
            sender: DEMO_ADMIN.email,
            maxAttachmentBytes: GRAPH_MAX_ATTACHMENT_BYTES,
            limits: config.graphMailLimits,
          },
  };
}

// Log lines go to stdout asynchronously, in blocks (log-destination.ts); flushed below when the server stops.
const logDestination = openLogDestination();
const app = await buildApp({
  config,
  database,
  // The background tasks' timers start once the app is ready, with a directory sync and the Power BI reads at start
  // (plugins/background-tasks.ts); each of those runs on one instance at a time (docs/decisions/021-background-tasks.md).
  syncDirectoryAtStart: true,
  // Every instance works the subscriptions' deliveries (docs/decisions/020-subscription-deliveries.md).
  runDeliveries: true,
  ...(standIns ? { demoOutbox: demoOutboxOf(standIns.graph), capacity: { resumeSeconds: DEMO_RESUME_SECONDS } } : {}),
  logger: { stream: logDestination.stream },
});

if (config.demoMode) {
  const loaded = await loadDemoData(database.db);
  app.log.info(
    { database: database.kind, demoDataLoaded: loaded, entraStandIn: standIns?.issuer },
    'MODO DEMONSTRAÇÃO: sem configuração Microsoft; dados, contas e serviços Microsoft simulados localmente',
  );
}
const accounts = await ensureLocalAccounts(database.db, config, app.log);
if (accounts.length > 0) app.log.info({ accounts }, 'contas locais criadas ou atualizadas');

if (database.kind === 'pglite') {
  // PGlite runs no autovacuum, so nothing else keeps the planner's statistics fresh.
  await database.db.execute(sql`analyze`);
}

closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
  if (err) app.log.error({ err }, 'encerrando após erro');
  else app.log.info({ signal }, 'encerrando');
  try {
    await app.close();
    // After the app: a directory sync under way at the stop still talks to the stand-ins until it ends.
    await standIns?.close();
  } finally {
    // Every line of the requests answered before the stop, and the stop's own, before the process exits.
    // (When the grace delay runs out, pino's exit handler writes what is left synchronously.)
    await logDestination.flush();
  }
});

await app.listen({ port: config.port, host: config.host });

// Says at once, in the log, which Microsoft service is out of reach (the portal runs anyway: local sign-in
// needs none of them). In the background: start-up neither waits for it nor fails on it.
if (config.microsoft && !config.demoMode) {
  void logMicrosoftReachability(app.log, config.microsoft).catch((err: unknown) =>
    app.log.warn({ err }, 'verificação dos serviços Microsoft falhou'),
  );
}

if (config.demoMode) {
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
  const admin = await signSessionToken(config.jwt, { ...DEMO_ADMIN, username: 'demo.admin' });
  const user = await signSessionToken(config.jwt, { ...DEMO_USER, username: 'demo.usuario' });
  // Printed plainly (not as a log line, nor through the redaction) so it can be copied into curl; on the log's
  // destination, so that it comes after the start-up's lines rather than before them.
  logDestination.stream.write(
    [
      '',
      `Painéis (demonstração) em ${url}  —  documentação da API em ${url}/api/docs`,
      `Entrar: ${url}/api/auth/microsoft-login (escolha uma pessoa), ou usuário demo.admin / demo.usuario com a senha demo`,
      `Token de administrador (${DEMO_ADMIN.email}):`,
      admin.token,
      `Token de usuário (${DEMO_USER.email}):`,
      user.token,
      `Exemplo: curl -H "Authorization: Bearer <token>" ${url}/api/paineis/agrupados`,
      '',
    ].join('\n') + '\n',
  );
  void logDestination.flush();
}
