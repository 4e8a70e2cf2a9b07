import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startStandIns } from './stand-ins.ts';
import { appToken, powerBiToken, testReport, vendas } from './test-helpers.ts';
import type { StandInAzureCapacity, StandIns } from './types.ts';

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
  state: 'paused',
  powerBiCapacityId: 'capacidade-fabric',
};
/** A report on the Fabric capacity; `vendas` is on the default one, the embedded capacity's. */
const financas = testReport(2, { name: 'Finanças', rls: false, capacityId: 'capacidade-fabric' });

const EMBEDDED_VERSION = '2021-01-01';
const FABRIC_VERSION = '2023-11-01';

let s: StandIns;
let token: string;

beforeAll(async () => {
  s = await startStandIns({
    people: [],
    reports: [vendas, financas],
    capacities: [embedded, fabric],
    capacityTimings: { resumeMs: 10_000, suspendMs: 10_000, scaleMs: 10_000 },
    recordExchanges: true,
  });
  token = await appToken(s, 'https://management.azure.com');
});
afterAll(() => s.close());
afterEach(() => {
  s.capacities.reset();
  for (const name of [embedded.name, fabric.name]) s.capacities.setRole(name, true);
  s.capacities.resume(embedded.name);
  s.capacities.pause(fabric.name);
});

const url = (capacity: StandInAzureCapacity, action = '', version?: string) =>
  `${s.managementUrl}${s.capacities.resourceId(capacity.name)}${action}?api-version=${
    version ?? (capacity.kind === 'embedded' ? EMBEDDED_VERSION : FABRIC_VERSION)
  }`;

function arm(address: string, init: RequestInit = {}, bearer: string | null = token): Promise<Response> {
  return fetch(address, {
    ...init,
    headers: {
      ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
  });
}

async function capacityOf(capacity: StandInAzureCapacity): Promise<{
  sku: { name: string; tier: string };
  properties: { state: string; provisioningState: string };
}> {
  const response = await arm(url(capacity));
  expect(response.status).toBe(200);
  return (await response.json()) as never;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Azure Resource Manager capacities (stand-in)', () => {
  it('answers GET with the resource as each provider writes it', async () => {
    const a = await capacityOf(embedded);
    expect(a).toMatchObject({
      id: `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-paineis/providers/Microsoft.PowerBIDedicated/capacities/paineisa1`,
      name: 'paineisa1',
      type: 'Microsoft.PowerBIDedicated/capacities',
      sku: { name: 'A1', tier: 'PBIE_Azure' },
      properties: { state: 'Succeeded', provisioningState: 'Succeeded' },
    });
    const f = await capacityOf(fabric);
    expect(f).toMatchObject({
      type: 'Microsoft.Fabric/capacities',
      sku: { name: 'F2', tier: 'Fabric' },
      properties: { state: 'Paused', provisioningState: 'Succeeded' },
    });
  });

  it('suspends through Pausing with 202, Location and Retry-After, and the Location answers 202 then 200', async () => {
    const response = await arm(url(embedded, '/suspend'), { method: 'POST' });
    expect(response.status).toBe(202);
    const location = response.headers.get('location');
    expect(location).toMatch(
      new RegExp(
        `^${s.managementUrl}/subscriptions/${SUBSCRIPTION}/providers/Microsoft.PowerBIDedicated/locations/\\w+/operationresults/[0-9a-f-]+\\?api-version=2021-01-01$`,
      ),
    );
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await capacityOf(embedded)).properties).toEqual(
      expect.objectContaining({ state: 'Pausing', provisioningState: 'Pausing' }),
    );
    const polled = await arm(location!);
    expect(polled.status).toBe(202);
    expect(polled.headers.get('retry-after')).toMatch(/^([1-9]|10)$/);
    s.capacities.settle();
    expect((await arm(location!)).status).toBe(200);
    expect((await capacityOf(embedded)).properties.state).toBe('Paused');
    expect(s.capacities.state(embedded.name)).toBe('paused');
  });

  it('resumes a Fabric capacity through Resuming to Active', async () => {
    const response = await arm(url(fabric, '/resume'), { method: 'POST' });
    expect(response.status).toBe(202);
    expect((await capacityOf(fabric)).properties).toEqual(
      expect.objectContaining({ state: 'Resuming', provisioningState: 'Updating' }),
    );
    s.capacities.settle();
    expect((await capacityOf(fabric)).properties).toEqual(
      expect.objectContaining({ state: 'Active', provisioningState: 'Succeeded' }),
    );
  });

  it('answers 200 (Fabric: 202 already over) when there is nothing to do, the same Location for the same operation, 409 for another', async () => {
    expect((await arm(url(embedded, '/resume'), { method: 'POST' })).status).toBe(200);
    const fabricAgain = await arm(url(fabric, '/suspend'), { method: 'POST' });
    expect(fabricAgain.status).toBe(202);
    expect((await arm(fabricAgain.headers.get('location')!)).status).toBe(200);
    const first = await arm(url(embedded, '/suspend'), { method: 'POST' });
    const again = await arm(url(embedded, '/suspend'), { method: 'POST' });
    expect(again.status).toBe(202);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    const other = await arm(url(embedded, '/resume'), { method: 'POST' });
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ error: { code: 'Conflict' } });
  });

  it('scales with PATCH sku through Scaling to the new SKU; the same SKU or tags alone answer 200', async () => {
    const same = await arm(url(embedded), { method: 'PATCH', body: JSON.stringify({ sku: { name: 'A1' } }) });
    expect(same.status).toBe(200);
    const tags = await arm(url(embedded), { method: 'PATCH', body: JSON.stringify({ tags: { custo: 'ti' } }) });
    expect(await tags.json()).toMatchObject({ tags: { custo: 'ti' } });

    const scaled = await arm(url(embedded), {
      method: 'PATCH',
      body: JSON.stringify({ sku: { name: 'A2', tier: 'PBIE_Azure' } }),
    });
    expect(scaled.status).toBe(202);
    expect(scaled.headers.get('location')).toContain('/operationresults/');
    // The A SKU's 202 carries the capacity, as its swagger says.
    expect(await scaled.json()).toMatchObject({ properties: { state: 'Scaling' }, sku: { name: 'A1' } });
    s.capacities.settle();
    expect(await capacityOf(embedded)).toMatchObject({ sku: { name: 'A2' }, properties: { state: 'Succeeded' } });

    const badSku = await arm(url(embedded), { method: 'PATCH', body: JSON.stringify({ sku: { name: 'F64' } }) });
    expect(badSku.status).toBe(400);
  });

  it('refuses a wrong or missing api-version, a missing or foreign token, and an unknown capacity', async () => {
    const wrong = await arm(url(embedded, '', FABRIC_VERSION));
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: { code: 'InvalidApiVersionParameter' } });
    const missing = await arm(url(embedded).replace(/\?.*$/, ''));
    expect(await missing.json()).toMatchObject({ error: { code: 'MissingApiVersionParameter' } });
    const anonymous = await arm(url(embedded), {}, null);
    expect(anonymous.status).toBe(401);
    const powerBi = await arm(url(embedded), {}, await powerBiToken(s));
    expect(powerBi.status).toBe(401);
    expect(await powerBi.json()).toMatchObject({ error: { code: 'InvalidAuthenticationToken' } });
    const unknown = await arm(url(embedded).replace('paineisa1', 'outra'));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'ResourceNotFound' } });
  });

  it('refuses every call 403 AuthorizationFailed without the Azure role, in ARM words', async () => {
    s.capacities.setRole(embedded.name, false);
    const response = await arm(url(embedded, '/suspend'), { method: 'POST' });
    expect(response.status).toBe(403);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('AuthorizationFailed');
    expect(error.message).toMatch(
      new RegExp(
        `^The client '${s.clientId}' with object id '[0-9a-f-]+' does not have authorization to perform action ` +
          `'Microsoft.PowerBIDedicated/capacities/suspend/action' over scope '/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-paineis/providers/Microsoft.PowerBIDedicated/capacities/paineisa1' ` +
          'or the scope is invalid. If access was recently granted, please refresh your credentials.$',
      ),
    );
    expect(s.capacities.state(embedded.name)).toBe('running');
    expect((await arm(url(embedded))).status).toBe(403);
  });

  it('lists the calls made, and its faults answer in ARM’s error shape', async () => {
    await arm(url(embedded));
    const started = await arm(url(embedded, '/suspend'), { method: 'POST' });
    await arm(started.headers.get('location')!);
    expect(s.capacities.calls).toEqual([
      { method: 'GET', action: 'get', capacity: 'paineisa1' },
      { method: 'POST', action: 'suspend', capacity: 'paineisa1' },
      { method: 'GET', action: 'poll', capacity: 'paineisa1' },
    ]);
    s.capacities.failNext(503);
    const failed = await arm(url(embedded));
    expect(failed.status).toBe(503);
    expect(await failed.json()).toMatchObject({ error: { code: 'ServiceUnavailable' } });
  });

  it('ends an operation when its time has passed', async () => {
    s.capacities.setTimings({ suspendMs: 50 });
    await arm(url(embedded, '/suspend'), { method: 'POST' });
    await sleep(300);
    expect(s.capacities.state(embedded.name)).toBe('paused');
  });

  it('uses the timings set, and an outside pause ends what was under way', async () => {
    s.capacities.setTimings({ resumeMs: 60_000 });
    await arm(url(fabric, '/resume'), { method: 'POST' });
    expect(s.capacities.state(fabric.name)).toBe('resuming');
    s.capacities.pause(fabric.name);
    expect(s.capacities.state(fabric.name)).toBe('paused');
  });
});

describe('Power BI while its capacity is not running (stand-in)', () => {
  async function generateToken(report: typeof vendas): Promise<Response> {
    return fetch(`${s.powerBiApiUrl}/v1.0/myorg/GenerateToken`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await powerBiToken(s)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reports: [{ id: report.reportId }], datasets: [{ id: report.datasetId }] }),
    });
  }

  async function exportTo(report: typeof vendas): Promise<Response> {
    return fetch(`${s.powerBiApiUrl}/v1.0/myorg/groups/${report.workspaceId}/reports/${report.reportId}/ExportTo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await powerBiToken(s)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'PDF', powerBIReportConfiguration: {} }),
    });
  }

  it('refuses GenerateToken and ExportTo 400 CapacityNotActive for reports on a paused capacity only', async () => {
    const refused = await generateToken(financas);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'CapacityNotActive' } });
    expect((await exportTo(financas)).status).toBe(400);
    expect((await generateToken(vendas)).status).toBe(200);

    s.capacities.resume(fabric.name);
    expect((await generateToken(financas)).status).toBe(200);
    expect((await exportTo(financas)).status).toBe(202);
  });

  it('refuses while the capacity is pausing or scaling too', async () => {
    await arm(url(embedded, '/suspend'), { method: 'POST' });
    expect(s.capacities.state(embedded.name)).toBe('pausing');
    expect((await generateToken(vendas)).status).toBe(400);
    s.capacities.resume(embedded.name);
    await arm(url(embedded), { method: 'PATCH', body: JSON.stringify({ sku: { name: 'A3' } }) });
    expect(s.capacities.state(embedded.name)).toBe('scaling');
    expect((await generateToken(vendas)).status).toBe(400);
    s.capacities.settle();
    expect((await generateToken(vendas)).status).toBe(200);
  });

  it('serves the embed page set to fail to load (OpenConnectionError) while the capacity is paused', async () => {
    const page = async (report: typeof vendas) =>
      (await fetch(`${s.embedHostUrl}?reportId=${report.reportId}&groupId=${report.workspaceId}`)).text();
    expect(await page(financas)).toContain('"capacidadePausada":true');
    expect(await page(vendas)).toContain('"capacidadePausada":false');
  });

  it('a stand-in started without capacities serves Power BI as before', async () => {
    const plain = await startStandIns({ people: [], reports: [vendas] });
    try {
      const response = await fetch(`${plain.powerBiApiUrl}/v1.0/myorg/GenerateToken`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await powerBiToken(plain)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ reports: [{ id: vendas.reportId }], datasets: [{ id: vendas.datasetId }] }),
      });
      expect(response.status).toBe(200);
    } finally {
      await plain.close();
    }
  });
});
