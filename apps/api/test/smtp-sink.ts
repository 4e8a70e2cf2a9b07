import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { DELIVERY_HEADER } from '../src/integrations/mail/mail-transport.ts';

/** A message the sink received in full (and answered 250): its envelope and its delivery header. */
export interface SunkMessage {
  /** The X-Paineis-Envio header (`{envioId}/{usuarioId}`), or null when the message had none. */
  deliveryKey: string | null;
  /** The envelope's MAIL FROM. */
  from: string;
  /** The envelope's RCPT TO addresses. */
  to: string[];
  bytes: number;
}

/** A real SMTP server (the `smtp-server` library) on loopback that accepts every message and keeps its envelope. */
export interface SmtpSink {
  /** smtp://127.0.0.1:{port}, for SMTP_URL. */
  url: string;
  /** Every message received in full, in order (a message cut off by a dying client is not one). */
  readonly messages: SunkMessage[];
  /** Called for each message as it is accepted. */
  onMessage(listener: (message: SunkMessage) => void): void;
  close(): Promise<void>;
}

const headerName = DELIVERY_HEADER.toLowerCase();

/** The delivery header of a message's header block (folded lines unfolded, as RFC 5322 allows). */
function deliveryKeyOf(head: string): string | null {
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === headerName) return line.slice(colon + 1).trim();
  }
  return null;
}

/**
 * Starts the sink. Plain SMTP without authentication or STARTTLS (loopback only): what is measured and counted is
 * the portal's sending, not TLS. Only the header block is read; the body (the attachment) is drained.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SunkMessage[] = [];
  const listeners: ((message: SunkMessage) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Many messages at once from two instances: no cap below what they open.
    maxClients: 1_000,
    onData(stream, session, callback) {
      let head = '';
      let inHead = true;
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (!inHead) return;
        head += chunk.toString('latin1');
        const end = head.search(/\r?\n\r?\n/);
        if (end >= 0) {
          head = head.slice(0, end);
          inHead = false;
        }
      });
      // A client that dies mid-message: the stream is destroyed with this error; the message is not counted.
      stream.on('error', () => undefined);
      stream.on('end', () => {
        const message: SunkMessage = {
          deliveryKey: deliveryKeyOf(head),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          bytes,
        };
        messages.push(message);
        for (const listener of listeners) listener(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    onMessage: (listener) => void listeners.push(listener),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** How many times each delivery header was received: the duplicates are the keys counted more than once. */
export function countByDeliveryKey(messages: readonly SunkMessage[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { deliveryKey } of messages) {
    if (deliveryKey) counts.set(deliveryKey, (counts.get(deliveryKey) ?? 0) + 1);
  }
  return counts;
}
