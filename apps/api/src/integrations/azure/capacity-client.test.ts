import type { StandInAzureCapacity } from '@paineis/microsoft-stand-ins/types';
import { afterEach, describe, expect, it } from 'vitest';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import { AZURE_REFUSED_ROLE, microsoftErrorAnswer } from '../../plugins/microsoft-error-answers.ts';
import { MicrosoftError } from '../microsoft-error.ts';
import { EntraClient } from '../microsoft-identity/entra-client.ts';
import {
  AUTHORIZATION_FAILED,
  CapacityClient,
  parseCapacityResourceId,
  type CapacityResource,
} from './capacity-client.ts';

/** The portal's client of Azure Resource Manager's capacities, against the stand-in ARM, for both kinds. */

const SUBSCRIPTION = '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const embedded: StandInAzureCapacity = {
  subscriptionId: SUBSCRIPTION,
  resourceGroup: 'rg-paineis',
  name: 'paineisa1',
  kind: 'embedded',
  sku: 'A1',
};
const fabric: StandInAzureCapacity = {
  subscriptionId: SUBSCRIPTION,
  resourceGroup: 'rg-paineis',
  name: 'paineisf2',
  kind: 'fabric',
  sku: 'F2',
  powerBiCapacityId: 'capacidade-fabric',
};

describe('parseCapacityResourceId', () => {
  it('reads both providers, whatever the case of the provider', () => {
    const id = `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-paineis/providers/Microsoft.PowerBIDedicated/capacities/paineisa1`;
    expect(parseCapacityResourceId(id)).toEqual({
      subscriptionId: SUBSCRIPTION,
      resourceGroup: 'rg-paineis',
      name: 'paineisa1',
      kind: 'embedded',
      id,
    });
    expect(
      parseCapacityResourceId('/subscriptions/s/resourceGroups/g/providers/MICROSOFT.FABRIC/capacities/paineisf2'),
    ).toMatchObject({ kind: 'fabric', name: 'paineisf2' });
  });

  it.each([
    '',
    'paineisa1',
    '/subscriptions/s/resourceGroups/g/providers/Microsoft.Web/sites/portal',
    '/subscriptions/s/resourceGroups/g/providers/Microsoft.Fabric/capacities/',
    '/subscriptions/s/resourceGroups/g/providers/Microsoft.Fabric/capacities/a/b',
  ])('refuses %j in Portuguese', (id) => {
    expect(() => parseCapacityResourceId(id)).toThrow(/^O id da capacidade deve ser o id de recurso do Azure/);
  });
});

describe('the capacity client', () => {
  const standIns = useStandIns({
    people: [],
    capacities: [embedded, fabric],
    capacityTimings: { resumeMs: 60_000, suspendMs: 60_000, scaleMs: 60_000 },
  });
  const client = (capacity: StandInAzureCapacity) => {
    const s = standIns.current;
    const resource: CapacityResource = parseCapacityResourceId(s.capacities.resourceId(capacity.name));
    const entra = new EntraClient(microsoftConfig(s).microsoft!);
    return new CapacityClient(s.managementUrl, entra, resource, { sleep: async () => undefined });
  };

  afterEach(() => {
    const s = standIns.current;
    s.capacities.reset();
    s.capacities.setRole(embedded.name, true);
    s.capacities.resume(embedded.name);
    s.capacities.resume(fabric.name);
  });

  it('reads an A SKU and an F SKU with their states as Azure gives them', async () => {
    expect(await client(embedded).get()).toEqual({
      kind: 'embedded',
      name: 'paineisa1',
      sku: 'A1',
      state: 'Succeeded',
      provisioningState: 'Succeeded',
    });
    expect(await client(fabric).get()).toEqual({
      kind: 'fabric',
      name: 'paineisf2',
      sku: 'F2',
      state: 'Active',
      provisioningState: 'Succeeded',
    });
  });

  it('suspends: accepted with the Location and Retry-After, Pausing, then Paused; again: nothing to do', async () => {
    const c = client(embedded);
    const started = await c.suspend();
    expect(started.accepted).toBe(true);
    expect(started.location).toContain('/operationresults/');
    expect(started.retryAfterSeconds).toBeGreaterThan(0);
    expect((await c.get()).state).toBe('Pausing');
    standIns.current.capacities.settle();
    expect((await c.get()).state).toBe('Paused');
    expect(await c.suspend()).toEqual({ accepted: false, retryAfterSeconds: null, location: null });
  });

  it('resumes a paused Fabric capacity through Resuming to Active', async () => {
    standIns.current.capacities.pause(fabric.name);
    const c = client(fabric);
    expect((await c.resume()).accepted).toBe(true);
    expect(await c.get()).toMatchObject({ state: 'Resuming', provisioningState: 'Updating' });
    standIns.current.capacities.settle();
    expect((await c.get()).state).toBe('Active');
  });

  it('changes the SKU with PATCH: Scaling, then the new SKU; the same SKU is nothing to do', async () => {
    const c = client(embedded);
    expect((await c.setSku('A1')).accepted).toBe(false);
    const scaling = await c.setSku('A2');
    expect(scaling.accepted).toBe(true);
    expect(await c.get()).toMatchObject({ sku: 'A1', state: 'Scaling' });
    standIns.current.capacities.settle();
    expect(await c.get()).toMatchObject({ sku: 'A2', state: 'Succeeded' });
    await c.setSku('A1');
    standIns.current.capacities.settle();
  });

  it('calls ARM as Microsoft documents: the api-version of each provider and the ARM token', async () => {
    await client(embedded).get();
    await client(fabric).suspend();
    expect(standIns.current.capacities.calls).toEqual([
      { method: 'GET', action: 'get', capacity: 'paineisa1' },
      { method: 'POST', action: 'suspend', capacity: 'paineisf2' },
    ]);
  });

  it('without the Azure role: refused, AuthorizationFailed, in Portuguese, answered 502 with what is missing', async () => {
    standIns.current.capacities.setRole(embedded.name, false);
    const error = await client(embedded)
      .suspend()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MicrosoftError);
    const failure = error as MicrosoftError;
    expect(failure).toMatchObject({ service: 'azure', failure: 'refused', message: AUTHORIZATION_FAILED });
    expect(failure.status).toBe(403);
    expect(failure.code).toBe('AuthorizationFailed');
    expect(failure.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(microsoftErrorAnswer(failure)).toEqual({ status: 502, message: AZURE_REFUSED_ROLE });
    expect(standIns.current.capacities.state(embedded.name)).toBe('running');
  });

  it('retries a 503 and a 429, and reports a capacity that stays unavailable as unavailable', async () => {
    const c = client(embedded);
    standIns.current.capacities.failNext(503);
    standIns.current.capacities.throttleNext(1);
    expect((await c.get()).sku).toBe('A1');
    standIns.current.capacities.failNext(503, 10);
    await expect(c.get()).rejects.toMatchObject({ service: 'azure', failure: 'unavailable', status: 503 });
  });

  it('reports an answer it cannot read as malformed', async () => {
    standIns.current.capacities.garbageNext('wrong-shape');
    await expect(client(embedded).get()).rejects.toMatchObject({ service: 'azure', failure: 'malformed' });
    standIns.current.capacities.garbageNext('wrong-content-type');
    await expect(client(embedded).get()).rejects.toMatchObject({ service: 'azure', failure: 'malformed' });
  });

  it('reports an unknown capacity as refused (404 ResourceNotFound)', async () => {
    const s = standIns.current;
    const entra = new EntraClient(microsoftConfig(s).microsoft!);
    const missing = parseCapacityResourceId(s.capacities.resourceId(embedded.name).replace('paineisa1', 'outra'));
    await expect(new CapacityClient(s.managementUrl, entra, missing).get()).rejects.toMatchObject({
      failure: 'refused',
      status: 404,
      code: 'ResourceNotFound',
    });
  });
});
