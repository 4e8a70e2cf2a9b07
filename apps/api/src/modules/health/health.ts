import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { pingDatabase } from './health.repository.ts';

/** Whether the database answers, in the words of '/readyz'; a failure is logged, its detail kept out of the answer. */
export async function readiness(db: Db, log: FastifyBaseLogger): Promise<{ ready: boolean; status: string }> {
  try {
    await pingDatabase(db);
    return { ready: true, status: 'ok' };
  } catch (error) {
    log.error({ err: error }, 'banco de dados indisponível');
    return { ready: false, status: 'banco de dados indisponível' };
  }
}
