import { fetchWithRetry, type RetryPolicy } from '../../lib/fetch-with-retry.ts';
import { errorFromFetchFailure, errorFromResponse, MicrosoftError, readJson } from '../microsoft-error.ts';
import type { EntraClient } from '../microsoft-identity/entra-client.ts';

export interface GraphUser {
  id: string;
  displayName: string | null;
  mail: string | null;
  userPrincipalName: string | null;
  department: string | null;
  accountEnabled: boolean | null;
}

export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';

export interface GraphClientOptions {
  /** Per request (a page); default 30 s. */
  timeoutMs?: number;
  /** Retries of one page on 429 or 5xx before giving up; default 6. */
  maxRetries?: number;
  /** Longest wait honoured for Retry-After; default 120 s. */
  maxRetryAfterMs?: number;
  /** For tests: how to wait. */
  sleep?: (ms: number) => Promise<void>;
}

const SELECT = 'id,displayName,mail,userPrincipalName,department,accountEnabled';

/** Microsoft Graph over plain fetch, with the service principal's token. Failures are `MicrosoftError`s. */
export class GraphClient {
  private readonly retry: RetryPolicy;

  constructor(
    private readonly graphUrl: string,
    private readonly entra: EntraClient,
    options: GraphClientOptions = {},
  ) {
    // A background job: it may wait, and retries timeouts too.
    this.retry = {
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 6,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 120_000,
      backoff: (attempt) => Math.min(30_000, 1000 * 2 ** attempt),
      retryTimeouts: true,
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    };
  }

  /** Every enabled user of the directory. */
  async listActiveUsers(): Promise<GraphUser[]> {
    const params = new URLSearchParams({ $select: SELECT, $filter: 'accountEnabled eq true', $top: '999' });
    return this.list<GraphUser>(`/v1.0/users?${params.toString()}`);
  }

  /**
   * The ids of the users who hold an app role of an application (by the role's value, e.g. 'Admin'): those
   * assigned it directly, and the direct members of groups assigned it (Entra does not cascade an app role
   * assignment to nested groups, and leaves it out of their members' tokens). Empty when the application
   * defines no such role. Needs Application.Read.All and GroupMember.Read.All.
   */
  async appRoleHolders(appId: string, roleValue: string): Promise<Set<string>> {
    const principal = (await this.get(
      `${this.graphUrl}/v1.0/servicePrincipals(appId='${encodeURIComponent(appId)}')?$select=id,appRoles`,
    )) as { id?: unknown; appRoles?: { id?: unknown; value?: unknown }[] };
    if (typeof principal.id !== 'string' || !Array.isArray(principal.appRoles)) {
      throw new MicrosoftError('graph', 'malformed', 'Resposta do Graph sem o principal de serviço do portal.');
    }
    const role = principal.appRoles.find((r) => r.value === roleValue);
    const holders = new Set<string>();
    if (typeof role?.id !== 'string') return holders;
    const assignments = await this.list<{ appRoleId?: string; principalId?: string; principalType?: string }>(
      `/v1.0/servicePrincipals/${encodeURIComponent(principal.id)}/appRoleAssignedTo?$top=999`,
    );
    for (const assignment of assignments) {
      if (assignment.appRoleId !== role.id || !assignment.principalId) continue;
      if (assignment.principalType === 'User') holders.add(assignment.principalId);
      if (assignment.principalType === 'Group') {
        const members = await this.list<{ id?: string }>(
          `/v1.0/groups/${encodeURIComponent(assignment.principalId)}/members/microsoft.graph.user?$select=id&$top=999`,
        );
        for (const member of members) if (member.id) holders.add(member.id);
      }
    }
    return holders;
  }

  /** Every item of a collection, following @odata.nextLink to the last page. */
  private async list<T>(path: string): Promise<T[]> {
    let next: string | undefined = `${this.graphUrl}${path}`;
    const items: T[] = [];
    while (next) {
      const page = (await this.get(next)) as { value?: T[]; '@odata.nextLink'?: string };
      if (!Array.isArray(page.value)) throw new MicrosoftError('graph', 'malformed', 'Resposta do Graph sem a lista.');
      items.push(...page.value);
      next = page['@odata.nextLink'];
    }
    return items;
  }

  /** One GET, retried on throttling (honouring Retry-After), server and network errors (with backoff). */
  private async get(url: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetchWithRetry(
        async () => [
          url,
          {
            headers: { authorization: `Bearer ${await this.entra.appToken(GRAPH_SCOPE)}`, accept: 'application/json' },
          },
        ],
        this.retry,
      );
    } catch (error) {
      throw errorFromFetchFailure('graph', error);
    }
    if (response.ok) return readJson('graph', response);
    throw await errorFromResponse('graph', response);
  }
}
