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

export interface MailTransport {
  readonly kind: 'smtp' | 'graph';
  /** Files larger than this go as a download link instead of an attachment. */
  readonly maxAttachmentBytes: number;
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
  ) {
    super(message);
    this.name = 'MailError';
  }
}

export const DELIVERY_HEADER = 'X-Paineis-Envio';
