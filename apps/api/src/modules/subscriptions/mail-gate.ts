import pLimit, { type LimitFunction } from 'p-limit';
import type { Db } from '../../db/client.ts';
import {
  MailError,
  type MailTransport,
  type OutgoingMail,
  type SenderLimits,
} from '../../integrations/mail/mail-transport.ts';
import { pauseMailbox, releaseMailPlace, takeMailPlace, type MailPlace } from './mail-gate.repository.ts';

/** How often a request waiting for a place looks again, for places other instances release. */
const LOOK_AGAIN_MS = 100;
/** A 429 without Retry-After waits this long. */
const DEFAULT_RETRY_AFTER_SECONDS = 5;
/**
 * How long a place stays taken by an instance that died holding it: longer than a sendMail may take (a minute per
 * attempt and two minutes in all: graph-client.ts).
 */
const PLACE_LEASE_MS = 180_000;

export interface MailGateDeps {
  db: Db;
  instanceId: string;
  /** How to wait (tests shorten it); ends early when `signal` aborts. */
  wait: (ms: number, signal: AbortSignal) => Promise<void>;
  signal: AbortSignal;
}

/**
 * Outlook's limits on the portal's sendMail (docs/decisions/016-microsoft-contract-tests.md), kept by every instance
 * together through the database: at most `concurrency` requests in flight for the mailbox, no more bytes and requests
 * in a window than Microsoft allows, and after a 429 no request from any instance before its Retry-After. A 429 is
 * waited out and the message sent again: Graph did not take it, and the delivery's attempts are not spent on it.
 */
export class MailGate {
  /** This instance's own requests wait here first: no more of them ask the database for a place than there are. */
  private readonly local: LimitFunction;
  /** Wakes this instance's waiters when it releases a place, rather than at their next look. */
  private released: (() => void) | null = null;

  constructor(
    private readonly deps: MailGateDeps,
    private readonly limits: SenderLimits,
  ) {
    this.local = pLimit(limits.concurrency);
  }

  /**
   * `mail` handed to `transport` within the limits; `held` throws when the delivery is no longer this instance's (its
   * lease lapsed, or it is stopping), so that nothing is sent for a delivery another instance took. `clock` is the
   * deliveries' own; `bytes`, the request's size (MailTransport.requestBytes), measured once by the caller.
   */
  send(
    transport: MailTransport,
    mail: OutgoingMail,
    { held, clock, bytes }: { held: () => void; clock: () => Date; bytes: number },
  ): Promise<{ messageId: string | null }> {
    return this.local(async () => {
      for (;;) {
        const place = await this.place(bytes, held, clock);
        // Graph read none of a request it refused for its size or throttled: it does not count in the windows.
        let taken = false;
        try {
          held();
          taken = true;
          return await transport.send(mail);
        } catch (error) {
          taken &&= !(error instanceof MailError && (error.throttled || error.tooLarge));
          if (!(error instanceof MailError && error.throttled)) throw error;
          const seconds = error.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
          await pauseMailbox(this.deps.db, this.limits.mailbox, new Date(clock().getTime() + seconds * 1000));
        } finally {
          await releaseMailPlace(this.deps.db, place, this.deps.instanceId, { taken, now: clock() });
          this.wake();
        }
      }
    });
  }

  /** A place among the mailbox's requests in flight, once the windows and any pause allow it. */
  private async place(bytes: number, held: () => void, clock: () => Date): Promise<MailPlace> {
    for (;;) {
      held();
      const answer = await takeMailPlace(this.deps.db, {
        caixa: this.limits.mailbox,
        instance: this.deps.instanceId,
        bytes,
        limits: this.limits,
        leaseMs: PLACE_LEASE_MS,
        now: clock(),
      });
      if ('place' in answer) return answer.place;
      if (answer.waitMs === null) await this.releasedOrAfter(LOOK_AGAIN_MS);
      else await this.deps.wait(answer.waitMs, this.deps.signal);
    }
  }

  private releasedOrAfter(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const previous = this.released;
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.released = () => {
        previous?.();
        done();
      };
    });
  }

  private wake(): void {
    const wake = this.released;
    this.released = null;
    wake?.();
  }
}
