import { createTransport } from 'nodemailer';
import { DELIVERY_HEADER, MailError, type MailTransport, type OutgoingMail } from './mail-transport.ts';

/** A few connections serve every message: a thousand deliveries due at once open three, not a thousand. */
const MAX_CONNECTIONS = 3;

/** Failures without an SMTP reply that trying again may cure: no connection, a dropped one, a timeout, TLS, DNS. */
const CONNECTION_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ETLS',
  'EPROXY',
  'EMAXLIMIT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * Messages through an SMTP server (SMTP_URL: smtp:// or smtps://, the credentials in the URL) with nodemailer's
 * pooled transport, from MAIL_FROM. `messageId` is the message's Message-ID.
 */
export class SmtpTransport implements MailTransport {
  readonly kind = 'smtp';
  readonly limits = null;
  /** The mail server says what it takes (a 552 for too large), after the file's own limit (maxAttachmentBytes). */
  readonly maxRequestBytes = null;
  private readonly transporter;

  constructor(
    url: string,
    private readonly from: string,
    readonly maxAttachmentBytes: number,
  ) {
    this.transporter = createTransport({
      url,
      pool: true,
      maxConnections: MAX_CONNECTIONS,
      // A message whose connection closed under it goes once more on a fresh one (an idle connection the server
      // dropped); more would risk sending again what the server may have taken: the deliveries retry instead.
      maxRequeues: 1,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
  }

  /** The message as SMTP carries it, roughly: the file in base64 and the text twice (HTML and plain). */
  requestBytes(mail: OutgoingMail): number {
    const file = mail.attachment ? Math.ceil(mail.attachment.content.length / 3) * 4 : 0;
    return file + Buffer.byteLength(mail.html) + Buffer.byteLength(mail.text);
  }

  async send(mail: OutgoingMail): Promise<{ messageId: string | null }> {
    try {
      const info = await this.transporter.sendMail({
        from: this.from,
        to: { name: mail.to.name, address: mail.to.address },
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        headers: { [DELIVERY_HEADER]: mail.deliveryKey },
        attachments: mail.attachment
          ? [
              {
                filename: mail.attachment.filename,
                contentType: mail.attachment.contentType,
                content: mail.attachment.content,
              },
            ]
          : [],
      });
      return { messageId: info.messageId || null };
    } catch (error) {
      throw smtpFailure(error);
    }
  }

  async close(): Promise<void> {
    this.transporter.close();
  }
}

/**
 * A failed send as a MailError. With the server's reply, RFC 5321 decides: 4yz transient, 5yz permanent, but for
 * 503 (commands out of sequence: the session's state, not the message, was refused). Without one, connection
 * troubles and timeouts are transient; anything else (a refused login, an address nodemailer cannot use) is not.
 */
export function smtpFailure(error: unknown): MailError {
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  const message = error instanceof Error ? error.message : String(error);
  // Never the URL's credentials, should a message ever carry the URL.
  const text = `Servidor SMTP: ${message}`.replace(/\/\/[^/@\s]*@/g, '//');
  if (typeof responseCode === 'number' && responseCode >= 400 && responseCode < 600) {
    return new MailError(text, responseCode < 500 || responseCode === 503, responseCode);
  }
  return new MailError(text, typeof code === 'string' && CONNECTION_CODES.has(code));
}
