import fp from 'fastify-plugin';
import type { Database, Db } from '../db/client.ts';
import { startVersionFeed } from '../db/versioned-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    database: Database;
  }
}

/**
 * Exposes the database to routes, and keeps the cached data sets' versions in memory while the app runs (pushed
 * by the database: versioned-cache.ts). Closes the database with the app when the app opened it.
 */
export default fp<{ database: Database; owned: boolean; reconnectDelayMs?: number }>(
  async (app, { database, owned, reconnectDelayMs }) => {
    app.decorate('database', database);
    app.decorate('db', database.db);
    const stopFeed = await startVersionFeed(database, { reconnectDelayMs });
    app.addHook('onClose', async () => {
      await stopFeed();
      if (owned) await database.close();
    });
  },
  { name: 'database' },
);
