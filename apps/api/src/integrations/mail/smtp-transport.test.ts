import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/context.ts';
import { outgoingMail, REPORT_PDF as PDF } from '../../../test/outgoing-mail.ts';
import { createMailTransport } from './create-mail-transport.ts';
import { DELIVERY_HEADER, MailError, type MailTransport, type OutgoingMail } from './mail-transport.ts';

/**
 * The SMTP transport against a real SMTP server started here (smtp-server, in process), read back with mailparser:
 * what a mailbox receives, and how the server's refusals and a missing server come out.
 */

const USER = 'paineis';
const PASSWORD = 'senha-do-smtp';

interface Received {
  envelopeFrom: string;
  envelopeTo: string[];
  parsed: ParsedMail;
}

/** The shared test e-mail sent to `to`: the SMTP server's answer depends on the mailbox. */
const mail = (to: string, extra: Partial<OutgoingMail> = {}): OutgoingMail =>
  outgoingMail({ to: { address: to, name: 'Ana Souza' }, ...extra });

describe('SMTP transport', () => {
  const received: Received[] = [];
  let sessions = 0;
  let server: SMTPServer;
  let port: number;
  let transport: MailTransport;

  beforeAll(async () => {
    server = new SMTPServer({
      // Plain SMTP on loopback: no STARTTLS to negotiate, so the login may go in the clear.
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onConnect(_session, callback) {
        sessions++;
        callback();
      },
      onAuth(auth, _session, callback) {
        if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
        else callback(Object.assign(new Error('Credenciais inválidas'), { responseCode: 535 }));
      },
      onRcptTo(address, _session, callback) {
        // The mailbox's name says how the server answers it.
        if (address.address.startsWith('ocupada')) {
          callback(Object.assign(new Error('Caixa ocupada, tente mais tarde'), { responseCode: 451 }));
        } else if (address.address.startsWith('inexistente')) {
          callback(Object.assign(new Error('Caixa inexistente'), { responseCode: 550 }));
        } else callback();
      },
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((parsed) => {
            received.push({
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              parsed,
            });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
    const config = testConfig({
      SMTP_URL: `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`,
      MAIL_FROM: 'Painéis <paineis@empresa.com.br>',
    });
    transport = createMailTransport(config.mail, { graph: null })!;
  });
  afterEach(() => {
    received.length = 0;
  });
  afterAll(async () => {
    await transport?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('hands the message to the server, logged in with the URL’s credentials: header, html, text and the file', async () => {
    expect(transport.kind).toBe('smtp');
    const { messageId } = await transport.send(mail('ana.souza@empresa.com.br'));

    expect(received).toHaveLength(1);
    const [{ envelopeFrom, envelopeTo, parsed }] = received as [Received];
    expect(envelopeFrom).toBe('paineis@empresa.com.br');
    expect(envelopeTo).toEqual(['ana.souza@empresa.com.br']);
    expect(parsed.messageId).toBe(messageId);
    expect(parsed.from?.value).toEqual([{ address: 'paineis@empresa.com.br', name: 'Painéis' }]);
    expect(parsed.subject).toBe('Vendas — 27/11/2026');
    expect(parsed.headers.get(DELIVERY_HEADER.toLowerCase())).toBe('envio-1/usuario-1');
    expect(parsed.html).toBe('<p>Olá, Ana. Segue o painel <b>Vendas</b>.</p>');
    expect(parsed.text?.trim()).toBe('Olá, Ana. Segue o painel Vendas.');
    expect(parsed.attachments).toHaveLength(1);
    const [file] = parsed.attachments;
    expect(file).toMatchObject({ filename: 'Vendas.pdf', contentType: 'application/pdf' });
    expect(file!.content.equals(PDF)).toBe(true);
  });

  it('sends a message without a file when there is none (a link instead)', async () => {
    await transport.send(mail('ana.souza@empresa.com.br', { attachment: undefined }));
    expect(received[0]!.parsed.attachments).toEqual([]);
  });

  it('sends many messages over a few pooled connections', async () => {
    const before = sessions;
    const addresses = Array.from({ length: 30 }, (_, i) => `pessoa${i}@empresa.com.br`);
    await Promise.all(addresses.map((to, i) => transport.send(mail(to, { deliveryKey: `envio-2/${i}` }))));
    expect(received.map((r) => r.parsed.headers.get('x-paineis-envio')).sort()).toEqual(
      addresses.map((_, i) => `envio-2/${i}`).sort(),
    );
    expect(sessions - before).toBeGreaterThan(0);
    expect(sessions - before).toBeLessThanOrEqual(3);
  });

  it('reports a 4xx reply as transient and a 5xx as permanent, with the reply', async () => {
    const busy = await transport.send(mail('ocupada@empresa.com.br')).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(MailError);
    expect(busy).toMatchObject({ transient: true, status: 451 });
    expect((busy as MailError).message).toMatch(/^Servidor SMTP: .*Caixa ocupada/);

    const unknown = await transport.send(mail('inexistente@empresa.com.br')).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(MailError);
    expect(unknown).toMatchObject({ transient: false, status: 550 });
    expect(received).toEqual([]);
  });

  it('reports refused credentials as permanent, without the password', async () => {
    const config = testConfig({
      SMTP_URL: `smtp://${USER}:errada@127.0.0.1:${port}`,
      MAIL_FROM: 'paineis@empresa.com.br',
    });
    const wrong = createMailTransport(config.mail, { graph: null })!;
    try {
      const error = await wrong.send(mail('ana.souza@empresa.com.br')).catch((e: unknown) => e);
      expect(error).toMatchObject({ transient: false, status: 535 });
      expect((error as Error).message).not.toContain('errada');
    } finally {
      await wrong.close();
    }
  });

  it('reports a server out of reach as transient', async () => {
    // A port just freed: nothing listens there.
    const probe = new SMTPServer({ logger: false });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const freePort = (probe.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const config = testConfig({ SMTP_URL: `smtp://127.0.0.1:${freePort}`, MAIL_FROM: 'paineis@empresa.com.br' });
    const away = createMailTransport(config.mail, { graph: null })!;
    try {
      const error = await away.send(mail('ana.souza@empresa.com.br')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MailError);
      expect(error).toMatchObject({ transient: true });
    } finally {
      await away.close();
    }
  });
});
