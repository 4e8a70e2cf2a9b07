import fp from 'fastify-plugin';
import type { SyncResult } from '@paineis/contract/users';
import { purgeAudit } from '../modules/audit/audit.ts';
import { purgeStaleSignInRecords } from '../modules/auth/sessions.ts';
import { purgeOldExports } from '../modules/exports/exports.ts';
import { readFreshness, readWatchedFreshness } from '../modules/power-bi/freshness.ts';
import { checkHealth } from '../modules/power-bi/panel-health.ts';
import { readRefreshSchedules } from '../modules/power-bi/refresh-schedules.ts';
import { reconcileAlerts } from '../modules/subscriptions/alerts.ts';
import { panelsAwaitingRefresh, purgeExpiredSubscriptionFiles } from '../modules/subscriptions/deliveries.ts';
import { purgeSendNowCounts } from '../modules/subscriptions/subscriptions.ts';
import { purgeOldViews } from '../modules/usage/usage.ts';
import { DirectorySync } from '../modules/users/directory-sync.ts';
import { DatabaseTaskClaims } from '../tasks/task-claims.repository.ts';
import { TaskRunner, type TaskRunnerOptions, type TaskScope } from '../tasks/task-runner.ts';

const MINUTE = 60_000;

/** A run's panels: undefined for every panel, else the ids asked for (a panel created or pointed at another report). */
const panelsOf = (scope: TaskScope): ReadonlySet<number> | undefined =>
  scope.full ? undefined : new Set([...scope.targets].map(Number));

/**
 * Every background task, in one list, on one runner (tasks/task-runner.ts, docs/decisions/021-background-tasks.md):
 *
 * | task           | every                             | at start                 | runs on        |
 * | -------------- | --------------------------------- | ------------------------ | -------------- |
 * | 'diretorio'    | GRAPH_SYNC_INTERVAL_MINUTES       | with syncAtStart         | one instance   |
 * | 'atualizacoes' | POWER_BI_REFRESH_INTERVAL_MINUTES | 2 s in, with syncAtStart | one instance   |
 * | 'saude'        | POWER_BI_HEALTH_INTERVAL_MINUTES  | 2 s in, with syncAtStart | one instance   |
 * | 'limpeza'      | an hour                           | always                   | one instance   |
 * | 'envios'       | SUBSCRIPTION_POLL_SECONDS         | no                       | every instance |
 * | 'capacidade'   | a minute                          | 5 s in                   | one instance   |
 * | 'agendamentos' | an hour                           | 10 s, with syncAtStart   | one instance   |
 * | 'assinaturas-atualizacao' | SUBSCRIPTION_REFRESH_WATCH_MINUTES | no             | one instance   |
 *
 * 'limpeza' purges expired revocations and old sign-in attempts, views and audit records past their retention
 * (anonymising older views), export jobs older than a day, subscription files past their expiry and the 'Enviar agora'
 * counted that left their window. 'envios' runs on
 * every instance because each delivery is claimed on its own (docs/decisions/020-subscription-deliveries.md), and only
 * with runDeliveries. The Microsoft tasks exist only with the Microsoft configuration. The timers start when the app
 * is ready, when it runs background work at all (syncAtStart or runDeliveries, which server.ts sets), and do not keep
 * the process alive; requests are served either way; the app's close waits for the runs under way.
 */
export default fp<{ syncAtStart: boolean; runDeliveries: boolean; runner?: Omit<TaskRunnerOptions, 'claims' | 'log'> }>(
  async (app, { syncAtStart, runDeliveries, runner: options }) => {
    const tasks = new TaskRunner({ claims: new DatabaseTaskClaims(app.db), log: app.log, ...options });
    app.decorate('tasks', tasks);
    const { config } = app;
    const atStart = (ms: number) => (syncAtStart ? ms : null);

    const graph = app.graph;
    const sync =
      graph && config.microsoft
        ? new DirectorySync(app.database, graph, app.log, {
            appId: config.microsoft.clientId,
            users: config.adminUsers,
          })
        : null;
    app.decorate(
      'directorySync',
      sync &&
        tasks.define<SyncResult>({
          name: 'diretorio',
          claim: 'cluster',
          everyMs: config.graphSyncIntervalMinutes * MINUTE,
          firstAfterMs: atStart(0),
          run: () => sync.sync(),
        }),
    );

    const client = app.powerBi;
    // While the capacity is paused (or waking, or scaling) the Power BI rounds wait for the next: nothing refreshes
    // then, and what Power BI answers of a paused capacity's reports says nothing of the panels.
    const capacityPaused = async () => app.capacity !== null && !(await app.capacity.isRunning());
    // What the alerts' reconciliations after each round need: the round's stop ends their waits (modules/subscriptions).
    const alertDeps = (signal: AbortSignal) => ({ db: app.db, mail: app.mail, config, log: app.log, signal });
    app.decorate(
      'freshness',
      client &&
        tasks.define<void>({
          name: 'atualizacoes',
          claim: 'cluster',
          everyMs: config.powerBi.refreshIntervalMinutes * MINUTE,
          firstAfterMs: atStart(2_000),
          run: async (scope, signal) => {
            if (await capacityPaused()) return;
            await readFreshness(app.db, client, app.log, panelsOf(scope));
            // A refresh found: its subscriptions sent after each refresh are queued now, not at the next poll.
            app.deliveries.wake();
            // Failed refreshes and their recoveries, told to the alerts' recipients (docs/requirements.md#alerts).
            await reconcileAlerts(alertDeps(signal), 'falha-atualizacao');
            // Panels created or pointed at another report: their datasets' refresh schedules now, not within the hour.
            if (!scope.full) app.refreshSchedules?.trigger();
          },
        }),
    );
    // The datasets a subscription sent after each refresh waits on, read more often than the round over every panel
    // (docs/requirements.md#subscriptions-after-refresh): their refresh history alone, one call per dataset.
    if (client) {
      tasks.define<void>({
        name: 'assinaturas-atualizacao',
        claim: 'cluster',
        everyMs: config.subscriptions.refreshWatchMinutes * MINUTE,
        firstAfterMs: null,
        run: async (_scope, signal) => {
          if (await capacityPaused()) return;
          const watched = new Set(await panelsAwaitingRefresh(app.db));
          if ((await readWatchedFreshness(app.db, client, app.log, watched)) === 0) return;
          app.deliveries.wake();
          // A failure of a watched dataset is told as soon as it is read, too.
          await reconcileAlerts(alertDeps(signal), 'falha-atualizacao');
        },
      });
    }
    app.decorate(
      'panelHealth',
      client &&
        tasks.define<void>({
          name: 'saude',
          claim: 'cluster',
          everyMs: config.powerBi.healthIntervalMinutes * MINUTE,
          firstAfterMs: atStart(2_000),
          run: async (scope, signal) => {
            if (await capacityPaused()) return;
            await checkHealth(app.db, client, app.log, panelsOf(scope));
            await reconcileAlerts(alertDeps(signal), 'painel-indisponivel');
          },
        }),
    );

    const { usage } = config;
    tasks.define<void>({
      name: 'limpeza',
      claim: 'cluster',
      everyMs: 60 * MINUTE,
      firstAfterMs: 0,
      run: async () => {
        await Promise.all([
          purgeStaleSignInRecords(app.db),
          purgeOldViews(app.db, usage),
          purgeAudit(app.db, usage.auditRetentionDays),
          purgeOldExports(app.db),
          purgeExpiredSubscriptionFiles(app.db),
          purgeSendNowCounts(app.db, config),
        ]);
      },
    });

    // The capacity's rule (modules/capacity/capacity.ts): working hours, the idle pause, changes made outside.
    const capacity = app.capacity;
    if (capacity) {
      tasks.define<void>({
        name: 'capacidade',
        claim: 'cluster',
        everyMs: MINUTE,
        firstAfterMs: 5_000,
        run: () => capacity.tick(),
      });
    }

    // The panels' datasets' refresh schedules, which the capacity's rule wakes the capacity for: only with both. Read
    // while the capacity is paused too (they are the service's metadata, and the night's refreshes need them), after
    // the first freshness round has found the panels' datasets.
    app.decorate(
      'refreshSchedules',
      capacity && client
        ? tasks.define<void>({
            name: 'agendamentos',
            claim: 'cluster',
            everyMs: 60 * MINUTE,
            firstAfterMs: atStart(10_000),
            run: () => readRefreshSchedules(app.db, client, app.log),
          })
        : null,
    );

    if (runDeliveries) app.deliveries.pollOn(tasks);

    // The timers run where the app is asked for background work (server.ts); elsewhere (tests) runs are on demand.
    if (syncAtStart || runDeliveries) app.addHook('onReady', async () => tasks.start());
    app.addHook('onClose', async () => tasks.stop());
  },
  { name: 'background-tasks', dependencies: ['database'] },
);
