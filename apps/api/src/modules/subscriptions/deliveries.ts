import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { ReportExporter } from '../../integrations/power-bi/embedding-service.ts';
import type { MailTransport } from '../../integrations/mail/mail-transport.ts';

/** What the deliveries need of the app. */
export interface DeliveryDeps {
  db: Db;
  reportExports: ReportExporter;
  mail: MailTransport | null;
  config: Pick<Config, 'subscriptions' | 'rlsUsername' | 'publicUrl' | 'port'>;
  log: FastifyBaseLogger;
  /** A name for this instance in the jobs' claims (host and pid by default). */
  instanceId?: string;
}

/**
 * The deliveries of subscriptions (docs/decisions/020-subscription-deliveries.md): every instance queues the
 * occurrences that fell due and works the queue, each delivery claimed by one instance at a time.
 */
export class DeliveryWorker {
  constructor(private readonly deps: DeliveryDeps) {}

  /** Starts polling every `subscriptions.pollSeconds` (server.ts; tests call runOnce). */
  start(): void {
    throw new Error('TODO (deliveries helper)');
  }

  /** Queues what is due, then works deliveries until none is available now; resolves when they ended. */
  async runOnce(now = new Date()): Promise<void> {
    void now;
    void this.deps;
    throw new Error('TODO (deliveries helper)');
  }

  /** A delivery was just queued ('Enviar agora'): work the queue soon rather than at the next poll (when started). */
  wake(): void {}

  /** Stops polling and waits for the deliveries under way (the app's close). */
  async stop(): Promise<void> {}
}
