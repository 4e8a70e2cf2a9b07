import type { RetryPolicy } from '../../lib/fetch-with-retry.ts';
import { guidKey } from '../../lib/guid.ts';
import { isJsonObject as isRecord, MicrosoftError, readJsonAnswer } from '../microsoft-error.ts';
import type { EntraClient } from '../microsoft-identity/entra-client.ts';
import { atMost, callMicrosoft, RETRY_PROFILES, retryPolicy, type RetryOptions } from '../retry-policy.ts';
import { GROUP_DELTA_SELECT, toGroupChange, type GroupChange } from './graph-groups.ts';

export interface GraphUser {
  id: string;
  displayName: string | null;
  mail: string | null;
  userPrincipalName: string | null;
  /** 'Member' or 'Guest' as Graph spells them; null when Graph gives none. */
  userType: string | null;
  department: string | null;
  jobTitle: string | null;
  officeLocation: string | null;
  accountEnabled: boolean | null;
}

export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';

/**
 * Overrides of the sync's retries (RETRY_PROFILES.backgroundJob: 30 s a page, 6 retries, Retry-After up to 120 s, no
 * deadline); a sign-in's lookup keeps to the shorter of these and RETRY_PROFILES.signIn.
 */
export type GraphClientOptions = RetryOptions;

/** A message sent through Graph's sendMail, in the portal's terms (graph-client.ts writes Graph's JSON). */
export interface GraphMailMessage {
  subject: string;
  html: string;
  to: { address: string; name: string };
  attachments: { name: string; contentType: string; content: Buffer }[];
  /** Custom headers (names starting with X-). */
  headers: Record<string, string>;
}

/**
 * sendMail's retries: a 5xx or a refused connection is retried briefly, honouring Retry-After; a timeout is not, as
 * Graph may have accepted the message by then, and a 429 is not either: Outlook's limits are per mailbox, so the
 * deliveries wait it out for every instance at once (docs/decisions/020-subscription-deliveries.md). A 4 MB request
 * gets a minute.
 */
const SEND_MAIL_LIMITS = {
  timeoutMs: 60_000,
  maxRetries: 3,
  maxRetryAfterMs: 30_000,
  deadlineMs: 120_000,
  firstBackoffMs: 1000,
  longestBackoffMs: 8000,
  retryTimeouts: false,
  retryThrottled: false,
};

/** What the portal keeps of a user (docs/decisions/013-identity-from-the-directory.md). */
const SELECT = 'id,displayName,mail,userPrincipalName,userType,department,jobTitle,officeLocation,accountEnabled';

type Item = Record<string, unknown>;

function malformed(message: string): MicrosoftError {
  return new MicrosoftError('graph', 'malformed', `Microsoft Graph: ${message}`);
}

const optionalText = (value: unknown): value is string | null | undefined =>
  value === undefined || value === null || typeof value === 'string';

/** A user as the portal asked for it ($select), or `malformed`: one mistyped user must not pass for another. */
function toGraphUser(item: Item): GraphUser {
  const { id, displayName, mail, userPrincipalName, userType, department, jobTitle, officeLocation, accountEnabled } =
    item;
  if (typeof id !== 'string' || !id.trim()) throw malformed('usuário sem id na resposta.');
  if (![displayName, mail, userPrincipalName, userType, department, jobTitle, officeLocation].every(optionalText)) {
    throw malformed(`usuário ${id} com campos de tipo errado na resposta.`);
  }
  if (accountEnabled !== undefined && accountEnabled !== null && typeof accountEnabled !== 'boolean') {
    throw malformed(`usuário ${id} com accountEnabled de tipo errado na resposta.`);
  }
  const textOf = (value: unknown) => (value as string | null | undefined) ?? null;
  return {
    id,
    displayName: textOf(displayName),
    mail: textOf(mail),
    userPrincipalName: textOf(userPrincipalName),
    userType: textOf(userType),
    department: textOf(department),
    jobTitle: textOf(jobTitle),
    officeLocation: textOf(officeLocation),
    accountEnabled: accountEnabled ?? null,
  };
}

/** sendMail's JSON body (user: sendMail, JSON form) for `message`: not kept in the sender's Sent Items. */
function sendMailBody(message: GraphMailMessage) {
  return {
    message: {
      subject: message.subject,
      body: { contentType: 'HTML', content: message.html },
      toRecipients: [{ emailAddress: { address: message.to.address, name: message.to.name } }],
      attachments: message.attachments.map((file) => ({
        '@odata.type': '#microsoft.graph.fileAttachment',
        name: file.name,
        contentType: file.contentType,
        contentBytes: file.content.toString('base64'),
      })),
      internetMessageHeaders: Object.entries(message.headers).map(([name, value]) => ({ name, value })),
    },
    saveToSentItems: false,
  };
}

/** The bytes of sendMail's request for `message`, as Graph counts a request's size (its body, UTF-8). */
export const sendMailRequestBytes = (message: GraphMailMessage) =>
  Buffer.byteLength(JSON.stringify(sendMailBody(message)), 'utf8');

/** Microsoft Graph over plain fetch, with the service principal's token. Failures are `MicrosoftError`s. */
export class GraphClient {
  private readonly retry: RetryPolicy;
  private readonly signInRetry: RetryPolicy;
  private readonly sendMailRetry: RetryPolicy;

  constructor(
    private readonly graphUrl: string,
    private readonly entra: EntraClient,
    options: GraphClientOptions = {},
  ) {
    this.retry = retryPolicy(RETRY_PROFILES.backgroundJob, options);
    this.signInRetry = atMost(this.retry, RETRY_PROFILES.signIn);
    this.sendMailRetry = atMost(this.retry, SEND_MAIL_LIMITS);
  }

  /**
   * Sends a message as the mailbox `sender` (Graph's "user: sendMail" in JSON, application permission Mail.Send),
   * not kept in its Sent Items. Resolves on Graph's 202 Accepted: Exchange has the message, delivery follows.
   */
  async sendMail(sender: string, message: GraphMailMessage): Promise<void> {
    const body = sendMailBody(message);
    const url = `${this.graphUrl}/v1.0/users/${encodeURIComponent(sender)}/sendMail`;
    const token = (signal: AbortSignal | undefined) => this.entra.appToken(GRAPH_SCOPE, signal);
    const response = await callMicrosoft(
      'graph',
      url,
      { method: 'POST', accept: 'application/json', body, token },
      this.sendMailRetry,
    );
    // 202 has no body; whatever came is not read.
    await response.body?.cancel().catch(() => undefined);
  }

  /**
   * One user of the directory by object id (Graph's "Get user", User.Read.All), with short waits: a person is
   * signing in. Null when Graph says there is no such user (404).
   */
  async getUser(id: string): Promise<GraphUser | null> {
    const url = `${this.graphUrl}/v1.0/users/${encodeURIComponent(id)}?$select=${SELECT}`;
    let user: unknown;
    try {
      user = await this.get(url, this.signInRetry);
    } catch (error) {
      if (error instanceof MicrosoftError && error.status === 404) return null;
      throw error;
    }
    if (!isRecord(user)) throw malformed('resposta sem o usuário.');
    const found = toGraphUser(user);
    // Graph answers the user asked for; another one would be someone else's identity.
    if (guidKey(found.id) !== guidKey(id)) throw malformed(`pedido o usuário ${id}, veio ${found.id}.`);
    return found;
  }

  /** Every enabled user of the directory. */
  async listActiveUsers(): Promise<GraphUser[]> {
    const params = new URLSearchParams({ $select: SELECT, $filter: 'accountEnabled eq true', $top: '999' });
    return (await this.list(`/v1.0/users?${params.toString()}`)).map(toGraphUser);
  }

  /**
   * The ids of the users who hold an app role of an application (by the role's value, e.g. 'Admin'): those
   * assigned it directly, and the direct members of groups assigned it (Entra does not cascade an app role
   * assignment to nested groups, and leaves it out of their members' tokens). Empty when the application
   * defines no such role. Needs Application.Read.All and GroupMember.Read.All.
   */
  async appRoleHolders(appId: string, roleValue: string): Promise<Set<string>> {
    const principal = await this.get(
      `${this.graphUrl}/v1.0/servicePrincipals(appId='${encodeURIComponent(appId)}')?$select=id,appRoles`,
    );
    if (!isRecord(principal) || typeof principal.id !== 'string' || !Array.isArray(principal.appRoles)) {
      throw malformed('resposta sem o principal de serviço do portal.');
    }
    const role = principal.appRoles.find((r) => isRecord(r) && r.value === roleValue) as Item | undefined;
    const holders = new Set<string>();
    if (typeof role?.id !== 'string') return holders;
    const assignments = await this.list(
      `/v1.0/servicePrincipals/${encodeURIComponent(principal.id)}/appRoleAssignedTo?$top=999`,
    );
    for (const { appRoleId, principalId, principalType } of assignments) {
      if (appRoleId !== role.id || typeof principalId !== 'string' || !principalId) continue;
      if (principalType === 'User') holders.add(principalId);
      if (principalType === 'Group') {
        const members = await this.list(
          `/v1.0/groups/${encodeURIComponent(principalId)}/members/microsoft.graph.user?$select=id&$top=999`,
        );
        for (const member of members) if (typeof member.id === 'string' && member.id) holders.add(member.id);
      }
    }
    return holders;
  }

  /**
   * The groups' changes since `deltaLink` (every group and its direct members when null: a first round), through
   * Graph's delta query, and the delta link for the next round. Needs GroupMember.Read.All.
   */
  async groupChanges(deltaLink: string | null): Promise<{ changes: GroupChange[]; deltaLink: string }> {
    const start = deltaLink ?? `${this.graphUrl}/v1.0/groups/delta?$select=${GROUP_DELTA_SELECT}`;
    if (deltaLink !== null) this.checkLink(deltaLink, '@odata.deltaLink');
    const changes: GroupChange[] = [];
    const { last } = await this.pages(start, (items) => {
      for (const item of items) changes.push(toGroupChange(item));
    });
    const next = last['@odata.deltaLink'];
    if (typeof next !== 'string') throw malformed('a última página do delta de grupos veio sem @odata.deltaLink.');
    this.checkLink(next, '@odata.deltaLink');
    return { changes, deltaLink: next };
  }

  /**
   * Every item of a collection, following @odata.nextLink to the last page. `malformed` for a page without its
   * list, an item that is not an object, or a next link that is not a new Graph page (the token goes only to Graph).
   */
  private async list(path: string): Promise<Item[]> {
    const items: Item[] = [];
    await this.pages(`${this.graphUrl}${path}`, (page) => items.push(...page));
    return items;
  }

  /** Reads `first` and the pages after it, handing each page's items to `take`; resolves with the last page. */
  private async pages(first: string, take: (items: Item[]) => void): Promise<{ last: Item }> {
    const seen = new Set<string>();
    let next = first;
    for (;;) {
      seen.add(next);
      const page = await this.get(next);
      if (!isRecord(page) || !Array.isArray(page.value)) throw malformed('resposta sem a lista.');
      if (!page.value.every(isRecord)) throw malformed('lista com itens que não são objetos.');
      take(page.value);
      const link = page['@odata.nextLink'];
      if (link === undefined || link === null) return { last: page };
      this.checkLink(link, '@odata.nextLink');
      if (seen.has(link)) throw malformed('@odata.nextLink inválido.');
      next = link;
    }
  }

  /** A link Graph gave to follow must be Graph's own: the token goes only to Graph. */
  private checkLink(link: unknown, what: string): asserts link is string {
    const origin = new URL(this.graphUrl).origin;
    if (typeof link !== 'string' || !URL.canParse(link) || new URL(link).origin !== origin) {
      throw malformed(`${what} inválido.`);
    }
  }

  /** One GET, retried on throttling (honouring Retry-After), server and network errors (with backoff). */
  private async get(url: string, retry: RetryPolicy = this.retry): Promise<unknown> {
    const token = (signal: AbortSignal | undefined) => this.entra.appToken(GRAPH_SCOPE, signal);
    const response = await callMicrosoft('graph', url, { method: 'GET', accept: 'application/json', token }, retry);
    return readJsonAnswer('graph', response);
  }
}
