import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkExchange } from '@paineis/microsoft-api/check-exchange';
import { startStandIns } from './stand-ins.ts';
import { anaSouza, appToken, powerBiToken } from './test-helpers.ts';
import type { StandInPerson, StandIns } from './types.ts';

/**
 * Graph's sendMail in the stand-in: what it accepts (202, kept for the demo's outbox), what it refuses as Graph does,
 * and every exchange against Microsoft's description of the call (@paineis/microsoft-api/graph-mail).
 */

const remetente: StandInPerson = {
  id: '22222222-2222-4222-8222-222222222222',
  displayName: 'Painéis',
  mail: 'paineis@contoso.com.br',
  userPrincipalName: 'paineis@contoso.onmicrosoft.com',
};
const semCaixa: StandInPerson = {
  id: '33333333-3333-4333-8333-333333333333',
  displayName: 'Sem caixa',
  mail: null,
  userPrincipalName: 'sem.caixa@contoso.com.br',
};
const PDF = Buffer.from('%PDF-1.7\n% um relatório\n%%EOF');

const message = (extra: Record<string, unknown> = {}) => ({
  subject: 'Vendas — 27/11/2026',
  body: { contentType: 'HTML', content: '<p>Olá, <b>Ana</b></p>' },
  toRecipients: [{ emailAddress: { address: 'ana.souza@contoso.com.br', name: 'Ana Souza' } }],
  attachments: [
    {
      '@odata.type': '#microsoft.graph.fileAttachment',
      name: 'Vendas.pdf',
      contentType: 'application/pdf',
      contentBytes: PDF.toString('base64'),
    },
  ],
  internetMessageHeaders: [{ name: 'X-Paineis-Envio', value: 'envio-1/usuario-1' }],
  ...extra,
});

/** A sendMail body of exactly `bytes` bytes (its subject filled up). */
function sized(bytes: number) {
  const without = { message: message({ subject: '', attachments: [] }) };
  const subject = 'a'.repeat(bytes - Buffer.byteLength(JSON.stringify(without)));
  return { message: message({ subject, attachments: [] }) };
}

describe('Microsoft Graph stand-in: sendMail', () => {
  let s: StandIns;
  let token: string;

  function sendMail(
    sender: string,
    body: unknown,
    { bearer = token, contentType = 'application/json' }: { bearer?: string | null; contentType?: string } = {},
  ) {
    return fetch(`${s.graphUrl}/v1.0/users/${encodeURIComponent(sender)}/sendMail`, {
      method: 'POST',
      headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), 'content-type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }
  async function refused(response: Response): Promise<{ status: number; code: string }> {
    const body = (await response.json()) as { error: { code: string } };
    return { status: response.status, code: body.error.code };
  }
  /** Every exchange so far, checked against Microsoft's description: the violations as `at: message`. */
  const violations = () =>
    s.exchanges.flatMap((e) => checkExchange(e).map((v) => `${v.exchange} ${v.at}: ${v.message}`));

  beforeAll(async () => {
    // An application id as Entra issues them (a GUID), so that the token calls' own checks pass.
    s = await startStandIns({
      people: [anaSouza(), remetente, semCaixa],
      clientId: '6731de76-14a6-49ae-97bc-6eba6914391e',
      recordExchanges: true,
    });
    token = await appToken(s, 'https://graph.microsoft.com');
  });
  afterAll(() => s.close());
  beforeEach(() => {
    s.graph.reset();
    s.clearExchanges();
  });

  it('accepts a message from a mailbox of the directory with 202 and no body, and keeps it decoded', async () => {
    const response = await sendMail(remetente.userPrincipalName, { message: message(), saveToSentItems: false });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
    expect(response.headers.get('content-type')).toBeNull();

    const [sent, ...more] = s.graph.sentMail();
    expect(more).toEqual([]);
    expect(sent).toMatchObject({
      from: 'paineis@contoso.com.br',
      to: [{ address: 'ana.souza@contoso.com.br', name: 'Ana Souza' }],
      subject: 'Vendas — 27/11/2026',
      body: { contentType: 'HTML', content: '<p>Olá, <b>Ana</b></p>' },
      headers: { 'X-Paineis-Envio': 'envio-1/usuario-1' },
      attachments: [{ name: 'Vendas.pdf', contentType: 'application/pdf' }],
    });
    expect(sent!.attachments[0]!.content.equals(PDF)).toBe(true);
    expect(Date.parse(sent!.receivedAt)).toBeGreaterThan(Date.now() - 60_000);

    // By object id and by mail too.
    expect((await sendMail(remetente.id, { message: message() })).status).toBe(202);
    expect((await sendMail(remetente.mail!, { message: message() })).status).toBe(202);
    expect(s.graph.sentMail()).toHaveLength(3);
    expect(violations()).toEqual([]);
  });

  it('refuses an unknown sender, a user without a mailbox and a mailbox outside the application’s scope', async () => {
    expect(await refused(await sendMail('ninguem@contoso.com.br', { message: message() }))).toEqual({
      status: 404,
      code: 'ErrorInvalidUser',
    });
    expect(await refused(await sendMail(semCaixa.userPrincipalName, { message: message() }))).toEqual({
      status: 404,
      code: 'MailboxNotEnabledForRESTAPI',
    });
    s.graph.restrictMailSenders(['outra@contoso.com.br']);
    expect(await refused(await sendMail(remetente.id, { message: message() }))).toEqual({
      status: 403,
      code: 'ErrorAccessDenied',
    });
    s.graph.restrictMailSenders([remetente.mail!.toUpperCase()]);
    expect((await sendMail(remetente.id, { message: message() })).status).toBe(202);
    expect(s.graph.sentMail()).toHaveLength(1);
    expect(violations()).toEqual([]);
  });

  it('refuses a request without a Graph token, and a token of another resource', async () => {
    expect(await refused(await sendMail(remetente.id, { message: message() }, { bearer: null }))).toEqual({
      status: 401,
      code: 'InvalidAuthenticationToken',
    });
    const powerBi = await powerBiToken(s);
    expect((await sendMail(remetente.id, { message: message() }, { bearer: powerBi })).status).toBe(401);
    expect(s.graph.sentMail()).toEqual([]);
  });

  it('refuses a message Graph would not send, in Graph’s error shape, and keeps none of them', async () => {
    const cases: [unknown, number, string][] = [
      [{ message: message({ toRecipients: [] }) }, 400, 'ErrorInvalidRecipients'],
      [{ message: message({ toRecipients: [{ emailAddress: { address: 'ana' } }] }) }, 400, 'ErrorInvalidRecipients'],
      [{ message: message({ toRecipient: [] }) }, 400, 'RequestBodyRead'],
      [{ message: message(), saveToSentItem: false }, 400, 'RequestBodyRead'],
      [{ message: message({ body: { contentType: 'markdown', content: '#' } }) }, 400, 'RequestBodyRead'],
      [
        { message: message({ internetMessageHeaders: [{ name: 'Paineis-Envio', value: '1' }] }) },
        400,
        'InvalidInternetMessageHeader',
      ],
      [
        { message: message({ attachments: [{ name: 'a.pdf', contentBytes: PDF.toString('base64') }] }) },
        400,
        'RequestBodyRead',
      ],
      [
        {
          message: message({
            attachments: [{ '@odata.type': '#microsoft.graph.fileAttachment', name: 'a.pdf', contentBytes: 'não!' }],
          }),
        },
        400,
        'RequestBodyRead',
      ],
      [{ saveToSentItems: false }, 400, 'ErrorInvalidRequest'],
      ['{"message": ', 400, 'BadRequest'],
    ];
    for (const [body, status, code] of cases) {
      expect(await refused(await sendMail(remetente.id, body)), JSON.stringify(body)).toEqual({ status, code });
    }
    expect(s.graph.sentMail()).toEqual([]);
    // The refusals are Graph's error answers (the requests, being wrong, disagree with the description by design).
    expect(s.exchanges.filter((e) => e.answer.status !== 400)).toEqual([]);
    const answerViolations = s.exchanges.flatMap((e) => checkExchange(e).filter((v) => v.part === 'answer'));
    expect(answerViolations).toEqual([]);
  });

  it('answers 413 to a request over 4 MB, 4,000,000 bytes as Microsoft counts them, and takes one of 4,000,000', async () => {
    const big = Buffer.alloc(3.1 * 1024 * 1024, 7).toString('base64');
    const attachment = { '@odata.type': '#microsoft.graph.fileAttachment', name: 'grande.pdf', contentBytes: big };
    const response = await sendMail(remetente.id, { message: message({ attachments: [attachment] }) });
    expect(await refused(response)).toEqual({ status: 413, code: 'ErrorRequestEntityTooLarge' });
    expect(s.graph.sentMail()).toEqual([]);

    expect(await refused(await sendMail(remetente.id, sized(4_000_001)))).toEqual({
      status: 413,
      code: 'ErrorRequestEntityTooLarge',
    });
    expect((await sendMail(remetente.id, sized(4_000_000))).status).toBe(202);
    expect(s.graph.mailStats()).toMatchObject({ tooLarge: 2, throttled: 0 });
  });

  it('answers 429 ApplicationThrottled with Retry-After to a 5th request in flight for the same application and mailbox', async () => {
    s.graph.setMailLimits({ latencyMs: 400 });
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => sendMail(remetente.id, { message: message({ attachments: [] }) })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([202, 202, 202, 202, 429]);
    const throttled = answers.find((a) => a.status === 429)!;
    expect(throttled.headers.get('retry-after')).toBe('1');
    expect(((await throttled.json()) as { error: unknown }).error).toMatchObject({
      code: 'ApplicationThrottled',
      message: 'Application is over its MailboxConcurrency limit.',
    });
    // The accepted ones took their time, the refusal none.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(s.graph.sentMail()).toHaveLength(4);
    expect(s.graph.mailStats()).toEqual({
      peakConcurrent: 4,
      throttled: 1,
      throttledBy: { concurrency: 1, requestRate: 0, upload: 0 },
      tooLarge: 0,
    });
    // Another mailbox has its own four.
    const other = await Promise.all([
      ...Array.from({ length: 4 }, () => sendMail(remetente.id, { message: message({ attachments: [] }) })),
      sendMail(anaSouza().id, { message: message({ attachments: [] }) }),
    ]);
    expect(other.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    expect(violations()).toEqual([]);
  });

  it('answers 429 past the bytes accepted in the window, with the seconds until enough leave it; refusals use none', async () => {
    // 150 MB in 5 minutes, scaled down: 2,500,000 bytes in 1.5 s.
    s.graph.setMailLimits({ uploadBytesPerWindow: 2_500_000, uploadWindowMs: 1500 });
    const noRecipient = { ...sized(1_000_000), message: { ...sized(1_000_000).message, toRecipients: [] } };
    expect((await sendMail(remetente.id, noRecipient)).status).toBe(400);
    expect((await sendMail(remetente.id, sized(4_000_001))).status).toBe(413);
    expect((await sendMail(remetente.id, sized(1_000_000))).status).toBe(202);
    expect((await sendMail(remetente.id, sized(1_000_000))).status).toBe(202);
    const over = await sendMail(remetente.id, sized(1_000_000));
    expect(over.status).toBe(429);
    const wait = Number(over.headers.get('retry-after'));
    expect([1, 2]).toContain(wait);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe('ApplicationThrottled');
    // A smaller one still fits.
    expect((await sendMail(remetente.id, sized(400_000))).status).toBe(202);

    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    expect((await sendMail(remetente.id, sized(1_000_000))).status).toBe(202);
    expect(s.graph.mailStats()).toMatchObject({ throttled: 1, throttledBy: { upload: 1 }, tooLarge: 1 });
    // The 400 and the 413 were asked for wrong on purpose: their answers, and every other exchange, conform.
    const answers = s.exchanges.flatMap((e) => checkExchange(e).filter((v) => v.part === 'answer'));
    expect(answers).toEqual([]);
    expect(
      s.exchanges.filter((e) => e.answer.status === 202 || e.answer.status === 429).flatMap((e) => checkExchange(e)),
    ).toEqual([]);
  });

  it('answers 429 past the requests of the window, and puts the limits back on reset', async () => {
    s.graph.setMailLimits({ requestsPerWindow: 3, requestsWindowMs: 60_000 });
    for (let i = 0; i < 3; i++) expect((await sendMail(remetente.id, { message: message() })).status).toBe(202);
    const over = await sendMail(remetente.id, { message: message() });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(s.graph.mailStats().throttledBy.requestRate).toBe(1);

    s.graph.resetMailStats();
    expect(s.graph.mailStats()).toMatchObject({ throttled: 0, peakConcurrent: 0 });
    s.graph.reset();
    expect((await sendMail(remetente.id, { message: message() })).status).toBe(202);
    expect(() => s.graph.setMailLimits({ concurrentRequests: 0 })).toThrow();
    expect(() => s.graph.setMailLimits({ latencyMs: -1 })).toThrow();
  });

  it('takes the limits of the options it starts with', async () => {
    const limited = await startStandIns({
      people: [remetente],
      clientId: '6731de76-14a6-49ae-97bc-6eba6914391e',
      mailLimits: { concurrentRequests: 1, latencyMs: 300 },
    });
    try {
      const bearer = await appToken(limited, 'https://graph.microsoft.com');
      const send = () =>
        fetch(`${limited.graphUrl}/v1.0/users/${remetente.id}/sendMail`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify({ message: message() }),
        });
      expect((await Promise.all([send(), send()])).map((a) => a.status).sort()).toEqual([202, 429]);
      limited.graph.reset();
      expect((await Promise.all([send(), send()])).map((a) => a.status).sort()).toEqual([202, 429]);
    } finally {
      await limited.close();
    }
  });

  it('plays the queued faults, sending nothing then', async () => {
    s.graph.throttleNext(3);
    const throttled = await sendMail(remetente.id, { message: message() });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('3');
    s.graph.failNext(503);
    expect((await sendMail(remetente.id, { message: message() })).status).toBe(503);
    expect(s.graph.sentMail()).toEqual([]);
    expect((await sendMail(remetente.id, { message: message() })).status).toBe(202);
    expect(violations()).toEqual([]);
  });

  it('keeps the last 500 messages, oldest first, until cleared', async () => {
    const sends = Array.from({ length: 503 }, (_, i) =>
      sendMail(remetente.id, { message: message({ subject: `Mensagem ${i}`, attachments: [] }) }),
    );
    expect((await Promise.all(sends)).every((r) => r.status === 202)).toBe(true);
    const kept = s.graph.sentMail();
    expect(kept).toHaveLength(500);
    expect(new Set(kept.map((m) => m.subject)).size).toBe(500);
    s.graph.clearSentMail();
    expect(s.graph.sentMail()).toEqual([]);
  }, 30_000);
});
