import type { MailSettings } from '../../config/env.ts';
import type { GraphClient } from '../microsoft-graph/graph-client.ts';
import { GraphMailTransport } from './graph-mail-transport.ts';
import { SmtpTransport } from './smtp-transport.ts';

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

/** The transport the configuration names, or null when none is configured (nothing is sent). */
export function createMailTransport(
  settings: MailSettings | null,
  deps: { graph: GraphClient | null },
): MailTransport | null {
  if (!settings) return null;
  if (settings.kind === 'smtp') return new SmtpTransport(settings.url, settings.from, settings.maxAttachmentBytes);
  // env.ts sets MAIL_SENDER's transport only with the Microsoft configuration that gives app.ts its Graph client.
  if (!deps.graph) throw new Error('MAIL_SENDER: o envio pelo Microsoft Graph exige a configuração Microsoft.');
  return new GraphMailTransport(deps.graph, settings.sender, settings.maxAttachmentBytes);
}
