import fp from 'fastify-plugin';
import { ViewRecorder } from '../modules/usage/usage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Records each opening of a panel in the background (modules/usage/view-recorder.ts). */
    viewRecorder: ViewRecorder;
  }
}

/** Registered after the database, so its onClose (writing what is queued) runs before the database closes. */
export default fp(
  async (app) => {
    const recorder = new ViewRecorder(app.db, app.log);
    app.decorate('viewRecorder', recorder);
    app.addHook('onClose', async () => {
      await recorder.close();
    });
  },
  { name: 'view-recorder', dependencies: ['database'] },
);
