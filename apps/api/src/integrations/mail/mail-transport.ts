import type { GraphMailLimits } from '../../config/env.ts';

/**
 * How the portal's messages leave (docs/requirements.md#subscriptions): SMTP through nodemailer, or Microsoft Graph
 * sendMail from one mailbox. One message per recipient: each carries the file rendered with that person's identity.
 */
export interface OutgoingMail {
  to: { address: string; name: string };
  subject: string;
  html: string;
  text: string;
  attachment?: { filename: string; contentType: string; content: Buffer } | undefined;
  /**
   * `{envioId}/{usuarioId}`: sent as the header X-Paineis-Envio, so that a mailbox (and the durability test) can tell
   * one delivery's message to one person from any other, and count duplicates.
   */
  deliveryKey: string;
}

/** A service's limits on one sending mailbox's requests. */
export interface SenderLimits extends GraphMailLimits {
  /** The mailbox they are counted for (in lower case). */
  mailbox: string;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'graph';
  /** Files larger than this go as a download link instead of an attachment. */
  readonly maxAttachmentBytes: number;
  /**
   * The service's limits on this sender's requests, which every instance keeps to together (Graph's, held in the
   * database by the deliveries); null when the server paces its own clients (SMTP).
   */
  readonly limits: SenderLimits | null;
  /** The bytes of the request that would carry `mail`: what counts against an upload budget. */
  requestBytes(mail: OutgoingMail): number;
  /**
   * The largest request the service takes (requestBytes); a message over it goes with a download link instead of its
   * file. Null when the server says what it takes (SMTP's 552).
   */
  readonly maxRequestBytes: number | null;
  /**
   * Resolves once the mail server (or Graph, with its 202) accepted the message; rejects with MailError otherwise.
   * `messageId` is the server's id when it gives one.
   */
  send(mail: OutgoingMail): Promise<{ messageId: string | null }>;
  close(): Promise<void>;
}

/** A message the transport could not hand over; `transient` when trying again later may succeed. */
export class MailError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
    readonly status?: number,
    /** A throttled request's Retry-After, in seconds. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'MailError';
  }

  /** The service refused the request for its size (413): the message goes again with a link instead of its file. */
  get tooLarge(): boolean {
    return this.status === 413;
  }

  /** The service asked to wait (429): waited out, not counted as a failed attempt. */
  get throttled(): boolean {
    return this.status === 429;
  }
}

export const DELIVERY_HEADER = 'X-Paineis-Envio';
