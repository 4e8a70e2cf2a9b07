import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkExchange } from '@paineis/microsoft-api/check-exchange';
import { REDACTED } from '@paineis/microsoft-api/exchange';
import { microsoftConfig, person, useStandIns } from '../../../test/microsoft.ts';
import { outgoingMail as mail, REPORT_PDF as PDF } from '../../../test/outgoing-mail.ts';
import { EntraClient } from '../microsoft-identity/entra-client.ts';
import { GraphClient } from '../microsoft-graph/graph-client.ts';
import { createMailTransport } from './create-mail-transport.ts';
import { DELIVERY_HEADER, MailError, type MailTransport } from './mail-transport.ts';

/**
 * The Graph transport: the portal's real Entra and Graph clients against the Graph stand-in's sendMail, each
 * exchange checked against Microsoft's description of the call (@paineis/microsoft-api/graph-mail).
 */

const SENDER = 'paineis@empresa.com.br';

describe('Graph mail transport', () => {
  const standIns = useStandIns({
    people: [person('ana', 'Ana Souza'), person('paineis', 'Painéis')],
    // An application id as Entra issues them (a GUID), so that the token calls' own checks pass.
    clientId: '6731de76-14a6-49ae-97bc-6eba6914391e',
    recordExchanges: true,
  });
  const waits: number[] = [];
  let transport: MailTransport;

  /** The transport MAIL_SENDER configures, its Graph client's waits recorded rather than waited. */
  function transportFrom(sender: string): MailTransport {
    const config = microsoftConfig(standIns.current, { MAIL_SENDER: sender });
    const entra = new EntraClient(config.microsoft!);
    const graph = new GraphClient(config.microsoft!.graphUrl, entra, {
      timeoutMs: 1000,
      sleep: async (ms) => void waits.push(ms),
    });
    return createMailTransport(config.mail, { graph })!;
  }
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e,
    );
  const sendMailCalls = () => standIns.current.exchanges.filter((e) => e.url.endsWith('/sendMail'));

  beforeAll(() => {
    transport = transportFrom(SENDER);
  });
  beforeEach(() => {
    standIns.current.graph.reset();
    standIns.current.identity.reset();
    standIns.current.clearExchanges();
    waits.length = 0;
  });

  it('posts sendMail as Microsoft documents it, and the stand-in keeps the message with its file', async () => {
    expect(transport).toMatchObject({ kind: 'graph', maxAttachmentBytes: 3_000_000 });
    expect(await transport.send(mail())).toEqual({ messageId: null });

    const [call, ...more] = sendMailCalls();
    expect(more).toEqual([]);
    expect(call).toMatchObject({
      method: 'POST',
      url: '/v1.0/users/paineis%40empresa.com.br/sendMail',
      request: { headers: { authorization: `Bearer ${REDACTED}`, 'content-type': 'application/json' } },
      answer: { status: 202, bytes: 0 },
    });
    expect(call!.request.body).toEqual({
      message: {
        subject: 'Vendas — 27/11/2026',
        body: { contentType: 'HTML', content: '<p>Olá, Ana. Segue o painel <b>Vendas</b>.</p>' },
        toRecipients: [{ emailAddress: { address: 'ana@empresa.com.br', name: 'Ana Souza' } }],
        attachments: [
          {
            '@odata.type': '#microsoft.graph.fileAttachment',
            name: 'Vendas.pdf',
            contentType: 'application/pdf',
            contentBytes: PDF.toString('base64'),
          },
        ],
        internetMessageHeaders: [{ name: DELIVERY_HEADER, value: 'envio-1/usuario-1' }],
      },
      saveToSentItems: false,
    });
    // Every call (the token's too) as Microsoft describes it.
    expect(standIns.current.exchanges.flatMap((e) => checkExchange(e))).toEqual([]);

    const [sent] = standIns.current.graph.sentMail();
    expect(sent).toMatchObject({
      from: SENDER,
      to: [{ address: 'ana@empresa.com.br', name: 'Ana Souza' }],
      headers: { [DELIVERY_HEADER]: 'envio-1/usuario-1' },
      attachments: [{ name: 'Vendas.pdf', contentType: 'application/pdf' }],
    });
    expect(sent!.attachments[0]!.content.equals(PDF)).toBe(true);
  });

  it('sends a message without a file when there is none', async () => {
    await transport.send(mail({ attachment: undefined }));
    expect(standIns.current.graph.sentMail()[0]!.attachments).toEqual([]);
    expect(standIns.current.exchanges.flatMap((e) => checkExchange(e))).toEqual([]);
  });

  it('hands a 429 back at once with its Retry-After: the deliveries wait it out for every instance', async () => {
    standIns.current.graph.throttleNext(2);
    const error = await failure(transport.send(mail()));
    expect(error).toBeInstanceOf(MailError);
    expect(error).toMatchObject({ transient: true, status: 429, throttled: true, retryAfterSeconds: 2 });
    // Not retried here: a second request inside the Retry-After would only be throttled again.
    expect(waits).toEqual([]);
    expect(sendMailCalls()).toHaveLength(1);
    expect(standIns.current.graph.sentMail()).toEqual([]);
  });

  it('fits a file of at most 3,000,000 bytes, and no request over 4,000,000 bytes, as the stand-in refuses it', async () => {
    expect(transport).toMatchObject({ maxAttachmentBytes: 3_000_000, maxRequestBytes: 4_000_000 });
    const withFile = (bytes: number) =>
      mail({ attachment: { filename: 'Vendas.pdf', contentType: 'application/pdf', content: Buffer.alloc(bytes, 7) } });
    // 2,990,000 bytes are 3,986,668 in base64: with the message around them, still under 4,000,000.
    const under = withFile(2_990_000);
    expect(transport.requestBytes(under)).toBeLessThanOrEqual(4_000_000);
    await transport.send(under);
    // 3,000,000 bytes are 4,000,000 in base64, and the request is larger: a link goes instead.
    const over = withFile(3_000_000);
    expect(transport.requestBytes(over)).toBeGreaterThan(4_000_000);
    expect(await failure(transport.send(over))).toMatchObject({ status: 413, tooLarge: true });
    expect(standIns.current.graph.sentMail()).toHaveLength(1);
  });

  it('fails transiently on Graph’s own errors, and does not try again an attempt that timed out', async () => {
    standIns.current.graph.failNext(503, 4);
    expect(await failure(transport.send(mail()))).toMatchObject({ transient: true, status: 503 });

    standIns.current.clearExchanges();
    standIns.current.graph.hangNext(1);
    const error = await failure(transport.send(mail()));
    expect(error).toMatchObject({ transient: true });
    // Graph may have taken the message before the time ran out: the deliveries decide, not a blind second send.
    expect(standIns.current.graph.requests.filter((r) => r.url.endsWith('/sendMail'))).toHaveLength(4 + 1);
    expect(standIns.current.graph.sentMail()).toEqual([]);
  });

  it('fails permanently when Graph refuses: a sender outside the application’s scope, an unknown mailbox', async () => {
    standIns.current.graph.restrictMailSenders(['outro@empresa.com.br']);
    const denied = await failure(transport.send(mail()));
    expect(denied).toMatchObject({ transient: false, status: 403 });
    expect((denied as Error).message).toMatch(/^Microsoft Graph respondeu 403: .*\(ErrorAccessDenied\)$/);

    const unknown = await failure(transportFrom('ninguem@empresa.com.br').send(mail()));
    expect(unknown).toMatchObject({ transient: false, status: 404 });
    expect((unknown as Error).message).toContain('ErrorInvalidUser');
    expect(standIns.current.graph.sentMail()).toEqual([]);
  });

  it('fails transiently when no Graph token can be had for now, permanently when Entra refuses the app', async () => {
    standIns.current.identity.token.failNext(503, 3);
    const unavailable = await failure(transportFrom(SENDER).send(mail()));
    expect(unavailable).toMatchObject({ transient: true });
    standIns.current.identity.reset();

    standIns.current.identity.token.failNext(400);
    const refused = await failure(transportFrom(SENDER).send(mail()));
    expect(refused).toMatchObject({ transient: false });
    expect(standIns.current.graph.sentMail()).toEqual([]);
  });
});
