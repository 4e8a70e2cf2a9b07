import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import { claimRound, releaseRound, type RoundName } from './background-round.repository.ts';

/** What an admin asking for a round reads on a server without Microsoft configuration. */
export const POWER_BI_NOT_CONFIGURED = 'O Power BI não está configurado neste servidor.';

/** How long a round's claim holds if its instance dies mid-round; a round normally releases it as it ends. */
const LEASE_SECONDS = 30 * 60;

/** At most this many calls to Power BI at once in a round: well within its limits, and a round still ends soon. */
export const CONCURRENT_CALLS = 3;

/**
 * A round of background work over Power BI (the freshness read, the health check), run by one instance at a time
 * across every instance on the database: on a timer, on demand, and never twice at once here. Its failures are
 * logged, never thrown at whoever started it.
 */
export class BackgroundRound {
  private current: Promise<boolean> | null = null;

  constructor(
    private readonly db: Db,
    private readonly name: RoundName,
    private readonly work: () => Promise<void>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Starts a round unless one runs (here or on another instance), and answers when it ends: true when this instance
   * ran it. On the timer, `spacingMinutes` leaves out a round when another instance ran one that recently.
   */
  run(spacingMinutes = 0): Promise<boolean> {
    this.current ??= this.claimAndRun(spacingMinutes).finally(() => {
      this.current = null;
    });
    return this.current;
  }

  /** Waits for the round under way, if any (the app's close). */
  async idle(): Promise<void> {
    await this.current;
  }

  private async claimAndRun(spacingMinutes: number): Promise<boolean> {
    try {
      // A little short of the interval, so that timers of instances started at different moments do not skip a round.
      if (!(await claimRound(this.db, this.name, Math.floor(spacingMinutes * 60 * 0.9), LEASE_SECONDS))) return false;
    } catch (err) {
      this.log.warn({ err, rodada: this.name }, 'rodada do Power BI não pôde começar');
      return false;
    }
    try {
      await this.work();
    } catch (err) {
      this.log.warn({ err, rodada: this.name }, 'rodada do Power BI falhou');
    } finally {
      await releaseRound(this.db, this.name).catch((err: unknown) =>
        this.log.warn({ err, rodada: this.name }, 'rodada do Power BI não liberada'),
      );
    }
    return true;
  }
}

/** Runs `task` over every item, at most `limit` at once. */
export async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** What the log keeps of a failed call to Power BI: its status and code, never a token. */
export function callFailure(error: unknown): Record<string, unknown> {
  if (error instanceof MicrosoftError) {
    return { powerBiStatus: error.status ?? error.failure, powerBiCode: error.code, powerBiRequestId: error.requestId };
  }
  return { err: error };
}
