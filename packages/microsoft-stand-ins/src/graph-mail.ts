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

/** The largest request Graph takes: "a limit of 4 MB on the total size of each REST request". */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;
/** What the stand-in keeps: the last 500 messages (the demo runs for days). */
export const KEPT_MESSAGES = 500;

/** A refusal, as graph.ts answers it in Graph's error shape. */
export class MailRefusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
  ) {}
}

const refusal = (status: number, code: string, message: string) => new MailRefusal(status, code, message);
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

/** Who asks to send: the application (client credentials) or a signed-in person (delegated). */
export interface MailCaller {
  /** The token's `oid`: the service principal's id for the application, the person's for a delegated token. */
  oid: string | null;
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

  constructor(
    private readonly ctx: StandInContext,
    private readonly servicePrincipalId: () => string,
  ) {}

  /** Whether the caller may call sendMail at all (Graph answers 403 otherwise, before reading anything). */
  permitted(caller: MailCaller): boolean {
    if (caller.permissions.has('Mail.Send')) return true;
    return caller.isApp && caller.oid === this.servicePrincipalId();
  }

  /**
   * One sendMail request: the sender by id or UPN (404 ErrorInvalidUser for no such user, 404
   * MailboxNotEnabledForRESTAPI for one without a mailbox), the caller's right to send as them (403 ErrorAccessDenied),
   * the size (413), the JSON and the message (400). The accepted message is kept.
   */
  send(caller: MailCaller, senderId: string, raw: Buffer, contentType: string): StandInSentMail | MailRefusal {
    if (raw.length > MAX_REQUEST_BYTES) {
      return refusal(
        413,
        'ErrorRequestEntityTooLarge',
        `The request is ${raw.length} bytes; Microsoft Graph takes at most ${MAX_REQUEST_BYTES} in one request.`,
      );
    }
    const sender = this.person(senderId);
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
    const mail: StandInSentMail = {
      id: randomUUID(),
      from: sender.mail,
      receivedAt: new Date().toISOString(),
      ...message,
    };
    this.sent.push(mail);
    if (this.sent.length > KEPT_MESSAGES) this.sent.splice(0, this.sent.length - KEPT_MESSAGES);
    return mail;
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
