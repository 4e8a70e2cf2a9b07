import { z } from 'zod';
import type { Exchange } from './exchange.ts';
import { GRAPH_ERRORS, graphError } from './graph.ts';
import { bearer, retryAfter, type Finding, type Operation } from './operation.ts';

/*
 * Graph's user: sendMail (https://learn.microsoft.com/graph/api/user-sendmail?view=graph-rest-1.0) in its JSON form:
 * `{ message, saveToSentItems }`, the message a message resource (resources/message) whose attachments are
 * fileAttachment resources (resources/fileattachment), answered 202 Accepted with no body. Graph takes at most 4 MB
 * in one request ("the current limit of 4 MB on the total size of each REST request", Update profilePhoto), so an
 * attachment sent inline stays under 3 MB once base64 has grown it by a third ("If the file size is under 3 MB, do a
 * single POST", "Attach large files to Outlook messages": a larger file needs an upload session). Outlook throttles an
 * application's use of a mailbox (https://learn.microsoft.com/graph/throttling-limits, "Outlook service limits": 4
 * concurrent requests, 10,000 requests in 10 minutes, 150 MB uploaded in 5 minutes) with a 429 that says, in
 * Retry-After, how many seconds to wait (https://learn.microsoft.com/graph/throttling).
 */

const learn = (page: string) => `https://learn.microsoft.com/graph/api/${page}?view=graph-rest-1.0`;

/**
 * The largest request Graph takes: 4 MB in Microsoft's decimal units, 4,000,000 bytes (Microsoft writes "4 MB" and
 * "150 megabytes (MB)" without defining MB; read as 10^6 bytes, the portal stays under either reading).
 */
export const GRAPH_MAX_REQUEST_BYTES = 4_000_000;

/** emailAddress: the address, and the name shown with it. */
export const emailAddress = z.strictObject({ address: z.email(), name: z.string().optional() });
/** recipient. */
export const recipient = z.strictObject({ emailAddress });

/** itemBody: bodyType is `text` or `html` (enum members, written in any case). */
export const itemBody = z.strictObject({
  contentType: z.string().regex(/^(text|html)$/i, "not a bodyType ('text' or 'html')"),
  content: z.string(),
});

/**
 * internetMessageHeader: on a new message only custom headers, whose names start with `x-` ("Add custom
 * headers… Header names must start with 'x-' or 'X-'").
 */
export const internetMessageHeader = z.strictObject({
  name: z.string().regex(/^x-[\w-]+$/i, "not a custom header name ('x-…')"),
  value: z.string(),
});

/** A file attached inline: its name, media type and bytes (Edm.Binary, base64). */
export const fileAttachment = z.strictObject({
  '@odata.type': z.literal('#microsoft.graph.fileAttachment'),
  name: z.string().min(1),
  contentType: z.string().optional(),
  contentBytes: z.base64(),
  contentId: z.string().optional(),
  isInline: z.boolean().optional(),
});

/**
 * The message resource as sendMail takes it: what the portal sends typed, the resource's other writable properties
 * named (anything else is not Microsoft's).
 */
export const message = z.strictObject({
  subject: z.string().optional(),
  body: itemBody.optional(),
  toRecipients: z.array(recipient).optional(),
  ccRecipients: z.array(recipient).optional(),
  bccRecipients: z.array(recipient).optional(),
  attachments: z.array(fileAttachment).optional(),
  internetMessageHeaders: z.array(internetMessageHeader).optional(),
  ...Object.fromEntries(
    [
      'categories',
      'flag',
      'from',
      'importance',
      'inferenceClassification',
      'internetMessageId',
      'isDeliveryReceiptRequested',
      'isReadReceiptRequested',
      'replyTo',
      'sender',
      'singleValueExtendedProperties',
      'multiValueExtendedProperties',
    ].map((name) => [name, z.unknown().optional()]),
  ),
});

/** The request body of sendMail in JSON; saveToSentItems is a boolean (Microsoft's own example quotes it). */
export const sendMailBody = z.strictObject({
  message,
  saveToSentItems: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
});

/** A message must name someone to send it to, and the request must fit in Graph's 4 MB. */
function sendMailRequest(exchange: Exchange): Finding[] {
  const findings: Finding[] = [];
  const body = exchange.request.body as { message?: Record<string, unknown[] | undefined> } | undefined;
  const recipients = ['toRecipients', 'ccRecipients', 'bccRecipients'].flatMap((name) => body?.message?.[name] ?? []);
  if (body?.message && recipients.length === 0) {
    findings.push({ at: 'body.message', message: 'no recipient (toRecipients, ccRecipients or bccRecipients)' });
  }
  const bytes = Buffer.byteLength(JSON.stringify(body ?? null));
  if (bytes > GRAPH_MAX_REQUEST_BYTES) {
    findings.push({
      at: 'body',
      message: `${bytes} bytes: over the 4 MB (4,000,000 bytes) Graph takes in one request`,
    });
  }
  return findings;
}

export const GRAPH_MAIL_OPERATIONS: Operation[] = [
  {
    service: 'graph',
    id: 'user: sendMail',
    source: learn('user-sendmail'),
    method: 'POST',
    // POST /users/{id | userPrincipalName}/sendMail: the application sends as that mailbox (Mail.Send).
    paths: ['/v1.0/users/{id}/sendMail'],
    pathParams: { id: z.string().min(1) },
    headers: {
      authorization: bearer,
      'content-type': { required: true, value: z.string().regex(/^application\/json\b/i, 'not application/json') },
    },
    body: { content: 'json', schema: sendMailBody },
    check: sendMailRequest,
    answers: {
      // "If successful, this method returns 202 Accepted response code. It doesn't return anything in the response body."
      202: {
        content: 'none',
        check: (exchange) =>
          exchange.answer.bytes === 0 ? [] : [{ at: 'body', message: 'a body: sendMail answers 202 without one' }],
      },
      // Throttled (Outlook's limits per application and mailbox): Graph's error, and how long to wait. Outlook is not
      // among the services the limits page says answer 429 without Retry-After.
      429: { content: 'json', body: graphError, headers: { 'retry-after': { required: true, value: retryAfter } } },
    },
    errors: GRAPH_ERRORS,
  },
];
