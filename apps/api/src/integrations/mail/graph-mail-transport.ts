import type { GraphMailLimits } from '../../config/env.ts';
import { MicrosoftError } from '../microsoft-error.ts';
import { sendMailRequestBytes, type GraphClient, type GraphMailMessage } from '../microsoft-graph/graph-client.ts';
import {
  DELIVERY_HEADER,
  MailError,
  type MailTransport,
  type OutgoingMail,
  type SenderLimits,
} from './mail-transport.ts';

/** Failures worth trying again later: throttling, Microsoft's own errors, no answer (Entra's token call included). */
const TRANSIENT = new Set<MicrosoftError['failure']>(['throttled', 'unavailable', 'timeout', 'unreachable']);

/**
 * The largest request Graph takes: "a limit of 4 MB on the total size of each REST request" (Attach large files to
 * Outlook messages), in decimal megabytes as Microsoft writes them.
 */
export const GRAPH_MAX_REQUEST_BYTES = 4_000_000;

/**
 * Messages through Microsoft Graph's sendMail from the mailbox MAIL_SENDER, with the Graph client's token and
 * retries (graph-client.ts). Graph answers 202 with no id: `messageId` is null.
 */
export class GraphMailTransport implements MailTransport {
  readonly kind = 'graph';

  /** Outlook's limits are per app and mailbox: this sender's. */
  readonly limits: SenderLimits;
  readonly maxRequestBytes = GRAPH_MAX_REQUEST_BYTES;

  constructor(
    private readonly graph: GraphClient,
    private readonly sender: string,
    readonly maxAttachmentBytes: number,
    limits: GraphMailLimits,
  ) {
    this.limits = { ...limits, mailbox: sender.toLowerCase() };
  }

  requestBytes(mail: OutgoingMail): number {
    return sendMailRequestBytes(graphMessage(mail));
  }

  async send(mail: OutgoingMail): Promise<{ messageId: string | null }> {
    try {
      await this.graph.sendMail(this.sender, graphMessage(mail));
    } catch (error) {
      throw mailErrorOf(error);
    }
    return { messageId: null };
  }

  async close(): Promise<void> {}
}

function graphMessage(mail: OutgoingMail): GraphMailMessage {
  return {
    subject: mail.subject,
    html: mail.html,
    to: mail.to,
    attachments: mail.attachment
      ? [{ name: mail.attachment.filename, contentType: mail.attachment.contentType, content: mail.attachment.content }]
      : [],
    headers: { [DELIVERY_HEADER]: mail.deliveryKey },
  };
}

/** A failed sendMail as a MailError: 429, 5xx and no answer transient; a refusal (4xx) or anything else permanent. */
function mailErrorOf(error: unknown): MailError {
  if (!(error instanceof MicrosoftError)) {
    return new MailError(`Microsoft Graph: ${(error as Error | undefined)?.message ?? String(error)}`, false);
  }
  const code = error.code ? ` (${error.code})` : '';
  return new MailError(`${error.message}${code}`, TRANSIENT.has(error.failure), error.status, error.retryAfterSeconds);
}
