import fp from 'fastify-plugin';
import { purgeAudit } from '../modules/audit/audit.ts';
import { purgeStaleSignInRecords } from '../modules/auth/sessions.ts';
import { purgeOldExports } from '../modules/exports/exports.ts';
import { purgeExpiredSubscriptionFiles } from '../modules/subscriptions/deliveries.ts';
import { purgeOldViews } from '../modules/usage/usage.ts';

/**
 * Work on a timer: the Graph directory sync (at start and every GRAPH_SYNC_INTERVAL_MINUTES); the rounds over Power BI,
 * each panel's last refresh (every POWER_BI_REFRESH_INTERVAL_MINUTES) and each panel's report (every
 * POWER_BI_HEALTH_INTERVAL_MINUTES), both shortly after start too, one instance a round (docs/requirements.md#power-bi);
 * and, hourly, the purge
 * of expired revocations and old login attempts, of views and audit records past their retention, of export jobs
 * older than a day (docs/requirements.md#personal), of subscription files past their expiry
 * (docs/requirements.md#subscriptions), and the anonymising of older views (docs/requirements.md#usage).
 * Timers do not keep the process alive; close waits for a sync under way.
 */
export default fp<{ syncAtStart: boolean; runDeliveries: boolean }>(
  async (app, { syncAtStart, runDeliveries }) => {
    const timers: NodeJS.Timeout[] = [];
    const sync = app.directorySync;
    const runSync = () => void sync?.run().catch(() => undefined); // failures are logged by the sync
    const { usage } = app.config;
    const powerBiRounds = [
      { round: app.freshness, minutes: app.config.powerBi.refreshIntervalMinutes },
      { round: app.panelHealth, minutes: app.config.powerBi.healthIntervalMinutes },
    ].flatMap(({ round, minutes }) => (round ? [{ round, minutes }] : []));
    const purge = () =>
      void Promise.all([
        purgeStaleSignInRecords(app.db),
        purgeOldViews(app.db, usage),
        purgeAudit(app.db, usage.auditRetentionDays),
        purgeOldExports(app.db),
        purgeExpiredSubscriptionFiles(app.db),
      ]).catch((err: unknown) => app.log.warn({ err }, 'limpeza periódica falhou'));

    app.addHook('onReady', async () => {
      // Subscriptions' deliveries: every instance polls; each delivery is claimed by one (docs/decisions/020).
      if (runDeliveries) app.deliveries.start();
      purge();
      timers.push(setInterval(purge, 60 * 60_000).unref());
      if (sync) {
        if (syncAtStart) runSync();
        const minutes = app.config.graphSyncIntervalMinutes;
        if (minutes > 0) timers.push(setInterval(runSync, minutes * 60_000).unref());
      }
      // Failures are logged by the rounds; an instance that finds a round run elsewhere within its interval skips it.
      for (const { round, minutes } of powerBiRounds) {
        const run = () => void round.run(minutes);
        if (syncAtStart) timers.push(setTimeout(run, 2_000).unref());
        if (minutes > 0) timers.push(setInterval(run, minutes * 60_000).unref());
      }
    });
    app.addHook('onClose', async () => {
      timers.forEach(clearTimeout);
      await Promise.all([app.deliveries.stop(), sync?.idle(), ...powerBiRounds.map(({ round }) => round.idle())]);
    });
  },
  { name: 'background-jobs', dependencies: ['database'] },
);
