import { MicrosoftError } from '../microsoft-error.ts';
import type { GraphClient } from '../microsoft-graph/graph-client.ts';
import { DELIVERY_HEADER, MailError, type MailTransport, type OutgoingMail } from './mail-transport.ts';

/** Failures worth trying again later: throttling, Microsoft's own errors, no answer (Entra's token call included). */
const TRANSIENT = new Set<MicrosoftError['failure']>(['throttled', 'unavailable', 'timeout', 'unreachable']);

/**
 * Messages through Microsoft Graph's sendMail from the mailbox MAIL_SENDER, with the Graph client's token and
 * retries (graph-client.ts). Graph answers 202 with no id: `messageId` is null.
 */
export class GraphMailTransport implements MailTransport {
  readonly kind = 'graph';

  constructor(
    private readonly graph: GraphClient,
    private readonly sender: string,
    readonly maxAttachmentBytes: number,
  ) {}

  async send(mail: OutgoingMail): Promise<{ messageId: string | null }> {
    try {
      await this.graph.sendMail(this.sender, {
        subject: mail.subject,
        html: mail.html,
        to: mail.to,
        attachments: mail.attachment
          ? [
              {
                name: mail.attachment.filename,
                contentType: mail.attachment.contentType,
                content: mail.attachment.content,
              },
            ]
          : [],
        headers: { [DELIVERY_HEADER]: mail.deliveryKey },
      });
    } catch (error) {
      throw mailErrorOf(error);
    }
    return { messageId: null };
  }

  async close(): Promise<void> {}
}

/** A failed sendMail as a MailError: 429, 5xx and no answer transient; a refusal (4xx) or anything else permanent. */
function mailErrorOf(error: unknown): MailError {
  if (!(error instanceof MicrosoftError)) {
    return new MailError(`Microsoft Graph: ${(error as Error | undefined)?.message ?? String(error)}`, false);
  }
  const code = error.code ? ` (${error.code})` : '';
  return new MailError(`${error.message}${code}`, TRANSIENT.has(error.failure), error.status);
}
