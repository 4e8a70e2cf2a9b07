import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkExchange } from '@paineis/microsoft-api/check-exchange';
import { startStandIns } from './stand-ins.ts';
import { vendas } from './test-helpers.ts';
import type { StandIns } from './types.ts';

/**
 * The refusals the fault controls play must be refusals Microsoft could send: each in its service's error shape,
 * with the headers Microsoft describes (docs/decisions/016-microsoft-contract-tests.md). The portal's tests of
 * its error paths rely on them being realistic.
 */

const STATUSES = [400, 401, 403, 404, 409, 429, 500, 502, 503, 504];
const CAPACITY = {
  subscriptionId: '0d0d0d0d-0000-4000-8000-000000000001',
  resourceGroup: 'rg-paineis',
  name: 'paineisf2',
  kind: 'fabric',
  sku: 'F2',
} as const;

describe('the stand-ins’ fault answers, against Microsoft’s descriptions', () => {
  let s: StandIns;
  const tokens: Record<string, string> = {};
  const clientCredentials = async (scope: string) => {
    const response = await fetch(`${s.authorityHost}/${s.tenantId}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: s.clientId,
        client_secret: s.clientSecret,
        scope,
      }),
    });
    return response;
  };
  const graphUsers = () =>
    fetch(`${s.graphUrl}/v1.0/users?$select=id,displayName&$top=5`, {
      headers: { authorization: `Bearer ${tokens.graph}` },
    });
  const getReport = () =>
    fetch(`${s.powerBiApiUrl}/v1.0/myorg/groups/${vendas.workspaceId}/reports/${vendas.reportId}`, {
      headers: { authorization: `Bearer ${tokens.powerBi}` },
    });
  const getCapacity = () =>
    fetch(`${s.managementUrl}${s.capacities.resourceId(CAPACITY.name)}?api-version=2023-11-01`, {
      headers: { authorization: `Bearer ${tokens.arm}` },
    });
  /** The violations of the last exchange, as `at: message`. */
  const lastViolations = () => checkExchange(s.exchanges.at(-1)!).map((v) => `${v.at}: ${v.message}`);

  beforeAll(async () => {
    // An application id as Entra issues them (a GUID), so that the calls' own checks pass.
    s = await startStandIns({
      people: [],
      reports: [vendas],
      clientId: '6731de76-14a6-49ae-97bc-6eba6914391e',
      capacities: [CAPACITY],
      recordExchanges: true,
    });
    const token = async (scope: string) =>
      ((await (await clientCredentials(scope)).json()) as { access_token: string }).access_token;
    tokens.graph = await token('https://graph.microsoft.com/.default');
    tokens.powerBi = await token('https://analysis.windows.net/powerbi/api/.default');
    tokens.arm = await token('https://management.azure.com/.default');
  });
  afterAll(() => s.close());
  beforeEach(() => {
    s.clearExchanges();
    s.graph.reset();
    s.powerBi.reset();
    s.identity.reset();
    s.capacities.reset();
  });

  it.each(STATUSES)('Graph and Power BI answer a failure %i in their error shapes', async (status) => {
    s.graph.failNext(status);
    expect((await graphUsers()).status).toBe(status);
    expect(lastViolations()).toEqual([]);
    s.powerBi.failNext(status);
    expect((await getReport()).status).toBe(status);
    expect(lastViolations()).toEqual([]);
  });

  it('throttle with a Retry-After in seconds, as an HTTP-date, or none; and flag a Retry-After that is neither', async () => {
    for (const retryAfter of [7, 'Wed, 21 Oct 2015 07:28:00 GMT', null]) {
      s.graph.throttleNext(retryAfter);
      expect((await graphUsers()).status).toBe(429);
      expect(lastViolations()).toEqual([]);
      s.powerBi.throttleNext(retryAfter);
      expect((await getReport()).status).toBe(429);
      expect(lastViolations()).toEqual([]);
    }
    // The fault controls can play a Retry-After no service would send, to test the portal; the schemas see it.
    s.graph.throttleNext('depois');
    await graphUsers();
    expect(lastViolations()).toEqual(['header retry-after: not delay-seconds nor an HTTP-date']);
  });

  it.each(STATUSES)('Azure Resource Manager answers a failure %i in its error shape', async (status) => {
    s.capacities.failNext(status);
    expect((await getCapacity()).status).toBe(status);
    expect(lastViolations()).toEqual([]);
  });

  it('Azure Resource Manager throttles with a Retry-After in seconds, and its answer conforms otherwise', async () => {
    s.capacities.throttleNext(7);
    expect((await getCapacity()).status).toBe(429);
    expect(lastViolations()).toEqual([]);
    expect((await getCapacity()).status).toBe(200);
    expect(lastViolations()).toEqual([]);
  });

  it('Entra’s token endpoint errors carry error_codes, timestamp, trace_id and correlation_id', async () => {
    s.identity.token.failNext(503);
    const answer = await clientCredentials('https://graph.microsoft.com/.default');
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({
      error: 'temporarily_unavailable',
      error_codes: expect.any(Array),
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/),
      trace_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      correlation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(lastViolations()).toEqual([]);
  });
});
