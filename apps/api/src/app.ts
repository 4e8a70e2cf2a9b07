import Fastify, { type FastifyReply, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config/env.ts';
import type { Database } from './db/client.ts';
import type { EmbeddingService, ReportExporter } from './integrations/power-bi/embedding-service.ts';
import { UnavailableEmbeddingService } from './integrations/power-bi/embedding-service.ts';
import { PowerBiClient, type PowerBiClientOptions } from './integrations/power-bi/power-bi-client.ts';
import { PowerBiEmbeddingService } from './integrations/power-bi/power-bi-embedding-service.ts';
import authPlugin from './plugins/auth.ts';
import backgroundTasks from './plugins/background-tasks.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { EntraClient, type EntraClientOptions } from './integrations/microsoft-identity/entra-client.ts';
import { GraphClient, type GraphClientOptions } from './integrations/microsoft-graph/graph-client.ts';
import databasePlugin from './plugins/database.ts';
import preparedJson from './plugins/prepared-json.ts';
import { COMPRESS_FROM_BYTES } from './lib/prepared-json.ts';
import contentTypes from './plugins/content-types.ts';
import errorHandler, { answerClientError } from './plugins/error-handler.ts';
import securityHeaders, { BARE_ANSWER_HEADERS, docsContentSecurityPolicy } from './plugins/security-headers.ts';
import cors from './plugins/cors.ts';
import { logSecrets, redactingLoggerOptions } from './lib/log-redaction.ts';
import { RequestLogController } from './lib/request-log.ts';
import webApp from './plugins/web-app.ts';
import { classificationsRoutes } from './modules/classifications/classifications.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { panelsModule } from './modules/panels/panels.module.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { usageRoutes } from './modules/usage/usage.routes.ts';
import { personalModule } from './modules/personal/personal.module.ts';
import { exportsRoutes } from './modules/exports/exports.routes.ts';
import { accessRoutes } from './modules/access/access.routes.ts';
import { powerBiModule } from './modules/power-bi/power-bi.module.ts';
import type { SyncResult } from '@paineis/contract/users';
import type { TaskHandle, TaskRunner, TaskRunnerOptions } from './tasks/task-runner.ts';
import openingRecorder from './plugins/opening-recorder.ts';
// What the opening of a panel reads of its report's health, handed to the panels module (OpeningDeps).
import { brokenByOpening, isBroken, isBrokenNow, panelUnavailable } from './modules/power-bi/panel-health.ts';
import type { OpeningCapacity, OpeningHealth } from './modules/panels/panel-opening.ts';
import { createMailTransport } from './integrations/mail/create-mail-transport.ts';
import type { MailTransport } from './integrations/mail/mail-transport.ts';
import { DeliveryWorker } from './modules/subscriptions/deliveries.ts';
import { subscriptionsModule } from './modules/subscriptions/subscriptions.module.ts';
import { configurationRoutes } from './modules/configuration/configuration.routes.ts';
import type { DemoOutbox } from './modules/subscriptions/demo-outbox.ts';
import { CapacityClient } from './integrations/azure/capacity-client.ts';
import { capacityRoutes } from './modules/capacity/capacity.routes.ts';
import { CapacityControl, type CapacityOptions } from './modules/capacity/capacity.ts';
import { scheduledRefreshes } from './modules/power-bi/refresh-schedules.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    embedding: EmbeddingService;
    /** Exports of reports to PDF and PowerPoint (Power BI's export-to-file jobs). */
    reportExports: ReportExporter;
    /** Null without Microsoft configuration. */
    entra: EntraClient | null;
    /** Microsoft Graph, for the directory sync and each Microsoft sign-in; null without Microsoft configuration. */
    graph: GraphClient | null;
    /** The background work, on one runner (plugins/background-tasks.ts). */
    tasks: TaskRunner;
    /** The directory sync with Graph, a task of `tasks`; null without Microsoft configuration. */
    directorySync: TaskHandle<SyncResult> | null;
    /** Power BI REST as the service principal (catalogue, freshness, health); null without Microsoft configuration. */
    powerBi: PowerBiClient | null;
    /** The background read of each panel's last refresh in Power BI; null without Microsoft configuration. */
    freshness: TaskHandle<void> | null;
    /** The background check of each panel's report in Power BI; null without Microsoft configuration. */
    panelHealth: TaskHandle<void> | null;
    /** What opening a panel reads of its report's health (modules/power-bi/panel-health.ts). */
    openingHealth: OpeningHealth;
    /** What opening a panel asks of the Power BI capacity (modules/capacity): served, or the 503 to answer. */
    openingCapacity: OpeningCapacity;
    /** How subscription messages leave (SMTP or Graph sendMail); null when no transport is configured. */
    mail: MailTransport | null;
    /** The subscriptions' deliveries (docs/requirements.md#subscriptions). */
    deliveries: DeliveryWorker;
    /** Demo mode only: the messages the Graph stand-in received (the demo outbox); null otherwise. */
    demoOutbox: DemoOutbox | null;
    /**
     * The Power BI capacity in Azure (modules/capacity): its state, the rule that pauses and wakes it, and what an
     * opening, an export or a delivery asks of it; null without POWER_BI_CAPACITY_ID and the Microsoft configuration.
     */
    capacity: CapacityControl | null;
    /**
     * The background read of the panels' datasets' refresh schedules, which the capacity's rule wakes the capacity
     * for; null without a capacity or the Microsoft configuration.
     */
    refreshSchedules: TaskHandle<void> | null;
  }
}

export interface AppDependencies {
  config: Config;
  database: Database;
  /** Whether closing the app closes the database (tests share one database across apps). */
  ownsDatabase?: boolean;
  embedding?: EmbeddingService;
  logger?: FastifyServerOptions['logger'];
  /**
   * Run a directory sync, and the first rounds over Power BI (freshness, health), as soon as the app is ready
   * (server.ts); tests run them on demand. Default false.
   */
  syncDirectoryAtStart?: boolean;
  /** Overrides for the Graph client (tests shorten its waits). */
  graphOptions?: GraphClientOptions;
  /** Overrides for the Power BI client (tests shorten its timeout and waits). */
  powerBiOptions?: PowerBiClientOptions;
  /** Overrides for the Entra ID client (tests shorten its timeout). */
  entraOptions?: EntraClientOptions;
  /** Poll for due subscription deliveries from the start (server.ts); tests run them with deliveries.runOnce. */
  runDeliveries?: boolean;
  /** The background tasks' runner: its instance name, lease and retry (tests shorten them). */
  tasks?: Pick<TaskRunnerOptions, 'instanceId' | 'leaseMs' | 'retryMs'>;
  /** Overrides the configured mail transport (tests). */
  mail?: MailTransport | null;
  /** Demo mode: the Graph stand-in's outbox. */
  demoOutbox?: DemoOutbox;
  /** The capacity's timings (the demo's resume takes 10 s; tests shorten the polling) and the clock (tests). */
  capacity?: Omit<CapacityOptions, 'resource'> & { clock?: () => number };
  /** How long the data versions' lost notification channel waits before reconnecting (tests lengthen it). */
  versionFeed?: { reconnectDelayMs?: number };
}

/** Every module of the API, in one visible list, with where it is mounted under /api. */
const apiModules = [
  { plugin: authRoutes, prefix: '' },
  { plugin: panelsModule, prefix: '/paineis' },
  { plugin: classificationsRoutes, prefix: '' },
  { plugin: usersRoutes, prefix: '' },
  { plugin: usageRoutes, prefix: '' },
  { plugin: auditRoutes, prefix: '' },
  { plugin: personalModule, prefix: '' },
  { plugin: exportsRoutes, prefix: '' },
  { plugin: accessRoutes, prefix: '' },
  { plugin: powerBiModule, prefix: '' },
  { plugin: subscriptionsModule, prefix: '' },
  { plugin: configurationRoutes, prefix: '' },
  { plugin: capacityRoutes, prefix: '' },
];

/** Builds the whole server (API, docs, web app) without listening: server.ts listens, tests inject. */
export async function buildApp(deps: AppDependencies) {
  const { config } = deps;
  const app = Fastify({
    // Tokens, credentials and secrets never reach the log, whatever logger options a caller passes.
    logger:
      deps.logger === false
        ? false
        : redactingLoggerOptions(
            config.logLevel,
            logSecrets(config),
            typeof deps.logger === 'object' ? (deps.logger as Record<string, unknown>) : {},
          ),
    // One line per request, with its route, status, time and person, instead of Fastify's two (request-log.ts).
    logController: new RequestLogController(),
    trustProxy: config.trustProxy,
    bodyLimit: 5 * 1024 * 1024,
    // Every id in a path fits in this; longer paths are noise or abuse.
    routerOptions: { maxParamLength: 200 },
    // Requests Node cannot read (a head over 16 KB, malformed HTTP) are answered in the API's one shape too.
    clientErrorHandler: answerClientError,
    // Errors raised before routing (malformed or over-long paths) get the API's one error shape too.
    frameworkErrors: (error, _request, reply) => {
      // No hook runs for these answers, so the security headers are set here.
      void (reply as FastifyReply)
        .code(400)
        .headers(BARE_ANSWER_HEADERS)
        .send({
          message: `Endereço inválido: ${error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'parâmetro longo demais' : 'não pôde ser lido'}.`,
        });
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  const entra = config.microsoft ? new EntraClient(config.microsoft, deps.entraOptions) : null;
  const powerBiClient =
    entra && config.microsoft ? new PowerBiClient(config.microsoft.powerBiApiUrl, entra, deps.powerBiOptions) : null;
  app.decorate('powerBi', powerBiClient);
  const powerBi =
    powerBiClient && config.microsoft
      ? new PowerBiEmbeddingService(powerBiClient, app.log, { demoEmbedHost: config.microsoft.demoEmbedHost })
      : null;
  app.decorate('embedding', deps.embedding ?? powerBi ?? new UnavailableEmbeddingService());
  app.decorate<OpeningHealth>('openingHealth', {
    isBrokenNow,
    isBroken,
    brokenByOpening,
    unavailable: panelUnavailable,
  });
  app.decorate<ReportExporter>('reportExports', powerBi ?? new UnavailableEmbeddingService());
  app.decorate('entra', entra);
  const graph = entra && config.microsoft ? new GraphClient(config.microsoft.graphUrl, entra, deps.graphOptions) : null;
  app.decorate('graph', graph);

  const mail = deps.mail !== undefined ? deps.mail : createMailTransport(config.mail, { graph });
  app.decorate('mail', mail);
  // The SMTP pool's connections, when the app opened them (nodemailer ends one busy with a message once it is sent).
  if (mail && deps.mail === undefined) app.addHook('onClose', () => mail.close());
  app.decorate('demoOutbox', deps.demoOutbox ?? null);
  app.decorate(
    'deliveries',
    new DeliveryWorker({
      db: deps.database.db,
      reportExports: app.reportExports,
      mail,
      config,
      log: app.log,
      // app.capacity is decorated below, before any delivery runs.
      wakeCapacity: () => app.capacity?.wakeFor('envio'),
    }),
  );

  await app.register(errorHandler);
  await app.register(contentTypes);
  await app.register(securityHeaders, {
    publicUrl: config.publicUrl,
    // Power BI reports are embedded in iframes from its own hosts; the demo's from the local stand-in.
    frameSources: [
      'https://app.powerbi.com',
      'https://*.powerbi.com',
      ...(config.microsoft?.demoEmbedHost ? [new URL(config.microsoft.demoEmbedHost).origin] : []),
    ],
  });
  // Before the session check, so a preflight (which carries no token) is answered first.
  await app.register(cors, { origins: config.corsOrigins });
  // A GET carries no body, so there is nothing of it to decompress: its routes are left without that hook.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (methods.every((method) => method === 'GET' || method === 'HEAD')) route.decompress ??= false;
  });
  await app.register(compress, { threshold: COMPRESS_FROM_BYTES });
  await app.register(preparedJson);
  await app.register(databasePlugin, {
    database: deps.database,
    owned: deps.ownsDatabase ?? true,
    ...deps.versionFeed,
  });
  const { capacity: capacityConfig } = config;
  const { clock, ...capacityOptions } = deps.capacity ?? {};
  app.decorate(
    'capacity',
    capacityConfig && entra
      ? new CapacityControl(
          deps.database.db,
          new CapacityClient(capacityConfig.managementUrl, entra, capacityConfig.resource),
          app.log,
          clock,
          {
            ...capacityOptions,
            resource: capacityConfig.resource,
            // The panels' datasets' refresh schedules, which the power-bi module reads from Power BI and keeps.
            ...(powerBiClient
              ? { scheduledRefreshes: (from, to) => scheduledRefreshes(deps.database.db, from, to) }
              : {}),
          },
        )
      : null,
  );
  // Without a capacity configured, every opening is served as before: no promise on the hot path.
  app.decorate<OpeningCapacity>(
    'openingCapacity',
    app.capacity ?? { servesNow: () => true, forOpening: async () => null },
  );
  await app.register(openingRecorder);
  await app.register(authPlugin);
  await app.register(backgroundTasks, {
    syncAtStart: deps.syncDirectoryAtStart ?? false,
    runDeliveries: deps.runDeliveries ?? false,
    ...(deps.tasks ? { runner: deps.tasks } : {}),
  });

  // The docs are public so they can be read before signing in; they describe, they do not answer data.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs')) route.config = { ...(route.config as object), public: true };
    // ...and the document says which routes need no token (the default it declares is the bearer token).
    if (route.config?.public && route.schema) {
      route.schema = { ...route.schema, security: [] };
    }
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Painéis — API',
        description:
          'API do portal de painéis Power BI. Toda rota, exceto as públicas, exige um token de sessão (Bearer).',
        version: '1.0.0',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // Its own policy, with ours: no upgrade-insecure-requests, frame-ancestors 'none' (security-headers.ts).
    transformStaticCSP: docsContentSecurityPolicy,
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });

  await app.register(healthRoutes);
  await app.register(
    async (api) => {
      for (const { plugin, prefix } of apiModules) await api.register(plugin, { prefix });
    },
    { prefix: '/api' },
  );
  await app.register(webApp, { distDir: config.webDistDir });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
