import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { simulatedFailure } from './error-codes.ts';
import { FaultQueue, sendGarbage } from './faults.ts';
import type { PowerBiError } from './power-bi-errors.ts';
import type { StandInContext } from './stand-in-context.ts';
import type {
  StandInAzureCapacity,
  StandInCapacityCall,
  StandInCapacityState,
  StandInCapacityTimings,
  StandIns,
  StandInReport,
} from './types.ts';

/*
 * Azure Resource Manager for the two kinds of capacity that serve Power BI content, as Microsoft's swaggers describe
 * them (Azure/azure-rest-api-specs):
 * - Power BI Embedded (A SKU): specification/powerbidedicated/…/stable/2021-01-01/powerbidedicated.json, api-version
 *   2021-01-01: Capacities_GetDetails, Capacities_Update (PATCH), Capacities_Suspend, Capacities_Resume;
 * - Fabric (F SKU): specification/fabric/…/stable/2023-11-01/fabric.json, api-version 2023-11-01: FabricCapacities_Get,
 *   FabricCapacities_Update, FabricCapacities_Suspend, FabricCapacities_Resume.
 * Long-running operations follow ARM's asynchronous pattern: 202 with Location (a URL to poll: 202 and Retry-After
 * while under way, 200 once done) and Retry-After in whole seconds.
 *
 * Where Microsoft is silent, the stand-in's choices (docs in types.ts, StandIns['capacities']):
 * - suspending a paused capacity, resuming a running one, or a PATCH to the SKU it has: nothing to do, 200 at once
 *   (Fabric's swagger documents only 202 for suspend and resume: there, 202 with an operation already over);
 * - asking for the operation already under way (suspend while pausing): 202 with the same operation's Location;
 * - another operation while one is under way (resume while pausing, suspend while scaling): 409 Conflict;
 * - scaling a paused capacity changes its SKU at once (200) and leaves it paused;
 * - the finished operation's Location answers 200 without a body.
 */

/** The resource audience of ARM's access tokens (Entra's v2 endpoint drops the trailing slash of the resource). */
export const ARM_RESOURCE = 'https://management.azure.com';
const ARM_AUDIENCES = [ARM_RESOURCE, `${ARM_RESOURCE}/`];

export const DEFAULT_CAPACITY_TIMINGS: Required<StandInCapacityTimings> = {
  resumeMs: 10_000,
  suspendMs: 2000,
  scaleMs: 5000,
};

/** The Power BI capacity id (a report's `capacityId`) of reports that name none: power-bi-exports.ts's default. */
export const DEFAULT_POWER_BI_CAPACITY_ID = 'capacidade-padrao';

interface Provider {
  kind: 'embedded' | 'fabric';
  /** As Microsoft spells it in the swagger's paths. */
  namespace: string;
  apiVersion: string;
  tier: string;
  runningState: string;
}

const PROVIDERS: readonly Provider[] = [
  {
    kind: 'embedded',
    namespace: 'Microsoft.PowerBIDedicated',
    apiVersion: '2021-01-01',
    tier: 'PBIE_Azure',
    runningState: 'Succeeded',
  },
  { kind: 'fabric', namespace: 'Microsoft.Fabric', apiVersion: '2023-11-01', tier: 'Fabric', runningState: 'Active' },
];

const providerOf = (kind: StandInAzureCapacity['kind']): Provider =>
  PROVIDERS.find((provider) => provider.kind === kind) ?? PROVIDERS[0]!;

type Transition = 'suspend' | 'resume' | 'scale';

interface Operation {
  id: string;
  capacity: CapacityRecord;
  transition: Transition;
  endsAt: number;
  done: boolean;
  timer: ReturnType<typeof setTimeout> | null;
}

/** A capacity as the stand-in holds it. */
export interface CapacityRecord {
  spec: StandInAzureCapacity;
  sku: string;
  phase: StandInCapacityState;
  role: boolean;
  tags: Record<string, string>;
  pending: Operation | null;
  /** A SKU being scaled to. */
  targetSku: string | null;
}

const LOCATION = 'brazilsouth';

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The ARM resource id of a capacity. */
export function capacityResourceId(spec: StandInAzureCapacity): string {
  return `/subscriptions/${spec.subscriptionId}/resourceGroups/${spec.resourceGroup}/providers/${providerOf(spec.kind).namespace}/capacities/${spec.name}`;
}

/** `state` and `provisioningState` as each provider writes them for a phase. */
function statesOf(kind: StandInAzureCapacity['kind'], phase: StandInCapacityState): [string, string] {
  if (kind === 'embedded') {
    const state = {
      running: 'Succeeded',
      pausing: 'Pausing',
      paused: 'Paused',
      resuming: 'Resuming',
      scaling: 'Scaling',
    }[phase];
    return [state, state];
  }
  const state = { running: 'Active', pausing: 'Pausing', paused: 'Paused', resuming: 'Resuming', scaling: 'Scaling' }[
    phase
  ];
  return [state, phase === 'running' || phase === 'paused' ? 'Succeeded' : 'Updating'];
}

/**
 * Why Power BI refuses to serve this report now (its capacity is not running), or null. Microsoft documents that
 * content on a paused capacity fails to load, but no REST error code for it: the stand-in answers 400
 * CapacityNotActive (the code Fabric's REST API gives for a paused capacity), the project's assumption.
 */
export function capacityOutage(ctx: StandInContext, report: StandInReport): PowerBiError | null {
  const id = report.capacityId ?? DEFAULT_POWER_BI_CAPACITY_ID;
  const capacity = ctx.armCapacities.find(
    (record) => (record.spec.powerBiCapacityId ?? DEFAULT_POWER_BI_CAPACITY_ID) === id && record.phase !== 'running',
  );
  if (!capacity) return null;
  const [state] = statesOf(capacity.spec.kind, capacity.phase);
  return {
    status: 400,
    code: 'CapacityNotActive',
    message: `The capacity '${capacity.spec.name}' of workspace ${report.workspaceId} is not active (state: ${state}).`,
  };
}

interface ArmError {
  status: number;
  code: string;
  message: string;
}

function sendArmError(reply: FastifyReply, { status, code, message }: ArmError): FastifyReply {
  return reply.code(status).send({ error: { code, message } });
}

const TRANSITION_PHASE: Record<Transition, StandInCapacityState> = {
  suspend: 'pausing',
  resume: 'resuming',
  scale: 'scaling',
};

/** The action ARM checks for each call, as the Azure role's permissions name it. */
const ACTIONS = {
  get: 'read',
  patch: 'write',
  suspend: 'suspend/action',
  resume: 'resume/action',
  poll: 'read',
} as const;

type CallName = StandInCapacityCall['action'];

export function registerAzureCapacities(
  app: FastifyInstance,
  ctx: StandInContext,
  initial: StandInAzureCapacity[],
  initialTimings: StandInCapacityTimings = {},
): StandIns['capacities'] {
  const faults = new FaultQueue();
  const jwks = createLocalJWKSet(ctx.keys.jwks);
  let timings = { ...DEFAULT_CAPACITY_TIMINGS, ...initialTimings };
  const operations = new Map<string, Operation>();
  const calls: StandInCapacityCall[] = [];

  for (const spec of initial) {
    if (ctx.armCapacities.some((record) => sameName(record.spec.name, spec.name))) {
      throw new RangeError(`capacity names must be unique: ${spec.name}`);
    }
    ctx.armCapacities.push({
      spec,
      sku: spec.sku,
      phase: spec.state === 'paused' ? 'paused' : 'running',
      role: spec.role ?? true,
      tags: {},
      pending: null,
      targetSku: null,
    });
  }

  function record(name: string): CapacityRecord {
    const found = ctx.armCapacities.find((candidate) => sameName(candidate.spec.name, name));
    if (!found) throw new RangeError(`no capacity named ${name}`);
    return found;
  }

  function finish(operation: Operation): void {
    if (operation.done) return;
    if (operation.timer) clearTimeout(operation.timer);
    operation.done = true;
    operation.timer = null;
    const capacity = operation.capacity;
    if (capacity.pending === operation) capacity.pending = null;
    if (operation.transition === 'suspend') capacity.phase = 'paused';
    else capacity.phase = 'running';
    if (operation.transition === 'scale' && capacity.targetSku) capacity.sku = capacity.targetSku;
    capacity.targetSku = null;
  }

  function start(capacity: CapacityRecord, transition: Transition): Operation {
    const ms = { suspend: timings.suspendMs, resume: timings.resumeMs, scale: timings.scaleMs }[transition];
    const operation: Operation = {
      id: randomUUID(),
      capacity,
      transition,
      endsAt: Date.now() + ms,
      done: false,
      timer: null,
    };
    capacity.phase = TRANSITION_PHASE[transition];
    capacity.pending = operation;
    operations.set(operation.id, operation);
    operation.timer = setTimeout(() => finish(operation), ms);
    // A timer must never keep a test's process (or the demo's shutdown) alive.
    operation.timer.unref?.();
    return operation;
  }

  /** An outside change (the Azure portal, a runbook): the capacity goes straight to its end state. */
  function setPhase(name: string, phase: 'paused' | 'running'): void {
    const capacity = record(name);
    if (capacity.pending) finish(capacity.pending);
    capacity.phase = phase;
  }

  function resourceObject(capacity: CapacityRecord): Record<string, unknown> {
    const { spec } = capacity;
    const provider = providerOf(spec.kind);
    const [state, provisioningState] = statesOf(spec.kind, capacity.phase);
    const administration = { members: ['admin@contoso.com.br'] };
    return {
      id: capacityResourceId(spec),
      name: spec.name,
      type: `${provider.namespace}/capacities`,
      location: LOCATION,
      sku:
        spec.kind === 'embedded'
          ? { name: capacity.sku, tier: provider.tier, capacity: 1 }
          : { name: capacity.sku, tier: provider.tier },
      tags: capacity.tags,
      properties:
        spec.kind === 'embedded'
          ? { administration, mode: 'Gen2', state, provisioningState, friendlyName: spec.name, tenantId: ctx.tenantId }
          : { administration, state, provisioningState },
    };
  }

  /** The Location of an operation: where ARM's async pattern points the client to poll. */
  function locationOf(operation: Operation): string {
    const { spec } = operation.capacity;
    const provider = providerOf(spec.kind);
    return `${ctx.authorityHost}/subscriptions/${spec.subscriptionId}/providers/${provider.namespace}/locations/${LOCATION}/operationresults/${operation.id}?api-version=${provider.apiVersion}`;
  }

  const retryAfterOf = (operation: Operation) => String(Math.max(1, Math.ceil((operation.endsAt - Date.now()) / 1000)));

  function accepted(reply: FastifyReply, operation: Operation, body?: unknown): FastifyReply {
    reply.code(202).header('Location', locationOf(operation)).header('Retry-After', retryAfterOf(operation));
    return body === undefined ? reply.send() : reply.send(body);
  }

  /** The caller's claims, or ARM's refusal of its token. */
  async function authenticate(header: string | undefined): Promise<{ caller: JWTPayload } | { error: ArmError }> {
    const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
    if (!token) {
      return {
        error: {
          status: 401,
          code: 'AuthenticationFailed',
          message: "Authentication failed. The 'Authorization' header is missing.",
        },
      };
    }
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: ctx.issuer,
        audience: ARM_AUDIENCES,
        algorithms: ['RS256'],
      });
      return { caller: payload };
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        return {
          error: {
            status: 401,
            code: 'ExpiredAuthenticationToken',
            message: 'The access token expiry UTC time is earlier than current UTC time.',
          },
        };
      }
      return {
        error: {
          status: 401,
          code: 'InvalidAuthenticationToken',
          message: 'The access token is invalid.',
        },
      };
    }
  }

  type CapacityRoute = {
    Params: { subscriptionId: string; resourceGroup: string; namespace: string; name: string };
    Querystring: Record<string, unknown>;
  };

  /** Checks what ARM checks before the provider sees a call: token, api-version, resource, role. */
  async function admit(
    request: FastifyRequest<CapacityRoute>,
    reply: FastifyReply,
    action: CallName,
  ): Promise<CapacityRecord | null> {
    const { subscriptionId, resourceGroup, namespace, name } = request.params;
    const provider = PROVIDERS.find((candidate) => sameName(candidate.namespace, namespace));
    const authenticated = await authenticate(request.headers.authorization);
    if ('error' in authenticated) {
      sendArmError(reply, authenticated.error);
      return null;
    }
    if (!provider) {
      sendArmError(reply, {
        status: 400,
        code: 'InvalidResourceNamespace',
        message: `The resource namespace '${namespace}' is invalid.`,
      });
      return null;
    }
    const apiVersion = request.query['api-version'];
    if (typeof apiVersion !== 'string' || apiVersion === '') {
      sendArmError(reply, {
        status: 400,
        code: 'MissingApiVersionParameter',
        message: 'The api-version query parameter (?api-version=) is required for all requests.',
      });
      return null;
    }
    if (apiVersion !== provider.apiVersion) {
      sendArmError(reply, {
        status: 400,
        code: 'InvalidApiVersionParameter',
        message: `The api-version '${apiVersion}' is invalid. The supported versions are '${provider.apiVersion}'.`,
      });
      return null;
    }
    const capacity = ctx.armCapacities.find(
      (candidate) =>
        candidate.spec.kind === provider.kind &&
        sameName(candidate.spec.name, name) &&
        sameName(candidate.spec.resourceGroup, resourceGroup) &&
        sameName(candidate.spec.subscriptionId, subscriptionId),
    );
    const scope = `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}/providers/${provider.namespace}/capacities/${name}`;
    // ARM checks the role on the scope before it looks the resource up: without it, even a missing one is a 403.
    if (!(capacity ? capacity.role : true)) {
      const caller = authenticated.caller;
      const client = typeof caller.appid === 'string' ? caller.appid : typeof caller.azp === 'string' ? caller.azp : '';
      const objectId = typeof caller.oid === 'string' ? caller.oid : '';
      sendArmError(reply, {
        status: 403,
        code: 'AuthorizationFailed',
        message: `The client '${client}' with object id '${objectId}' does not have authorization to perform action '${provider.namespace}/capacities/${ACTIONS[action]}' over scope '${scope}' or the scope is invalid. If access was recently granted, please refresh your credentials.`,
      });
      return null;
    }
    if (!capacity) {
      sendArmError(reply, {
        status: 404,
        code: 'ResourceNotFound',
        message: `The Resource '${provider.namespace}/capacities/${name}' under resource group '${resourceGroup}' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix`,
      });
      return null;
    }
    calls.push({ method: request.method, action, capacity: capacity.spec.name });
    return capacity;
  }

  /** A queued fault for a call ARM would serve; true when it answered. */
  function playFault(reply: FastifyReply, capacity: CapacityRecord): boolean {
    const fault = faults.take();
    if (!fault) return false;
    const sample = JSON.stringify(resourceObject(capacity));
    switch (fault.kind) {
      case 'fail': {
        if (fault.status === 429) reply.header('Retry-After', '1');
        sendArmError(reply, simulatedFailure('arm', fault.status));
        return true;
      }
      case 'throttle':
        if (fault.retryAfter !== null) reply.header('Retry-After', fault.retryAfter);
        sendArmError(reply, {
          status: 429,
          code: 'TooManyRequests',
          message: 'The request is being throttled (simulated throttling).',
        });
        return true;
      case 'hang':
        faults.hang(reply, fault.stage, sample);
        return true;
      case 'garbage':
        sendGarbage(reply, fault.garbage, { id: 7, properties: 'nenhuma' }, sample);
        return true;
    }
  }

  const conflict = (capacity: CapacityRecord): ArmError => ({
    status: 409,
    code: 'Conflict',
    message: `The capacity '${capacity.spec.name}' is busy with another operation (state: ${statesOf(capacity.spec.kind, capacity.phase)[0]}); try again when it ends.`,
  });

  function transition(reply: FastifyReply, capacity: CapacityRecord, wanted: 'suspend' | 'resume'): FastifyReply {
    const pending = capacity.pending;
    if (pending && pending.transition === wanted) return accepted(reply, pending);
    if (pending) return sendArmError(reply, conflict(capacity));
    const done = wanted === 'suspend' ? capacity.phase === 'paused' : capacity.phase === 'running';
    if (!done) return accepted(reply, start(capacity, wanted));
    // The A SKU's swagger has a 200 for this; Fabric's has only the 202, so an operation already over.
    if (capacity.spec.kind === 'embedded') return reply.code(200).send();
    const over: Operation = {
      id: randomUUID(),
      capacity,
      transition: wanted,
      endsAt: Date.now(),
      done: true,
      timer: null,
    };
    operations.set(over.id, over);
    return accepted(reply, over);
  }

  app.register(async (arm) => {
    arm.addHook('onRequest', async (_request, reply) => {
      reply.header('x-ms-request-id', randomUUID()).header('cache-control', 'no-cache');
    });
    arm.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      return sendArmError(reply, {
        status,
        code: status === 500 ? 'InternalServerError' : 'InvalidRequestContent',
        message: error.message,
      });
    });

    const base = '/subscriptions/:subscriptionId/resourceGroups/:resourceGroup/providers/:namespace/capacities/:name';

    arm.get<CapacityRoute>(base, async (request, reply) => {
      const capacity = await admit(request, reply, 'get');
      if (!capacity || playFault(reply, capacity)) return reply;
      return resourceObject(capacity);
    });

    arm.post<CapacityRoute>(`${base}/suspend`, async (request, reply) => {
      const capacity = await admit(request, reply, 'suspend');
      if (!capacity || playFault(reply, capacity)) return reply;
      return transition(reply, capacity, 'suspend');
    });

    arm.post<CapacityRoute>(`${base}/resume`, async (request, reply) => {
      const capacity = await admit(request, reply, 'resume');
      if (!capacity || playFault(reply, capacity)) return reply;
      return transition(reply, capacity, 'resume');
    });

    arm.patch<CapacityRoute>(base, async (request, reply) => {
      const capacity = await admit(request, reply, 'patch');
      if (!capacity || playFault(reply, capacity)) return reply;
      const body = request.body;
      const invalid = (message: string) => sendArmError(reply, { status: 400, code: 'InvalidRequestContent', message });
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return invalid('The request content must be a JSON object.');
      }
      const { sku, tags, properties } = body as Record<string, unknown>;
      if (tags !== undefined && (typeof tags !== 'object' || tags === null || Array.isArray(tags))) {
        return invalid("'tags' must be an object of strings.");
      }
      if (properties !== undefined && (typeof properties !== 'object' || properties === null)) {
        return invalid("'properties' must be an object.");
      }
      let newSku: string | null = null;
      if (sku !== undefined) {
        const skuObject = sku as Record<string, unknown> | null;
        if (typeof skuObject !== 'object' || skuObject === null || typeof skuObject.name !== 'string') {
          return invalid("'sku.name' must be a string.");
        }
        const tier = providerOf(capacity.spec.kind).tier;
        if (skuObject.tier !== undefined && skuObject.tier !== tier) {
          return invalid(
            `The SKU tier '${JSON.stringify(skuObject.tier)}' is not valid for this capacity; it is '${tier}'.`,
          );
        }
        const valid = capacity.spec.kind === 'embedded' ? /^A[1-8]$/ : /^F(2|4|8|16|32|64|128|256|512|1024|2048)$/;
        if (!valid.test(skuObject.name)) {
          return sendArmError(reply, {
            status: 400,
            code: 'BadRequest',
            message: `The SKU '${skuObject.name}' is not valid for a ${capacity.spec.kind === 'embedded' ? 'Power BI Embedded' : 'Fabric'} capacity.`,
          });
        }
        newSku = skuObject.name;
      }
      if (tags) capacity.tags = Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, String(v)]));
      if (newSku === null || newSku === capacity.sku) return reply.code(200).send(resourceObject(capacity));
      if (capacity.pending) return sendArmError(reply, conflict(capacity));
      if (capacity.phase === 'paused') {
        capacity.sku = newSku;
        return reply.code(200).send(resourceObject(capacity));
      }
      capacity.targetSku = newSku;
      const operation = start(capacity, 'scale');
      // The A SKU's swagger gives its 202 a DedicatedCapacity body; Fabric's none.
      return accepted(reply, operation, capacity.spec.kind === 'embedded' ? resourceObject(capacity) : undefined);
    });

    type OperationRoute = {
      Params: { subscriptionId: string; namespace: string; location: string; operationId: string };
      Querystring: Record<string, unknown>;
    };
    arm.get<OperationRoute>(
      '/subscriptions/:subscriptionId/providers/:namespace/locations/:location/operationresults/:operationId',
      async (request, reply) => {
        const authenticated = await authenticate(request.headers.authorization);
        if ('error' in authenticated) return sendArmError(reply, authenticated.error);
        const operation = operations.get(request.params.operationId);
        if (!operation || !sameName(operation.capacity.spec.subscriptionId, request.params.subscriptionId)) {
          return sendArmError(reply, {
            status: 404,
            code: 'NotFound',
            message: `The operation '${request.params.operationId}' was not found.`,
          });
        }
        calls.push({ method: 'GET', action: 'poll', capacity: operation.capacity.spec.name });
        if (playFault(reply, operation.capacity)) return reply;
        if (!operation.done) return accepted(reply, operation);
        return reply.code(200).send();
      },
    );
  });

  const toPhase = (name: string) => record(name).phase;

  return {
    ...faults.controls,
    state: toPhase,
    sku: (name) => record(name).sku,
    setRole(name, role) {
      record(name).role = role;
    },
    setTimings(next) {
      timings = { ...timings, ...next };
    },
    pause: (name) => setPhase(name, 'paused'),
    resume: (name) => setPhase(name, 'running'),
    settle() {
      for (const operation of operations.values()) finish(operation);
    },
    resourceId: (name) => capacityResourceId(record(name).spec),
    reset() {
      faults.reset();
      calls.length = 0;
      for (const operation of operations.values()) finish(operation);
      operations.clear();
      timings = { ...DEFAULT_CAPACITY_TIMINGS, ...initialTimings };
    },
    calls,
  };
}
