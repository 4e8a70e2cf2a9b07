import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStandIns } from './stand-ins.ts';
import { appToken, powerBiStandIns, powerBiToken, testReport, vendas, WORKSPACE } from './test-helpers.ts';
import type { StandInReport, StandIns } from './types.ts';

const financeiro = testReport(2, { name: 'Financeiro', rls: true });
const EMBED_CONFIG =
  'eyJjbHVzdGVyVXJsIjoiaHR0cHM6Ly9XQUJJLUJSQVpJTC1TT1VUSC1CLVBSSU1BUlktcmVkaXJlY3QuYW5hbHlzaXMud2luZG93cy5uZXQiLCJlbWJlZEZlYXR1cmVzIjp7fX0%3d';

/** Response bodies are checked by shape, so tests read them untyped. */
function json(response: Response): Promise<any> {
  return response.json();
}

function tokenBody(report: StandInReport, identities?: unknown[]): Record<string, unknown> {
  return {
    datasets: [{ id: report.datasetId }],
    reports: [{ id: report.reportId }],
    targetWorkspaces: [{ id: report.workspaceId }],
    ...(identities ? { identities } : {}),
  };
}

describe('Power BI REST stand-in', () => {
  let s: StandIns;
  let token: string;

  beforeAll(async () => {
    ({ s, token } = await powerBiStandIns([vendas, financeiro]));
  });
  afterAll(() => s.close());
  beforeEach(() => s.powerBi.reset());

  function call(method: string, path: string, body?: unknown, bearer: string | null = token): Promise<Response> {
    return fetch(`${s.powerBiApiUrl}${path}`, {
      method,
      headers: {
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  }

  const getReport = (report: Pick<StandInReport, 'workspaceId' | 'reportId'>, bearer?: string | null) =>
    call('GET', `/v1.0/myorg/groups/${report.workspaceId}/reports/${report.reportId}`, undefined, bearer);
  const generateToken = (body: unknown) => call('POST', '/v1.0/myorg/GenerateToken', body);

  async function expectError(response: Response, status: number, code: string, message?: string): Promise<void> {
    expect(response.status).toBe(status);
    const body = await json(response);
    expect(body).toEqual({ error: { code, message: message ?? expect.any(String) } });
  }

  it('serves a report with the real embed URL shape and a RequestId header', async () => {
    expect(s.powerBiApiUrl).toBe(s.authorityHost);
    const response = await getReport(vendas);
    expect(response.status).toBe(200);
    expect(response.headers.get('requestid')).toMatch(/^[0-9a-f-]{36}$/);
    const report = await json(response);
    expect(report).toMatchObject({
      id: vendas.reportId,
      reportType: 'PowerBIReport',
      name: 'Vendas',
      webUrl: `https://app.powerbi.com/groups/${WORKSPACE}/reports/${vendas.reportId}`,
      embedUrl: `https://app.powerbi.com/reportEmbed?reportId=${vendas.reportId}&groupId=${WORKSPACE}&config=${EMBED_CONFIG}`,
      datasetId: vendas.datasetId,
    });
    // Not a field of the swagger's Report (only of the admin scanner's related datasets).
    expect(report).not.toHaveProperty('datasetWorkspaceId');
  });

  it('matches ids without regard to case, as Power BI does', async () => {
    const response = await getReport({
      workspaceId: WORKSPACE.toUpperCase(),
      reportId: vendas.reportId.toUpperCase(),
    });
    expect(response.status).toBe(200);
    expect((await json(response)).id).toBe(vendas.reportId);
  });

  it('answers 404 PowerBIEntityNotFound for an unknown report or the wrong workspace', async () => {
    const unknown = await getReport({ workspaceId: WORKSPACE, reportId: 'bbbbbbbb-0000-4000-8000-00000000ffff' });
    expect(unknown.headers.get('requestid')).toBeTruthy();
    await expectError(unknown, 404, 'PowerBIEntityNotFound');
    await expectError(
      await getReport({ workspaceId: 'aaaaaaaa-0000-4000-8000-00000000ffff', reportId: vendas.reportId }),
      404,
      'PowerBIEntityNotFound',
    );
  });

  it('answers 403 without a token, with a Graph token, with a forged one, and TokenExpired for an expired one', async () => {
    const graphToken = await appToken(s, 'https://graph.microsoft.com');
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${Buffer.from('assinatura falsa').toString('base64url')}`;
    for (const bearer of [null, 'nao-e-um-jwt', forged, graphToken]) {
      await expectError(await getReport(vendas, bearer), 403, 'PowerBINotAuthorizedException');
    }
    await expectError(
      await call('POST', '/v1.0/myorg/GenerateToken', tokenBody(vendas), null),
      403,
      'PowerBINotAuthorizedException',
    );

    const expiring = await startStandIns({ people: [], reports: [vendas], tokenLifetimeSeconds: -60 });
    try {
      const expired = await powerBiToken(expiring);
      const response = await fetch(
        `${expiring.powerBiApiUrl}/v1.0/myorg/groups/${WORKSPACE}/reports/${vendas.reportId}`,
        {
          headers: { authorization: `Bearer ${expired}` },
        },
      );
      await expectError(response, 403, 'TokenExpired');
    } finally {
      await expiring.close();
    }
  });

  it('generates a signed embed token with the report, dataset and lifetime', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await generateToken(tokenBody(vendas));
    expect(response.status).toBe(200);
    expect(response.headers.get('requestid')).toBeTruthy();
    const body = await json(response);
    expect(body).toMatchObject({ token: expect.any(String), tokenId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(body.expiration).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const jwks = await json(await fetch(`${s.authorityHost}/${s.tenantId}/discovery/v2.0/keys`));
    const { payload } = await jwtVerify(body.token, createLocalJWKSet(jwks));
    expect(decodeProtectedHeader(body.token)).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    expect(payload).toMatchObject({
      aud: 'https://app.powerbi.com',
      tokenId: body.tokenId,
      reports: [vendas.reportId],
      datasets: [vendas.datasetId],
      editableReports: [],
      targetWorkspaces: [WORKSPACE],
      identities: [],
    });
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    // An hour, unless the access token that asked for it (issued before this test) expires sooner.
    expect(payload.exp).toBe(Math.min(payload.iat! + 3600, decodeJwt(token).exp!));
    expect(payload.exp! - payload.iat!).toBeGreaterThan(3500);
    expect(new Date(body.expiration).getTime()).toBe(payload.exp! * 1000);
  });

  it('puts the effective identity and its roles in an RLS token', async () => {
    const response = await generateToken(
      tokenBody(financeiro, [
        { username: 'ana.souza@contoso.com.br', roles: ['Vendedor', 'Gerente'], datasets: [financeiro.datasetId] },
      ]),
    );
    expect(response.status).toBe(200);
    expect(decodeJwt((await json(response)).token)).toMatchObject({
      reports: [financeiro.reportId],
      identities: [
        { username: 'ana.souza@contoso.com.br', roles: ['Vendedor', 'Gerente'], datasets: [financeiro.datasetId] },
      ],
    });
  });

  it('issues embed tokens for embedTokenLifetimeSeconds', async () => {
    const short = await startStandIns({ people: [], reports: [vendas], embedTokenLifetimeSeconds: 120 });
    try {
      const response = await fetch(`${short.powerBiApiUrl}/v1.0/myorg/GenerateToken`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await powerBiToken(short)}`, 'content-type': 'application/json' },
        body: JSON.stringify(tokenBody(vendas)),
      });
      const claims = decodeJwt((await json(response)).token);
      expect(claims.exp! - claims.iat!).toBe(120);
    } finally {
      await short.close();
    }
  });

  it('refuses RLS datasets without an identity, identities on datasets without RLS and identities without roles', async () => {
    await expectError(
      await generateToken(tokenBody(financeiro)),
      400,
      'InvalidRequest',
      `Creating embed token for accessing dataset ${financeiro.datasetId} requires effective identity to be provided`,
    );
    await expectError(
      await generateToken(tokenBody(vendas, [{ username: 'ana', roles: ['Vendedor'], datasets: [vendas.datasetId] }])),
      400,
      'InvalidRequest',
      `Creating embed token for accessing dataset ${vendas.datasetId} shouldn't have effective identity`,
    );
    await expectError(
      await generateToken(tokenBody(financeiro, [{ username: 'ana', roles: [], datasets: [financeiro.datasetId] }])),
      400,
      'InvalidRequest',
      `Creating embed token for accessing dataset ${financeiro.datasetId} requires roles to be included in provided effective identity`,
    );
    await expectError(
      await generateToken(
        tokenBody(financeiro, [{ username: ' ', roles: ['Vendedor'], datasets: [financeiro.datasetId] }]),
      ),
      400,
      'InvalidRequest',
    );
  });

  it("bounds an embed token's expiry by the access token that asked for it, as Power BI does", async () => {
    // Entra tokens of 10 minutes, embed tokens of an hour: each embed token ends with the access token.
    const bounded = await startStandIns({ people: [], reports: [vendas], tokenLifetimeSeconds: 600 });
    try {
      const bearer = await powerBiToken(bounded);
      const response = await fetch(`${bounded.powerBiApiUrl}/v1.0/myorg/GenerateToken`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify(tokenBody(vendas)),
      });
      const body = await json(response);
      const claims = decodeJwt(body.token);
      expect(claims.exp).toBe(decodeJwt(bearer).exp);
      expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(600);
      expect(new Date(body.expiration).getTime()).toBe(claims.exp! * 1000);
    } finally {
      await bounded.close();
    }
  });

  it('records in the grant which reports may be edited (allowEdit) and where copies may be saved', async () => {
    const response = await generateToken({
      datasets: [{ id: vendas.datasetId }, { id: financeiro.datasetId }],
      reports: [
        { id: vendas.reportId, allowEdit: true },
        { id: financeiro.reportId, allowEdit: false },
      ],
      identities: [{ username: 'ana@contoso.com.br', roles: ['Vendedor'], datasets: [financeiro.datasetId] }],
    });
    expect(response.status).toBe(200);
    expect(decodeJwt((await json(response)).token)).toMatchObject({
      reports: [vendas.reportId, financeiro.reportId],
      editableReports: [vendas.reportId],
      targetWorkspaces: [],
    });
    await expectError(
      await generateToken({ ...tokenBody(vendas), reports: [{ id: vendas.reportId, allowEdit: 'sim' }] }),
      400,
      'InvalidRequest',
    );
  });

  it("refuses identities over Power BI's limits with 400 InvalidRequest, in GenerateToken and ExportTo", async () => {
    const identity = (username: string, roles: string[]) => [{ username, roles, datasets: [financeiro.datasetId] }];
    const fifty = Array.from({ length: 50 }, (_, i) => `Papel ${i + 1}`);
    const ok = identity(`${'a'.repeat(241)}@contoso.com.br`, [...fifty.slice(1), 'x'.repeat(50)]);
    expect((await generateToken(tokenBody(financeiro, ok))).status).toBe(200);
    const exportTo = (identities: unknown[]) =>
      call('POST', `/v1.0/myorg/groups/${WORKSPACE}/reports/${financeiro.reportId}/ExportTo`, {
        format: 'PDF',
        powerBIReportConfiguration: { identities },
      });
    const refused: [unknown[], string][] = [
      [identity('ana', [...fifty, 'Papel 51']), 'Effective identity has 51 roles; at most 50 are allowed.'],
      [identity('ana', ['y'.repeat(51)]), `Role name '${'y'.repeat(51)}' is longer than 50 characters.`],
      [identity('ana', ['Norte,Sul']), "Role name 'Norte,Sul' contains ',', which is not allowed."],
      [
        identity(`${'a'.repeat(242)}@contoso.com.br`, ['Sul']),
        'Effective identity username is longer than 256 characters.',
      ],
      [identity('joão@contoso.com.br', ['Sul']), 'Effective identity username must contain only ASCII characters.'],
      [identity('ana souza@contoso.com.br', ['Sul']), 'Effective identity username must not contain spaces.'],
    ];
    for (const [identities, message] of refused) {
      await expectError(await generateToken(tokenBody(financeiro, identities)), 400, 'InvalidRequest', message);
      await expectError(await exportTo(identities), 400, 'InvalidRequest', message);
    }
  });

  it('refuses unknown reports, datasets and workspaces, and a report without its dataset', async () => {
    const unknownId = 'dddddddd-0000-4000-8000-000000000000';
    await expectError(
      await generateToken({ ...tokenBody(vendas), reports: [{ id: unknownId }] }),
      404,
      'PowerBIEntityNotFound',
    );
    await expectError(
      await generateToken({ ...tokenBody(vendas), datasets: [{ id: vendas.datasetId }, { id: unknownId }] }),
      404,
      'PowerBIEntityNotFound',
    );
    await expectError(
      await generateToken({ ...tokenBody(vendas), targetWorkspaces: [{ id: unknownId }] }),
      404,
      'PowerBIEntityNotFound',
    );
    await expectError(await generateToken({ ...tokenBody(vendas), datasets: [] }), 400, 'InvalidRequest');
  });

  it('refuses malformed bodies with 400 InvalidRequest', async () => {
    for (const body of [
      '{"reports":',
      '[]',
      { reports: 'x' },
      { reports: [{}] },
      {},
      { ...tokenBody(vendas), identities: {} },
    ]) {
      await expectError(await generateToken(body), 400, 'InvalidRequest');
    }
  });

  it('answers unknown API paths with 404 in the Power BI error shape', async () => {
    await expectError(await call('GET', '/v1.0/myorg/dashboards'), 404, 'NotFound');
  });

  it('fails with the given status when told to, then serves again', async () => {
    s.powerBi.failNext(503);
    await expectError(await getReport(vendas), 503, 'ServiceUnavailable');
    expect((await getReport(vendas)).status).toBe(200);

    s.powerBi.failNext(429, 2);
    for (let i = 0; i < 2; i++) {
      const throttled = await generateToken(tokenBody(vendas));
      expect(throttled.headers.get('retry-after')).toBe('1');
      await expectError(throttled, 429, 'TooManyRequests');
    }
    expect((await generateToken(tokenBody(vendas))).status).toBe(200);
  });

  it('starts failing after afterRequests, and only for callers it would otherwise serve', async () => {
    s.powerBi.failNext(500, 2, 1);
    expect((await getReport(vendas, null)).status).toBe(403);
    expect((await getReport(vendas)).status).toBe(200);
    expect((await getReport(vendas)).status).toBe(500);
    expect((await getReport(vendas)).status).toBe(500);
    expect((await getReport(vendas)).status).toBe(200);
    expect(() => s.powerBi.failNext(200)).toThrow(RangeError);
  });

  it('waits setLatency before answering, until reset', async () => {
    s.powerBi.setLatency(300);
    let started = Date.now();
    expect((await getReport(vendas)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    s.powerBi.reset();
    started = Date.now();
    await getReport(vendas);
    expect(Date.now() - started).toBeLessThan(250);
  });

  it('logs every request with method, path, status, body and RequestId; reset forgets failures and the log', async () => {
    s.powerBi.failNext(503);
    await getReport(vendas, null);
    await getReport(vendas);
    const body = tokenBody(vendas);
    const answer = await generateToken(body);
    const reportPath = `/v1.0/myorg/groups/${WORKSPACE}/reports/${vendas.reportId}`;
    const requestId = expect.stringMatching(/^[0-9a-f-]{36}$/);
    expect(s.powerBi.requests).toEqual([
      { method: 'GET', path: reportPath, status: 403, requestId },
      { method: 'GET', path: reportPath, status: 503, requestId },
      { method: 'POST', path: '/v1.0/myorg/GenerateToken', status: 200, body, requestId },
    ]);
    // The one the answer named, as Power BI's RequestId header.
    expect(s.powerBi.requests[2]!.requestId).toBe(answer.headers.get('requestid'));
    s.powerBi.failNext(500);
    s.powerBi.reset();
    expect(s.powerBi.requests).toEqual([]);
    expect((await getReport(vendas)).status).toBe(200);
  });

  it('serves the reports set with setReports', async () => {
    const renamed = { ...vendas, name: 'Vendas 2025' };
    s.powerBi.setReports([renamed]);
    try {
      expect((await json(await getReport(vendas))).name).toBe('Vendas 2025');
      expect((await getReport(financeiro)).status).toBe(404);
      expect(() => s.powerBi.setReports([vendas, { ...vendas }])).toThrow(RangeError);
    } finally {
      s.powerBi.setReports([vendas, financeiro]);
    }
  });
});
