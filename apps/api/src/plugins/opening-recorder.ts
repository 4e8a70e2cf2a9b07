import fp from 'fastify-plugin';
import { OpeningRecorder } from '../modules/usage/usage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Records each opening of a panel in the background (modules/usage/opening-recorder.ts). */
    openingRecorder: OpeningRecorder;
  }
}

/** Registered after the database, so its onClose (writing what is queued) runs before the database closes. */
export default fp(
  async (app) => {
    const recorder = new OpeningRecorder(app.db, app.log);
    app.decorate('openingRecorder', recorder);
    app.addHook('onClose', async () => {
      await recorder.close();
    });
  },
  { name: 'opening-recorder', dependencies: ['database'] },
);
