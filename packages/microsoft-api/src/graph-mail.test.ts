import { describe, expect, it } from 'vitest';
import { checkExchange, operationOf } from './check-exchange.ts';
import { REDACTED, type Exchange } from './exchange.ts';

/**
 * Graph's user: sendMail as Microsoft Learn describes it. Each failing case breaks one documented thing in an
 * exchange that conforms otherwise, and expects exactly that violation (docs/decisions/016-microsoft-contract-tests.md).
 */

const SENDER = 'paineis@contoso.com.br';
const JSON_TYPE = 'application/json; charset=utf-8';

const message = (extra: Record<string, unknown> = {}) => ({
  subject: 'Vendas — 27/11/2026',
  body: { contentType: 'HTML', content: '<p>Olá</p>' },
  toRecipients: [{ emailAddress: { address: 'ana.souza@contoso.com.br', name: 'Ana Souza' } }],
  attachments: [
    {
      '@odata.type': '#microsoft.graph.fileAttachment',
      name: 'Vendas.pdf',
      contentType: 'application/pdf',
      contentBytes: Buffer.from('%PDF-1.7').toString('base64'),
    },
  ],
  internetMessageHeaders: [{ name: 'X-Paineis-Envio', value: 'e1/u1' }],
  ...extra,
});

function sendMail(
  body: unknown,
  answer: { status: number; body?: unknown } = { status: 202 },
  { url = `/v1.0/users/${SENDER}/sendMail`, contentType = 'application/json' } = {},
): Exchange {
  const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
  return {
    service: 'graph',
    method: 'POST',
    url,
    request: { headers: { authorization: `Bearer ${REDACTED}`, 'content-type': contentType }, body },
    answer: {
      status: answer.status,
      headers: answer.body === undefined ? {} : { 'content-type': JSON_TYPE },
      ...(answer.body === undefined ? {} : { body: answer.body }),
      bytes: Buffer.byteLength(text),
    },
  };
}

const found = (e: Exchange) => checkExchange(e).map((v) => `${v.part} ${v.at}: ${v.message}`);

describe('user: sendMail', () => {
  it('is the call of POST /users/{id | userPrincipalName}/sendMail, by id or by UPN', () => {
    expect(operationOf(sendMail({ message: message() }))?.operation.id).toBe('user: sendMail');
    const byId = sendMail({ message: message(), saveToSentItems: false }, undefined, {
      url: '/v1.0/users/11111111-1111-4111-8111-111111111111/sendMail',
    });
    expect(found(byId)).toEqual([]);
  });

  it('finds nothing wrong with a message as the portal sends it, answered 202 without a body', () => {
    expect(found(sendMail({ message: message(), saveToSentItems: false }))).toEqual([]);
    // Microsoft's own example quotes the boolean.
    expect(found(sendMail({ message: message(), saveToSentItems: 'false' }))).toEqual([]);
  });

  it('finds a request Microsoft does not describe', () => {
    expect(found(sendMail({ message: message(), saveToSentItem: false }))).toEqual([
      expect.stringMatching(/^request body: Unrecognized key.*saveToSentItem/),
    ]);
    expect(found(sendMail({ message: message({ toRecipient: [] }) }))).toEqual([
      expect.stringMatching(/^request body.message: Unrecognized key.*toRecipient/),
    ]);
    expect(found(sendMail({ message: message({ body: { contentType: 'markdown', content: '#' } }) }))).toEqual([
      "request body.message.body.contentType: not a bodyType ('text' or 'html')",
    ]);
    expect(
      found(sendMail({ message: message({ internetMessageHeaders: [{ name: 'Paineis-Envio', value: 'x' }] }) })),
    ).toEqual(["request body.message.internetMessageHeaders[0].name: not a custom header name ('x-…')"]);
    expect(
      found(sendMail({ message: message({ toRecipients: [{ emailAddress: { address: 'não é endereço' } }] }) })),
    ).toEqual([expect.stringMatching(/^request body.message.toRecipients\[0\].emailAddress.address: /)]);
    expect(found(sendMail({ message: message({ toRecipients: [] }) }))).toEqual([
      'request body.message: no recipient (toRecipients, ccRecipients or bccRecipients)',
    ]);
    expect(found(sendMail({ message: message() }, undefined, { contentType: 'text/plain' }))).toEqual([
      'request header content-type: not application/json',
      'request header content-type: not JSON',
    ]);
  });

  it('finds an attachment that is not a file attachment in base64, and a request over 4 MB', () => {
    const attachment = message().attachments[0]!;
    expect(
      found(sendMail({ message: message({ attachments: [{ ...attachment, contentBytes: 'não é base64!' }] }) })),
    ).toEqual([expect.stringMatching(/^request body.message.attachments\[0\].contentBytes: /)]);
    expect(
      found(
        sendMail({
          message: message({ attachments: [{ ...attachment, '@odata.type': '#microsoft.graph.itemAttachment' }] }),
        }),
      ),
    ).toEqual([expect.stringMatching(/^request body.message.attachments\[0\].@odata.type: /)]);
    const big = Buffer.alloc(3.2 * 1024 * 1024).toString('base64');
    expect(found(sendMail({ message: message({ attachments: [{ ...attachment, contentBytes: big }] }) }))).toEqual([
      expect.stringMatching(/^request body: \d+ bytes: over the 4 MB \(4,000,000 bytes\) Graph takes in one request$/),
    ]);
  });

  it('finds an answer other than an empty 202, and takes errors in Graph’s shape', () => {
    expect(found(sendMail({ message: message() }, { status: 200, body: {} }))).toEqual([
      'answer status: 200 is none of the answers documented (202, 429)',
    ]);
    expect(found(sendMail({ message: message() }, { status: 202, body: { id: 'x' } }))).toEqual([
      'answer body: a body: sendMail answers 202 without one',
    ]);
    const invalidUser = {
      error: { code: 'ErrorInvalidUser', message: `The requested user '${SENDER}' is invalid.` },
    };
    expect(found(sendMail({ message: message() }, { status: 404, body: invalidUser }))).toEqual([]);
    expect(found(sendMail({ message: message() }, { status: 413, body: { error: { message: 'too large' } } }))).toEqual(
      [expect.stringMatching(/^answer body.error.code: /)],
    );
  });

  it('describes the 429 Outlook throttles with: Graph’s error and a Retry-After, required', () => {
    const throttled = (headers: Record<string, string>) => {
      const exchange = sendMail(
        { message: message() },
        {
          status: 429,
          body: {
            error: { code: 'ApplicationThrottled', message: 'Application is over its MailboxConcurrency limit.' },
          },
        },
      );
      return { ...exchange, answer: { ...exchange.answer, headers: { ...exchange.answer.headers, ...headers } } };
    };
    expect(found(throttled({ 'retry-after': '2' }))).toEqual([]);
    expect(found(throttled({}))).toEqual(['answer header retry-after: required']);
    expect(found(throttled({ 'retry-after': 'logo' }))).toEqual([
      'answer header retry-after: not delay-seconds nor an HTTP-date',
    ]);
    const tooLarge = { error: { code: 'ErrorRequestEntityTooLarge', message: 'The request is too large.' } };
    expect(found(sendMail({ message: message() }, { status: 413, body: tooLarge }))).toEqual([]);
  });

  it('holds a request to 4,000,000 bytes, 4 MB as Microsoft writes it', () => {
    const sized = (bytes: number) => {
      const body = { message: message({ subject: '' }) };
      const subject = 'a'.repeat(bytes - Buffer.byteLength(JSON.stringify(body)));
      return sendMail({ message: message({ subject }) });
    };
    expect(found(sized(4_000_000))).toEqual([]);
    expect(found(sized(4_000_001))).toEqual([
      'request body: 4000001 bytes: over the 4 MB (4,000,000 bytes) Graph takes in one request',
    ]);
  });
});
