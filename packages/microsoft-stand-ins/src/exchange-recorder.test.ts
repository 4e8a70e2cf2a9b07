import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REDACTED } from '@paineis/microsoft-api/exchange';
import { apiOf } from './exchange-recorder.ts';
import { startStandIns } from './stand-ins.ts';
import { anaSouza, codeRedemption, REDIRECT_URI, vendas } from './test-helpers.ts';
import type { StandIns } from './types.ts';

const ana = anaSouza();

describe('the stand-ins’ exchange recorder (docs/decisions/016-microsoft-contract-tests.md)', () => {
  let s: StandIns;
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
    redirect: 'manual' as const,
  });
  const tokenUrl = () => `${s.authorityHost}/${s.tenantId}/oauth2/v2.0/token`;
  const appToken = async (scope: string) => {
    const response = await fetch(
      tokenUrl(),
      form({ grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret, scope }),
    );
    return ((await response.json()) as { access_token: string }).access_token;
  };

  beforeAll(async () => {
    s = await startStandIns({ people: [ana], reports: [vendas], recordExchanges: true });
  });
  afterAll(() => s.close());
  beforeEach(() => s.clearExchanges());

  it('records a call with its request, answer, status and the headers that matter', async () => {
    const token = await appToken('https://analysis.windows.net/powerbi/api/.default');
    s.clearExchanges();
    const body = { reports: [{ id: vendas.reportId }], datasets: [{ id: vendas.datasetId }] };
    const response = await fetch(`${s.powerBiApiUrl}/v1.0/myorg/GenerateToken`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    expect(s.exchanges).toEqual([
      {
        service: 'power-bi',
        method: 'POST',
        url: '/v1.0/myorg/GenerateToken',
        request: {
          headers: { authorization: `Bearer ${REDACTED}`, 'content-type': 'application/json', accept: '*/*' },
          body,
        },
        answer: {
          status: 200,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            requestid: response.headers.get('requestid')!,
          },
          body: {
            '@odata.context': expect.any(String),
            token: REDACTED,
            tokenId: expect.any(String),
            expiration: expect.any(String),
          },
          bytes: Number(response.headers.get('content-length')),
        },
      },
    ]);
  });

  it('records no secret: not the client secret, the code, the verifier, the tokens, nor a bearer credential', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = `${s.authorityHost}/${s.tenantId}/oauth2/v2.0/authorize`;
    const query = new URLSearchParams({
      client_id: s.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid profile email',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'estado',
      nonce: 'nonce',
    });
    const page = await (await fetch(`${authorize}?${query.toString()}`)).text();
    const requestId = /name="request" value="([^"]+)"/.exec(page)![1]!;
    const chosen = await fetch(authorize, form({ request: requestId, person: ana.id }));
    const code = new URL(chosen.headers.get('location')!).searchParams.get('code')!;
    const redeemed = await fetch(tokenUrl(), form(codeRedemption(s, code, verifier)));
    const tokens = (await redeemed.json()) as { access_token: string; id_token: string };
    // The person's token (User.Read) may not list users: a refusal, recorded like any answer.
    const graph = await fetch(`${s.graphUrl}/v1.0/users`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(graph.status).toBe(403);

    // The authorize page and the token call are recorded; the sign-in page's form is not (no API describes it).
    expect(s.exchanges.map((e) => `${e.service} ${e.method} ${e.url.split('?')[0]} ${e.answer.status}`)).toEqual([
      `entra GET /${s.tenantId}/oauth2/v2.0/authorize 200`,
      `entra POST /${s.tenantId}/oauth2/v2.0/token 200`,
      'graph GET /v1.0/users 403',
    ]);
    const [, token, users] = s.exchanges;
    expect(token!.request.body).toEqual({
      grant_type: 'authorization_code',
      client_id: s.clientId,
      client_secret: REDACTED,
      code: REDACTED,
      redirect_uri: REDIRECT_URI,
      code_verifier: REDACTED,
    });
    expect(token!.answer.body).toMatchObject({ access_token: REDACTED, id_token: REDACTED, token_type: 'Bearer' });
    expect(token!.answer.idTokenClaims).toMatchObject({ oid: ana.id, nonce: 'nonce', ver: '2.0' });
    expect(users!.request.headers.authorization).toBe(`Bearer ${REDACTED}`);

    const recorded = JSON.stringify(s.exchanges);
    for (const secret of [s.clientSecret, code, verifier, tokens.access_token, tokens.id_token]) {
      expect(recorded).not.toContain(secret);
    }
  });

  it('takes the code out of a redirect it records', async () => {
    s.identity.failNext('access_denied');
    const query = new URLSearchParams({
      client_id: s.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
      state: 'estado',
    });
    await fetch(`${s.authorityHost}/${s.tenantId}/oauth2/v2.0/authorize?${query.toString()}`, { redirect: 'manual' });
    const [refused] = s.exchanges;
    expect(refused!.answer.status).toBe(302);
    expect(new URL(refused!.answer.headers.location!).searchParams.get('error')).toBe('access_denied');
  });

  it('records the faults’ error answers, and forgets everything on clearExchanges', async () => {
    s.graph.throttleNext(7);
    const token = await appToken('https://graph.microsoft.com/.default');
    await fetch(`${s.graphUrl}/v1.0/users?$top=5`, { headers: { authorization: `Bearer ${token}` } });
    expect(s.exchanges.at(-1)).toMatchObject({
      service: 'graph',
      url: '/v1.0/users?$top=5',
      answer: { status: 429, headers: { 'retry-after': '7' }, body: { error: { code: 'TooManyRequests' } } },
    });
    s.clearExchanges();
    expect(s.exchanges).toEqual([]);
  });

  it('tells the APIs apart by path, and leaves out the pages only a browser sees', () => {
    expect(apiOf('GET', '/v1.0/myorg/groups/g/reports/r')).toBe('power-bi');
    expect(apiOf('GET', '/v1.0/users?$top=1')).toBe('graph');
    expect(apiOf('GET', '/t/v2.0/.well-known/openid-configuration')).toBe('entra');
    expect(apiOf('GET', '/t/oauth2/v2.0/authorize?x=1')).toBe('entra');
    expect(apiOf('POST', '/t/oauth2/v2.0/authorize')).toBeNull();
    expect(apiOf('GET', '/reportEmbed?reportId=r')).toBeNull();
  });

  it('records nothing unless asked to', async () => {
    const quiet = await startStandIns({ people: [ana] });
    try {
      await fetch(`${quiet.authorityHost}/${quiet.tenantId}/v2.0/.well-known/openid-configuration`);
      expect(quiet.exchanges).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
