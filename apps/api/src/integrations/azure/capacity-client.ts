import type { RetryPolicy } from '../../lib/fetch-with-retry.ts';
import { retryAfterSeconds } from '../../lib/fetch-with-retry.ts';
import { isJsonObject, MicrosoftError, readJsonAnswer } from '../microsoft-error.ts';
import type { EntraClient } from '../microsoft-identity/entra-client.ts';
import { callMicrosoft, RETRY_PROFILES, retryPolicy, type RetryOptions } from '../retry-policy.ts';
import type { CapacityKind, CapacityResource } from './capacity-resource.ts';

export { parseCapacityResourceId, type CapacityKind, type CapacityResource } from './capacity-resource.ts';

/*
 * The Power BI capacity in Azure Resource Manager (ARM): read its state, suspend it, resume it, change its SKU, for
 * a Power BI Embedded capacity (an A SKU, Microsoft.PowerBIDedicated, api-version 2021-01-01) or a Fabric one (an F
 * SKU, Microsoft.Fabric, api-version 2023-11-01), as Microsoft's swaggers describe them
 * (packages/microsoft-api/src/azure-capacities.ts). Suspend, resume and a change of SKU are long-running: ARM answers
 * 202 with Location and Retry-After, and the caller follows the state with get().
 */

/** The audience of ARM's tokens, as a client-credentials scope. */
export const ARM_SCOPE = 'https://management.azure.com/.default';

const PROVIDERS: Record<CapacityKind, { namespace: string; apiVersion: string }> = {
  embedded: { namespace: 'Microsoft.PowerBIDedicated', apiVersion: '2021-01-01' },
  fabric: { namespace: 'Microsoft.Fabric', apiVersion: '2023-11-01' },
};

export interface CapacityStatus {
  kind: CapacityKind;
  name: string;
  sku: string;
  /** Azure's properties.state as given */
  state: string;
  provisioningState: string | null;
}

export interface CapacityOperation {
  /** true when Azure answered 202 (still under way) */
  accepted: boolean;
  retryAfterSeconds: number | null;
  location: string | null;
}

/** The message of a 403 AuthorizationFailed: the service principal lacks the Azure role on the capacity. */
export const AUTHORIZATION_FAILED =
  'O Azure recusou a operação: a aplicação do portal não tem, na capacidade, um papel com as permissões ' +
  '…/capacities/read, /write, /suspend/action e /resume/action (AuthorizationFailed).';

const malformed = (what: string) =>
  new MicrosoftError('azure', 'malformed', `Azure Resource Manager: resposta sem ${what}.`);

const text = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** Azure Resource Manager's capacity calls over plain fetch, as the service principal. Failures: MicrosoftError 'azure'. */
export class CapacityClient {
  private readonly retry: RetryPolicy;
  private readonly url: string;

  constructor(
    managementUrl: string,
    private readonly entra: EntraClient,
    private readonly resource: CapacityResource,
    options?: RetryOptions,
  ) {
    this.retry = retryPolicy(RETRY_PROFILES.personWaiting, options);
    const provider = PROVIDERS[resource.kind];
    const segment = encodeURIComponent;
    this.url =
      `${managementUrl.replace(/\/+$/, '')}/subscriptions/${segment(resource.subscriptionId)}` +
      `/resourceGroups/${segment(resource.resourceGroup)}/providers/${provider.namespace}` +
      `/capacities/${segment(resource.name)}`;
  }

  private address(action = ''): string {
    return `${this.url}${action}?api-version=${PROVIDERS[this.resource.kind].apiVersion}`;
  }

  private async send(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<Response> {
    const token = (signal: AbortSignal | undefined) => this.entra.appToken(ARM_SCOPE, signal);
    try {
      return await callMicrosoft('azure', url, { method, accept: 'application/json', body, token }, this.retry);
    } catch (error) {
      // The one refusal an administrator can act on: say which role is missing, not ARM's English.
      if (error instanceof MicrosoftError && error.code === 'AuthorizationFailed') {
        throw new MicrosoftError('azure', 'refused', AUTHORIZATION_FAILED, error.details);
      }
      throw error;
    }
  }

  /** The capacity's SKU and state now. */
  async get(): Promise<CapacityStatus> {
    const answer = await readJsonAnswer('azure', await this.send('GET', this.address()));
    if (!isJsonObject(answer)) throw malformed('a capacidade');
    const { sku, properties } = answer;
    if (!isJsonObject(sku) || !text(sku.name)) throw malformed('o SKU da capacidade');
    if (!isJsonObject(properties) || !text(properties.state)) throw malformed('o estado da capacidade');
    return {
      kind: this.resource.kind,
      name: text(answer.name) ? answer.name : this.resource.name,
      sku: sku.name,
      state: properties.state,
      provisioningState: text(properties.provisioningState) ? properties.provisioningState : null,
    };
  }

  /** Pauses it (billing stops once Paused). 200: nothing to do (already paused); 202: under way. */
  suspend(): Promise<CapacityOperation> {
    return this.operation('POST', this.address('/suspend'));
  }

  /** Starts it again. 200: nothing to do; 202: under way (Resuming, then running). */
  resume(): Promise<CapacityOperation> {
    return this.operation('POST', this.address('/resume'));
  }

  /**
   * Scales it to `sku` (PATCH with the SKU's name only: the tier is the capacity's own, and ARM keeps it). 200: done
   * (the same SKU, or a paused capacity); 202: Scaling.
   */
  setSku(sku: string): Promise<CapacityOperation> {
    return this.operation('PATCH', this.address(), { sku: { name: sku } });
  }

  private async operation(method: 'POST' | 'PATCH', url: string, body?: unknown): Promise<CapacityOperation> {
    const response = await this.send(method, url, body);
    // The body (none, or the capacity) says nothing the caller needs: get() reads the state.
    await response.body?.cancel().catch(() => undefined);
    return {
      accepted: response.status === 202,
      retryAfterSeconds: retryAfterSeconds(response),
      location: response.headers.get('location'),
    };
  }
}
