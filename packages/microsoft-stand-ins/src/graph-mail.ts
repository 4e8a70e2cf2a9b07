import { randomUUID } from 'node:crypto';
import type { StandInContext } from './stand-in-context.ts';
import type { StandInPerson, StandInSentMail } from './types.ts';

/*
 * Graph's user: sendMail (https://learn.microsoft.com/graph/api/user-sendmail), JSON form only: the stand-in checks a
 * request as Graph and Exchange Online do, and keeps what it accepted for the demo's outbox and the tests instead of
 * delivering it. The error codes and texts are Exchange's as Graph relays them (ErrorInvalidUser,
 * ErrorInvalidRecipients…) and OData's for a body it cannot read (RequestBodyRead); Microsoft publishes no list of
 * them, so they are the project's reading of what Graph answers.
 */

/**
 * Outlook's limits on what one application asks of one mailbox through Graph, which sendMail is subject to
 * (https://learn.microsoft.com/graph/throttling-limits, "Outlook service limits"), in decimal units as Microsoft
 * writes them (MB = 1,000,000 bytes):
 * - "4 concurrent requests" (the page's older text puts it in the table "Limits per app ID and mailbox combination";
 *   its newer text says "Outlook can execute up to 4 concurrent requests" per app ID, "regardless of whether the
 *   requests all access the same mailbox": the stand-in counts per app and mailbox, as Outlook's own error names it,
 *   "MailboxConcurrency");
 * - "10,000 API requests in a 10 minute period" per app ID and mailbox;
 * - "150 megabytes (MB) upload (PATCH, POST, PUT) in a 5 minute period" per app ID and mailbox;
 * - a request of at most 4 MB: "the current limit of 4 MB on the total size of each REST request" (Update
 *   profilePhoto, https://learn.microsoft.com/graph/api/profilephoto-update), whence "If the file size is under 3 MB,
 *   do a single POST" (https://learn.microsoft.com/graph/outlook-large-attachments: base64 grows a file by a third).
 * `latencyMs` is the stand-in's own: how long sendMail takes to answer (0: at once), the time a request counts as in
 * flight.
 */
export interface MailLimits {
  concurrentRequests: number;
  uploadBytesPerWindow: number;
  uploadWindowMs: number;
  requestsPerWindow: number;
  requestsWindowMs: number;
  maxRequestBytes: number;
  latencyMs: number;
}

export const MICROSOFT_MAIL_LIMITS: Readonly<MailLimits> = {
  concurrentRequests: 4,
  uploadBytesPerWindow: 150_000_000,
  uploadWindowMs: 5 * 60_000,
  requestsPerWindow: 10_000,
  requestsWindowMs: 10 * 60_000,
  maxRequestBytes: 4_000_000,
  latencyMs: 0,
};

/** The largest request Graph takes: 4 MB, 4,000,000 bytes (MICROSOFT_MAIL_LIMITS). */
export const MAX_REQUEST_BYTES = MICROSOFT_MAIL_LIMITS.maxRequestBytes;
/** What the route reads of a body at most: a larger one is cut off by Fastify (maxRequestBytes is kept below it). */
export const MAX_BODY_BYTES = 16 * MAX_REQUEST_BYTES;

/** What the limits did, for the tests and the benchmark. */
export interface MailStats {
  /** The most sendMail requests in flight at once for one application and mailbox. */
  peakConcurrent: number;
  /** 429s answered by the limits (not by the queued faults), and by which limit. */
  throttled: number;
  throttledBy: { concurrency: number; requestRate: number; upload: number };
  /** 413s answered: requests over maxRequestBytes. */
  tooLarge: number;
}
/** What the stand-in keeps: the last 500 messages (the demo runs for days). */
export const KEPT_MESSAGES = 500;

/** A refusal, as graph.ts answers it in Graph's error shape (with its headers: a 429's Retry-After). */
export class MailRefusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

const refusal = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  new MailRefusal(status, code, message, headers);
const unreadable = (message: string) => refusal(400, 'RequestBodyRead', message);
const noSuchProperty = (name: string, type: string) =>
  unreadable(
    `The property '${name}' does not exist on type '${type}'. Make sure to only use property names that are defined by the type or mark the type as open type.`,
  );
const wrongValue = (name: string, type: string) =>
  unreadable(`Cannot convert the value of property '${name}' to the expected type '${type}'.`);
const invalidRecipients = (why: string) =>
  refusal(400, 'ErrorInvalidRecipients', `At least one recipient isn't valid., ${why}`);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** A JSON value as the error text quotes it. */
const literal = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null));

/** The message properties Graph lets a new message set (resources/message): others are not the type's. */
const MESSAGE_PROPERTIES = new Set([
  'subject',
  'body',
  'toRecipients',
  'ccRecipients',
  'bccRecipients',
  'attachments',
  'internetMessageHeaders',
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
]);
const FILE_ATTACHMENT_PROPERTIES = new Set([
  '@odata.type',
  'name',
  'contentType',
  'contentBytes',
  'contentId',
  'isInline',
]);
const ADDRESS = /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Only the properties of `known` (`@odata.*` annotations aside from those named), or the refusal naming another. */
function unknownProperty(value: Json, known: ReadonlySet<string>, type: string): MailRefusal | null {
  const other = Object.keys(value).find((name) => !known.has(name) && !(name.startsWith('@') && !name.includes('.')));
  return other === undefined ? null : noSuchProperty(other, type);
}

/** The recipients of one list, or the refusal: each `{ emailAddress: { address, name? } }` with a real address. */
function recipientsOf(list: unknown, name: string): StandInSentMail['to'] | MailRefusal {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) return wrongValue(name, 'Collection(microsoft.graph.recipient)');
  const recipients: StandInSentMail['to'] = [];
  for (const item of list) {
    if (!isObject(item)) return wrongValue(name, 'microsoft.graph.recipient');
    const unknown = unknownProperty(item, new Set(['emailAddress']), 'microsoft.graph.recipient');
    if (unknown) return unknown;
    const email = item.emailAddress;
    if (!isObject(email)) return invalidRecipients('A recipient has no email address.');
    const badField = unknownProperty(email, new Set(['address', 'name']), 'microsoft.graph.emailAddress');
    if (badField) return badField;
    const { address, name: shown } = email;
    if (shown !== undefined && shown !== null && typeof shown !== 'string') {
      return wrongValue('name', 'Edm.String');
    }
    if (typeof address !== 'string' || !ADDRESS.test(address.trim())) {
      return invalidRecipients(
        `Recipient '${literal(address)}' isn't resolved. All recipients must be resolved before a message can be submitted.`,
      );
    }
    recipients.push({ address: address.trim(), name: typeof shown === 'string' ? shown : null });
  }
  return recipients;
}

function attachmentsOf(list: unknown): StandInSentMail['attachments'] | MailRefusal {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) return wrongValue('attachments', 'Collection(microsoft.graph.attachment)');
  const attachments: StandInSentMail['attachments'] = [];
  for (const item of list) {
    if (!isObject(item)) return wrongValue('attachments', 'microsoft.graph.attachment');
    const type = item['@odata.type'];
    // attachment is abstract: the request says which kind each one is.
    if (type === undefined) return unreadable('Cannot create an abstract class.');
    if (type !== '#microsoft.graph.fileAttachment') {
      return refusal(400, 'Request_UnsupportedQuery', `The Microsoft Graph stand-in does not serve ${literal(type)}.`);
    }
    const unknown = unknownProperty(item, FILE_ATTACHMENT_PROPERTIES, 'microsoft.graph.fileAttachment');
    if (unknown) return unknown;
    const { name, contentType, contentBytes } = item;
    if (typeof name !== 'string' || !name.trim()) {
      return refusal(400, 'ErrorInvalidRequest', 'The attachment has no name.');
    }
    if (contentType !== undefined && contentType !== null && typeof contentType !== 'string') {
      return wrongValue('contentType', 'Edm.String');
    }
    if (typeof contentBytes !== 'string' || !BASE64.test(contentBytes)) {
      return unreadable(`Cannot convert the literal value of 'contentBytes' to the expected type 'Edm.Binary'.`);
    }
    attachments.push({
      name,
      contentType: typeof contentType === 'string' ? contentType : 'application/octet-stream',
      content: Buffer.from(contentBytes, 'base64'),
    });
  }
  return attachments;
}

function headersOf(list: unknown): Record<string, string> | MailRefusal {
  if (list === undefined || list === null) return {};
  if (!Array.isArray(list))
    return wrongValue('internetMessageHeaders', 'Collection(microsoft.graph.internetMessageHeader)');
  const headers: Record<string, string> = {};
  for (const item of list) {
    if (!isObject(item) || typeof item.name !== 'string' || typeof item.value !== 'string') {
      return wrongValue('internetMessageHeaders', 'microsoft.graph.internetMessageHeader');
    }
    const unknown = unknownProperty(item, new Set(['name', 'value']), 'microsoft.graph.internetMessageHeader');
    if (unknown) return unknown;
    // A new message may carry custom headers only.
    if (!/^x-/i.test(item.name)) {
      return refusal(
        400,
        'InvalidInternetMessageHeader',
        `The internet message header name '${item.name}' should start with 'x-' or 'X-'.`,
      );
    }
    headers[item.name] = item.value;
  }
  return headers;
}

/** The message a sendMail body asks to send, or the refusal Graph answers it with. */
function messageOf(body: unknown): Omit<StandInSentMail, 'id' | 'from' | 'receivedAt'> | MailRefusal {
  if (!isObject(body)) return refusal(400, 'ErrorInvalidRequest', 'The request body is not a sendMail request.');
  const unknown = unknownProperty(body, new Set(['message', 'saveToSentItems']), 'microsoft.graph.sendMail');
  if (unknown) return unknown;
  const { message, saveToSentItems } = body;
  if (!isObject(message)) return refusal(400, 'ErrorInvalidRequest', "The 'message' parameter is missing.");
  if (
    saveToSentItems !== undefined &&
    typeof saveToSentItems !== 'boolean' &&
    !/^(true|false)$/i.test(literal(saveToSentItems))
  ) {
    return wrongValue('saveToSentItems', 'Edm.Boolean');
  }
  const badProperty = unknownProperty(message, MESSAGE_PROPERTIES, 'microsoft.graph.message');
  if (badProperty) return badProperty;

  const { subject, body: itemBody } = message;
  if (subject !== undefined && subject !== null && typeof subject !== 'string') {
    return wrongValue('subject', 'Edm.String');
  }
  let content = '';
  let contentType: 'HTML' | 'Text' = 'Text';
  if (itemBody !== undefined && itemBody !== null) {
    if (!isObject(itemBody)) return wrongValue('body', 'microsoft.graph.itemBody');
    const badField = unknownProperty(itemBody, new Set(['contentType', 'content']), 'microsoft.graph.itemBody');
    if (badField) return badField;
    const type = itemBody.contentType ?? 'text';
    if (typeof type !== 'string' || !/^(text|html)$/i.test(type)) {
      return unreadable(
        `Cannot convert the literal '${literal(type)}' to the expected type 'microsoft.graph.bodyType'.`,
      );
    }
    if (itemBody.content !== undefined && itemBody.content !== null && typeof itemBody.content !== 'string') {
      return wrongValue('content', 'Edm.String');
    }
    contentType = type.toLowerCase() === 'html' ? 'HTML' : 'Text';
    content = itemBody.content ?? '';
  }

  const lists = (['toRecipients', 'ccRecipients', 'bccRecipients'] as const).map((name) =>
    recipientsOf(message[name], name),
  );
  const [to = [], cc = [], bcc = []] = lists;
  for (const list of [to, cc, bcc]) if (list instanceof MailRefusal) return list;
  const recipients = [to, cc, bcc] as StandInSentMail['to'][];
  if (recipients.every((list) => list.length === 0)) {
    return invalidRecipients("A message can't be sent because it contains no recipients.");
  }
  const attachments = attachmentsOf(message.attachments);
  if (attachments instanceof MailRefusal) return attachments;
  const headers = headersOf(message.internetMessageHeaders);
  if (headers instanceof MailRefusal) return headers;

  const [toList = [], ccList = [], bccList = []] = recipients;
  return {
    to: toList,
    cc: ccList,
    bcc: bccList,
    subject: typeof subject === 'string' ? subject : '',
    body: { contentType, content },
    headers,
    attachments,
  };
}

/** An application's use of one mailbox: requests in flight, and what the two windows hold (oldest first). */
interface MailboxUsage {
  inFlight: number;
  /** When each request counted toward the request rate began (ms). */
  requests: number[];
  /** The bytes of each accepted request, and when (ms). */
  uploads: { at: number; bytes: number }[];
}

const emptyStats = (): MailStats => ({
  peakConcurrent: 0,
  throttled: 0,
  throttledBy: { concurrency: 0, requestRate: 0, upload: 0 },
  tooLarge: 0,
});

/** Who asks to send: the application (client credentials) or a signed-in person (delegated). */
export interface MailCaller {
  /** The token's `oid`: the service principal's id for the application, the person's for a delegated token. */
  oid: string | null;
  /** The application (its client id: `appid`, or `azp`), whose limits the request counts toward. */
  appId: string | null;
  isApp: boolean;
  permissions: ReadonlySet<string>;
}

/**
 * The messages Graph accepted through sendMail, newest last. The portal's application may send as the mailboxes of
 * its Exchange Online scope (RBAC for Applications, "Application Mail.Send": every mailbox unless restricted), or as
 * anyone with the tenant-wide application permission Mail.Send; a person, as themselves with the delegated one.
 */
export class MailOutbox {
  private sent: StandInSentMail[] = [];
  /** The Exchange scope of the application's Mail.Send role: addresses in lower case; null for every mailbox. */
  private scope: Set<string> | null = null;
  private readonly initialLimits: MailLimits;
  private limits: MailLimits;
  /** By application and mailbox. */
  private readonly usage = new Map<string, MailboxUsage>();
  private stats = emptyStats();

  constructor(
    private readonly ctx: StandInContext,
    private readonly servicePrincipalId: () => string,
    limits: Partial<MailLimits> = {},
  ) {
    this.limits = { ...MICROSOFT_MAIL_LIMITS };
    this.setLimits(limits);
    this.initialLimits = { ...this.limits };
  }

  /** Whether the caller may call sendMail at all (Graph answers 403 otherwise, before reading anything). */
  permitted(caller: MailCaller): boolean {
    if (caller.permissions.has('Mail.Send')) return true;
    return caller.isApp && caller.oid === this.servicePrincipalId();
  }

  /**
   * One sendMail request, answered after `latencyMs`: the size (413 ErrorRequestEntityTooLarge, at once: Graph's
   * front door refuses it unread), Outlook's limits for the application and the mailbox (429 ApplicationThrottled
   * with Retry-After, at once), then the sender by id or UPN (404 ErrorInvalidUser for no such user, 404
   * MailboxNotEnabledForRESTAPI for one without a mailbox), the caller's right to send as them (403
   * ErrorAccessDenied), the JSON and the message (400). The accepted message is kept. Only accepted requests use the
   * upload budget; every request past the size and the limits counts toward the request rate.
   */
  async send(
    caller: MailCaller,
    senderId: string,
    raw: Buffer,
    contentType: string,
  ): Promise<StandInSentMail | MailRefusal> {
    const limits = this.limits;
    if (raw.length > limits.maxRequestBytes) {
      this.stats.tooLarge += 1;
      return refusal(
        413,
        'ErrorRequestEntityTooLarge',
        `The request is ${raw.length} bytes; Microsoft Graph takes at most ${limits.maxRequestBytes} in one request.`,
      );
    }
    const sender = this.person(senderId);
    const usage = this.usageOf(caller, sender?.id ?? senderId);
    const throttled = this.throttle(usage, raw.length, Date.now());
    if (throttled) return throttled;

    usage.inFlight += 1;
    usage.requests.push(Date.now());
    this.stats.peakConcurrent = Math.max(this.stats.peakConcurrent, usage.inFlight);
    try {
      const checked = this.check(caller, sender, senderId, raw, contentType);
      // Counted when accepted, so that the requests in flight beside it see it too.
      if (!(checked instanceof MailRefusal)) usage.uploads.push({ at: Date.now(), bytes: raw.length });
      if (limits.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, limits.latencyMs));
      if (checked instanceof MailRefusal) return checked;
      const mail: StandInSentMail = { ...checked, receivedAt: new Date().toISOString() };
      this.sent.push(mail);
      if (this.sent.length > KEPT_MESSAGES) this.sent.splice(0, this.sent.length - KEPT_MESSAGES);
      return mail;
    } finally {
      usage.inFlight -= 1;
    }
  }

  /**
   * The 429 Outlook answers when this request would pass a limit of the application and mailbox, or null. Graph
   * answers throttling with 429 and a Retry-After in seconds (https://learn.microsoft.com/graph/throttling, "Best
   * practices to handle throttling": "Wait the number of seconds specified in the Retry-After header"); Outlook
   * is not among the services the limits page says send none. The concurrency refusal is the one Outlook is seen to
   * give: 429 `{"error":{"code":"ApplicationThrottled","message":"Application is over its MailboxConcurrency
   * limit."}}` (e.g. magodo/terraform-provider-outlook#21, alcionai/corso#3695). Microsoft publishes no text for the
   * other two: the stand-in uses the same code, its message naming the limit.
   */
  private throttle(usage: MailboxUsage, bytes: number, now: number): MailRefusal | null {
    const limits = this.limits;
    while (usage.requests.length > 0 && usage.requests[0]! <= now - limits.requestsWindowMs) usage.requests.shift();
    while (usage.uploads.length > 0 && usage.uploads[0]!.at <= now - limits.uploadWindowMs) usage.uploads.shift();
    const throttled = (by: keyof MailStats['throttledBy'], message: string, waitMs: number) => {
      this.stats.throttled += 1;
      this.stats.throttledBy[by] += 1;
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      return refusal(429, 'ApplicationThrottled', message, { 'retry-after': String(seconds) });
    };
    if (usage.inFlight >= limits.concurrentRequests) {
      // A place frees when a request in flight answers: at most the latency from now.
      return throttled('concurrency', 'Application is over its MailboxConcurrency limit.', limits.latencyMs);
    }
    if (usage.requests.length >= limits.requestsPerWindow) {
      // The request that leaves the window first and makes room for this one.
      const leaving = usage.requests[usage.requests.length - limits.requestsPerWindow]!;
      return throttled(
        'requestRate',
        `Application is over its request limit for this mailbox (${limits.requestsPerWindow} requests in ${limits.requestsWindowMs / 1000} seconds).`,
        leaving + limits.requestsWindowMs - now,
      );
    }
    const used = usage.uploads.reduce((sum, upload) => sum + upload.bytes, 0);
    if (used + bytes > limits.uploadBytesPerWindow) {
      // Until enough of the bytes sent leave the window (a request larger than the whole budget: a whole window).
      let waitMs = limits.uploadWindowMs;
      let freed = 0;
      for (const upload of usage.uploads) {
        freed += upload.bytes;
        if (used - freed + bytes <= limits.uploadBytesPerWindow) {
          waitMs = upload.at + limits.uploadWindowMs - now;
          break;
        }
      }
      return throttled(
        'upload',
        `Application is over its upload limit for this mailbox (${limits.uploadBytesPerWindow} bytes in ${limits.uploadWindowMs / 1000} seconds).`,
        waitMs,
      );
    }
    return null;
  }

  /** The message a request asks to send as `sender`, or the refusal Graph answers it with (size and limits aside). */
  private check(
    caller: MailCaller,
    sender: StandInPerson | undefined,
    senderId: string,
    raw: Buffer,
    contentType: string,
  ): Omit<StandInSentMail, 'receivedAt'> | MailRefusal {
    if (!sender) return refusal(404, 'ErrorInvalidUser', `The requested user '${senderId}' is invalid.`);
    if (!sender.mail) {
      return refusal(
        404,
        'MailboxNotEnabledForRESTAPI',
        'The mailbox is either inactive, soft-deleted, or is hosted on-premise.',
      );
    }
    if (!this.maySendAs(caller, sender, sender.mail)) {
      return refusal(403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');
    }
    // The MIME form (text/plain, base64) is Graph's too; the portal does not use it.
    if (!/^application\/json\b/i.test(contentType)) {
      return refusal(400, 'Request_UnsupportedQuery', 'The Microsoft Graph stand-in serves sendMail in JSON only.');
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return refusal(
        400,
        'BadRequest',
        'Unable to read JSON request payload. Please ensure Content-Type header is set and payload is of valid JSON format.',
      );
    }
    const message = messageOf(body);
    if (message instanceof MailRefusal) return message;
    return { id: randomUUID(), from: sender.mail, ...message };
  }

  /** The application's use of the mailbox: what is in flight and what the windows still hold. */
  private usageOf(caller: MailCaller, mailbox: string): MailboxUsage {
    const key = `${caller.appId ?? caller.oid ?? ''}|${mailbox.toLowerCase()}`;
    let usage = this.usage.get(key);
    if (!usage) this.usage.set(key, (usage = { inFlight: 0, requests: [], uploads: [] }));
    return usage;
  }

  /** Changes some limits (the others stay); the windows keep what they hold. */
  setLimits(changes: Partial<MailLimits>): void {
    const next = { ...this.limits };
    for (const [name, value] of Object.entries(changes) as [keyof MailLimits, number | undefined][]) {
      if (value === undefined) continue;
      if (!(name in MICROSOFT_MAIL_LIMITS)) throw new Error(`Unknown sendMail limit '${name}'.`);
      const least = name === 'latencyMs' ? 0 : 1;
      if (!Number.isFinite(value) || value < least) throw new Error(`sendMail limit ${name} must be ≥ ${least}.`);
      next[name] = value;
    }
    if (next.maxRequestBytes > MAX_BODY_BYTES) {
      throw new Error(`sendMail's maxRequestBytes is at most ${MAX_BODY_BYTES} in the stand-in.`);
    }
    this.limits = next;
  }

  /** What the limits did since the last resetStats. */
  statsNow(): MailStats {
    return { ...this.stats, throttledBy: { ...this.stats.throttledBy } };
  }

  resetStats(): void {
    this.stats = emptyStats();
  }

  /** Back to the limits the stand-ins started with, empty windows and no stats (between tests). */
  resetLimits(): void {
    this.limits = { ...this.initialLimits };
    this.usage.clear();
    this.resetStats();
  }

  /** The messages kept, oldest first. */
  list(): StandInSentMail[] {
    return [...this.sent];
  }

  clear(): void {
    this.sent = [];
  }

  restrictSenders(addresses: readonly string[] | null): void {
    this.scope = addresses === null ? null : new Set(addresses.map((address) => address.toLowerCase()));
  }

  private person(id: string): StandInPerson | undefined {
    const wanted = id.toLowerCase();
    return this.ctx.people.find(
      (p) =>
        p.id.toLowerCase() === wanted ||
        p.userPrincipalName.toLowerCase() === wanted ||
        p.mail?.toLowerCase() === wanted,
    );
  }

  private maySendAs(caller: MailCaller, sender: StandInPerson, mailbox: string): boolean {
    if (!caller.isApp) return caller.oid === sender.id;
    // Tenant-wide consent reaches every mailbox; RBAC for Applications only those in the scope.
    if (caller.permissions.has('Mail.Send')) return true;
    return this.scope === null || this.scope.has(mailbox.toLowerCase());
  }
}
