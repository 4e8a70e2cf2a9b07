import fp from 'fastify-plugin';
import { purgeStaleSignInRecords } from '../modules/auth/sessions.ts';

/**
 * Work on a timer: the Graph directory sync (at start and every GRAPH_SYNC_INTERVAL_MINUTES) and the purge
 * of expired revocations and old login attempts. Timers do not keep the process alive; close waits for a
 * sync under way.
 */
export default fp<{ syncAtStart: boolean }>(
  async (app, { syncAtStart }) => {
    const timers: NodeJS.Timeout[] = [];
    const sync = app.directorySync;
    const runSync = () => void sync?.run().catch(() => undefined); // failures are logged by the sync
    const purge = () =>
      void purgeStaleSignInRecords(app.db).catch((err: unknown) => app.log.warn({ err }, 'limpeza periódica falhou'));

    app.addHook('onReady', async () => {
      purge();
      timers.push(setInterval(purge, 60 * 60_000).unref());
      if (sync) {
        if (syncAtStart) runSync();
        const minutes = app.config.graphSyncIntervalMinutes;
        if (minutes > 0) timers.push(setInterval(runSync, minutes * 60_000).unref());
      }
    });
    app.addHook('onClose', async () => {
      timers.forEach(clearInterval);
      await sync?.idle();
    });
  },
  { name: 'background-jobs', dependencies: ['database'] },
);
