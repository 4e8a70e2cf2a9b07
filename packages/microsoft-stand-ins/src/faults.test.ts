import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStandIns } from './stand-ins.ts';
import type { StandInFaults, StandInReport, StandIns } from './types.ts';

const report: StandInReport = {
  workspaceId: 'aaaaaaaa-0000-4000-8000-0000000000f1',
  reportId: 'bbbbbbbb-0000-4000-8000-0000000000f1',
  name: 'Vendas',
  datasetId: 'cccccccc-0000-4000-8000-0000000000f1',
  rls: false,
};

/** What a client makes of an answer: its status, content type and whole body, or the error that cut it short. */
async function outcome(
  response: Promise<Response>,
): Promise<{ status: number; type: string | null; retryAfter: string | null; body: string } | { error: string }> {
  try {
    const answer = await response;
    const body = await answer.text();
    return {
      status: answer.status,
      type: answer.headers.get('content-type'),
      retryAfter: answer.headers.get('retry-after'),
      body,
    };
  } catch (error) {
    return { error: (error as Error).name === 'TimeoutError' ? 'timeout' : (error as Error).message };
  }
}

describe('upstream faults of the stand-ins', () => {
  let s: StandIns;
  let powerBiToken: string;
  let graphToken: string;
  const tokenUrl = () => `${s.authorityHost}/${s.tenantId}/oauth2/v2.0/token`;
  const discoveryUrl = () => `${s.issuer}/.well-known/openid-configuration`;

  function clientCredentials(scope: string, secret = s.clientSecret, signal?: AbortSignal): Promise<Response> {
    return fetch(tokenUrl(), {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: s.clientId,
        client_secret: secret,
        scope,
      }),
      ...(signal ? { signal } : {}),
    });
  }

  beforeAll(async () => {
    s = await startStandIns({
      people: [
        {
          id: 'dddddddd-0000-4000-8000-0000000000f1',
          displayName: 'Ana',
          mail: 'ana@empresa.com.br',
          userPrincipalName: 'ana@empresa.com.br',
        },
      ],
      reports: [report],
    });
    const token = async (scope: string) =>
      ((await (await clientCredentials(scope)).json()) as { access_token: string }).access_token;
    powerBiToken = await token('https://analysis.windows.net/powerbi/api/.default');
    graphToken = await token('https://graph.microsoft.com/.default');
  });
  afterAll(() => s.close());
  beforeEach(() => {
    s.powerBi.reset();
    s.graph.reset();
    s.identity.reset();
  });

  const getReport = (signal?: AbortSignal) =>
    fetch(`${s.powerBiApiUrl}/v1.0/myorg/groups/${report.workspaceId}/reports/${report.reportId}`, {
      headers: { authorization: `Bearer ${powerBiToken}` },
      ...(signal ? { signal } : {}),
    });
  const generateToken = () =>
    fetch(`${s.powerBiApiUrl}/v1.0/myorg/GenerateToken`, {
      method: 'POST',
      headers: { authorization: `Bearer ${powerBiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        reports: [{ id: report.reportId }],
        datasets: [{ id: report.datasetId }],
        targetWorkspaces: [{ id: report.workspaceId }],
      }),
    });
  const graphUsers = (signal?: AbortSignal) =>
    fetch(`${s.graphUrl}/v1.0/users?$top=1`, {
      headers: { authorization: `Bearer ${graphToken}` },
      ...(signal ? { signal } : {}),
    });
  const servicePrincipal = () =>
    fetch(`${s.graphUrl}/v1.0/servicePrincipals(appId='${s.clientId}')?$select=id,appRoles`, {
      headers: { authorization: `Bearer ${graphToken}` },
    });

  it('answers 200 garbage of each kind, in place of Power BI’s answer, then serves again', async () => {
    s.powerBi.garbageNext('not-json');
    s.powerBi.garbageNext('wrong-shape');
    s.powerBi.garbageNext('wrong-content-type');
    s.powerBi.garbageNext('truncated');
    const notJson = await outcome(getReport());
    expect(notJson).toMatchObject({ status: 200, type: 'application/json; charset=utf-8' });
    expect(() => JSON.parse((notJson as { body: string }).body) as unknown).toThrow(SyntaxError);
    const wrongShape = await outcome(getReport());
    expect(wrongShape).toMatchObject({ status: 200, type: 'application/json; charset=utf-8' });
    const shape = JSON.parse((wrongShape as { body: string }).body) as Record<string, unknown>;
    expect(typeof shape.id).not.toBe('string');
    expect(shape.datasetId).toBeNull();
    const html = await outcome(getReport());
    expect(html).toMatchObject({
      status: 200,
      type: 'text/html; charset=utf-8',
      body: expect.stringMatching(/^<!DOCTYPE html>/),
    });
    expect(await outcome(getReport())).toEqual({ error: 'terminated' });
    expect((await getReport()).status).toBe(200);
    expect(s.powerBi.requests.map((r) => [r.status, r.fault])).toEqual([
      [200, 'garbage:not-json'],
      [200, 'garbage:wrong-shape'],
      [200, 'garbage:wrong-content-type'],
      [200, 'garbage:truncated'],
      [200, undefined],
    ]);
  });

  it('gives GenerateToken a wrong shape of its own', async () => {
    s.powerBi.garbageNext('wrong-shape', 1, 1);
    expect((await generateToken()).status).toBe(200);
    const answer = await outcome(generateToken());
    expect(JSON.parse((answer as { body: string }).body)).toMatchObject({ token: 42, expiration: 'quando der' });
  });

  it('hangs before the headers, or in the body, until the client gives up', async () => {
    s.powerBi.hangNext();
    s.powerBi.hangNext(1, 0, 'body');
    let started = Date.now();
    expect(await outcome(getReport(AbortSignal.timeout(300)))).toEqual({ error: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    started = Date.now();
    const headers = await getReport(AbortSignal.timeout(300));
    expect(headers.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(250);
    expect(await outcome(Promise.resolve(headers))).toEqual({ error: 'timeout' });
    expect((await getReport()).status).toBe(200);
    expect(s.powerBi.requests.map((r) => [r.status, r.fault])).toEqual([
      [0, 'hang:headers'],
      [200, 'hang:body'],
      [200, undefined],
    ]);
  });

  it('lets go of a hanging request on reset: its connection is closed', async () => {
    s.graph.hangNext();
    const hanging = outcome(graphUsers());
    await new Promise((resolve) => setTimeout(resolve, 100));
    s.graph.reset();
    expect(await hanging).toMatchObject({ error: expect.any(String) });
    expect((await graphUsers()).status).toBe(200);
  });

  it('throttles with a Retry-After in seconds however large, an HTTP-date, anything verbatim, or none', async () => {
    const date = new Date(Date.UTC(2035, 0, 1)).toUTCString();
    s.powerBi.throttleNext(31_536_000);
    s.powerBi.throttleNext(date);
    s.powerBi.throttleNext(null);
    s.powerBi.throttleNext('depois');
    const retryAfters = [];
    for (let i = 0; i < 4; i++) {
      const answer = await outcome(getReport());
      expect(answer).toMatchObject({ status: 429, body: expect.stringContaining('TooManyRequests') });
      retryAfters.push((answer as { retryAfter: string | null }).retryAfter);
    }
    expect(retryAfters).toEqual(['31536000', date, null, 'depois']);
    s.graph.throttleNext(null);
    const graph = await outcome(graphUsers());
    expect(graph).toMatchObject({ status: 429, retryAfter: null, body: expect.stringContaining('TooManyRequests') });
  });

  it('refuses controls that make no sense', () => {
    const all: StandInFaults[] = [s.powerBi, s.graph, s.identity.token, s.identity.discovery];
    for (const faults of all) {
      expect(() => faults.failNext(200)).toThrow(RangeError);
      expect(() => faults.hangNext(-1)).toThrow(RangeError);
      expect(() => faults.hangNext(1, 1.5)).toThrow(RangeError);
      expect(() => faults.hangNext(1, 0, 'forever' as 'body')).toThrow(RangeError);
      expect(() => faults.garbageNext('noise' as 'not-json')).toThrow(RangeError);
      expect(() => faults.throttleNext(-5)).toThrow(RangeError);
    }
  });

  it('gives Graph garbage shaped as a page or as an entity, after the requests it lets through', async () => {
    s.graph.garbageNext('wrong-shape', 1, 1);
    s.graph.garbageNext('wrong-shape');
    s.graph.garbageNext('not-json');
    expect((await graphUsers()).status).toBe(200);
    const page = JSON.parse(((await outcome(graphUsers())) as { body: string }).body) as Record<string, unknown>;
    expect(page).toMatchObject({ value: [{ id: 7 }, null, 'x'] });
    const entity = JSON.parse(((await outcome(servicePrincipal())) as { body: string }).body) as Record<
      string,
      unknown
    >;
    expect(entity).toMatchObject({ id: null, appRoles: 'Admin' });
    expect(await outcome(graphUsers())).toMatchObject({ status: 200, body: expect.not.stringMatching(/^[{[]/) });
    expect(s.graph.requests.map((r) => [new URL(r.url).pathname, r.status, r.fault])).toEqual([
      ['/v1.0/users', 200, undefined],
      ['/v1.0/users', 200, 'garbage:wrong-shape'],
      ["/v1.0/servicePrincipals(appId='5d6b9c1e-2f4a-4e8b-9c3d-7a1f0e6b2d48')", 200, 'garbage:wrong-shape'],
      ['/v1.0/users', 200, 'garbage:not-json'],
    ]);
  });

  it('hangs and truncates Graph pages, and lets a request without a token through untouched', async () => {
    s.graph.hangNext(1, 0, 'body');
    s.graph.garbageNext('truncated');
    const unauthorized = await fetch(`${s.graphUrl}/v1.0/users`);
    expect(unauthorized.status).toBe(401);
    const headers = await graphUsers(AbortSignal.timeout(300));
    expect(headers.status).toBe(200);
    expect(await outcome(Promise.resolve(headers))).toEqual({ error: 'timeout' });
    expect(await outcome(graphUsers())).toEqual({ error: 'terminated' });
    expect((await graphUsers()).status).toBe(200);
  });

  it('fails, throttles, hangs and garbles Entra ID’s token endpoint, for an authenticated client only', async () => {
    const scope = 'https://graph.microsoft.com/.default';
    s.identity.token.failNext(503);
    s.identity.token.throttleNext(120);
    s.identity.token.garbageNext('wrong-shape');
    s.identity.token.hangNext();
    // A wrong secret is refused as always, and uses up no fault.
    expect((await clientCredentials(scope, 'segredo-errado')).status).toBe(401);
    const failed = await outcome(clientCredentials(scope));
    expect(failed).toMatchObject({ status: 503 });
    expect(JSON.parse((failed as { body: string }).body)).toMatchObject({ error: 'temporarily_unavailable' });
    expect(await outcome(clientCredentials(scope))).toMatchObject({ status: 429, retryAfter: '120' });
    const garbled = await outcome(clientCredentials(scope));
    expect(JSON.parse((garbled as { body: string }).body)).toEqual({
      token_type: 'Bearer',
      expires_in: 'logo',
      access_token: 42,
    });
    expect(await outcome(clientCredentials(scope, s.clientSecret, AbortSignal.timeout(300)))).toEqual({
      error: 'timeout',
    });
    expect((await clientCredentials(scope)).status).toBe(200);
  });

  it('fails, hangs and garbles the OpenID discovery document', async () => {
    s.identity.discovery.failNext(500);
    s.identity.discovery.garbageNext('wrong-shape');
    s.identity.discovery.garbageNext('wrong-content-type');
    s.identity.discovery.hangNext(1, 0, 'body');
    expect((await fetch(discoveryUrl())).status).toBe(500);
    expect(await (await fetch(discoveryUrl())).json()).toMatchObject({ token_endpoint: 42 });
    expect((await fetch(discoveryUrl())).headers.get('content-type')).toMatch(/^text\/html/);
    const headers = await fetch(discoveryUrl(), { signal: AbortSignal.timeout(300) });
    expect(await outcome(Promise.resolve(headers))).toEqual({ error: 'timeout' });
    expect(await (await fetch(discoveryUrl())).json()).toMatchObject({ issuer: s.issuer });
  });

  it('forgets queued faults on reset', async () => {
    s.identity.token.failNext(500);
    s.identity.discovery.hangNext();
    s.powerBi.garbageNext('not-json');
    s.graph.failNext(503);
    s.identity.reset();
    s.powerBi.reset();
    s.graph.reset();
    expect((await clientCredentials('https://graph.microsoft.com/.default')).status).toBe(200);
    expect((await fetch(discoveryUrl())).status).toBe(200);
    expect(await (await getReport()).json()).toMatchObject({ id: report.reportId });
    expect((await graphUsers()).status).toBe(200);
  });
});
