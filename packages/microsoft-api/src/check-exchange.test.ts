import { describe, expect, it } from 'vitest';
import { checkExchange, MICROSOFT_OPERATIONS, operationOf } from './check-exchange.ts';
import { REDACTED, type Exchange } from './exchange.ts';

/**
 * The checker must be able to fail: each case breaks one thing Microsoft's description says about a call, in an
 * exchange that conforms otherwise, and expects exactly that violation (docs/decisions/016-microsoft-contract-tests.md).
 */

const GROUP = '0a0a0a0a-0000-4000-8000-000000000001';
const REPORT = '0b0b0b0b-0000-4000-8000-000000000001';
const DATASET = '0c0c0c0c-0000-4000-8000-000000000001';
const TENANT = '00000000-0000-4000-8000-000000000001';
const JSON_TYPE = 'application/json; charset=utf-8';
const bearer = { authorization: `Bearer ${REDACTED}` };

/** An exchange: the request and answer given, JSON by default. */
function exchange(partial: {
  service: Exchange['service'];
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  status?: number;
  answerHeaders?: Record<string, string>;
  answer?: unknown;
  idTokenClaims?: Record<string, unknown>;
}): Exchange {
  return {
    service: partial.service,
    method: partial.method ?? 'GET',
    url: partial.url,
    request: { headers: partial.headers ?? bearer, ...(partial.body === undefined ? {} : { body: partial.body }) },
    answer: {
      status: partial.status ?? 200,
      headers: { 'content-type': JSON_TYPE, ...partial.answerHeaders },
      ...(partial.answer === undefined ? {} : { body: partial.answer }),
      bytes: partial.answer === undefined ? 0 : JSON.stringify(partial.answer).length,
      ...(partial.idTokenClaims ? { idTokenClaims: partial.idTokenClaims } : {}),
    },
  };
}

const identity = { username: 'ana@empresa.com.br', roles: ['Sul'], datasets: [DATASET] };
const generateToken = (body: unknown = {}, answer: unknown = {}) =>
  exchange({
    service: 'power-bi',
    method: 'POST',
    url: '/v1.0/myorg/GenerateToken',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: { reports: [{ id: REPORT }], datasets: [{ id: DATASET }], identities: [identity], ...(body as object) },
    answer: {
      token: REDACTED,
      tokenId: '4b76f5ed-5a06-4150-8d1b-60f8e4c186f4',
      expiration: '2028-07-29T17:58:19Z',
      ...(answer as object),
    },
  });

const user = (extra: Record<string, unknown> = {}) => ({
  id: '11111111-1111-4111-8111-111111111111',
  displayName: 'Ana',
  mail: 'ana@empresa.com.br',
  userPrincipalName: 'ana@empresa.com.br',
  accountEnabled: true,
  ...extra,
});
const listUsers = (
  query = '$select=id,displayName,mail,userPrincipalName,accountEnabled&$top=999',
  items: Record<string, unknown>[] = [user()],
) => exchange({ service: 'graph', url: `/v1.0/users?${query}`, answer: { value: items } });

const exportStatus = (job: Record<string, unknown>, status = 202) =>
  exchange({
    service: 'power-bi',
    url: `/v1.0/myorg/groups/${GROUP}/reports/${REPORT}/exports/TWk5QzU0MTlp`,
    status,
    answerHeaders: { 'retry-after': '1', requestid: 'r-1' },
    answer: { id: 'TWk5QzU0MTlp', status: 'Running', percentComplete: 40, ...job },
  });

const idClaims = (extra: Record<string, unknown> = {}) => ({
  aud: '6731de76-14a6-49ae-97bc-6eba6914391e',
  iss: `https://login.microsoftonline.com/${TENANT}/v2.0`,
  iat: 1_700_000_000,
  nbf: 1_700_000_000,
  exp: 1_700_003_600,
  sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
  oid: '11111111-1111-4111-8111-111111111111',
  tid: TENANT,
  ver: '2.0',
  roles: ['Admin'],
  ...extra,
});
const redeemCode = (claims: Record<string, unknown>) =>
  exchange({
    service: 'entra',
    method: 'POST',
    url: `/${TENANT}/oauth2/v2.0/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: {
      grant_type: 'authorization_code',
      client_id: '6731de76-14a6-49ae-97bc-6eba6914391e',
      client_secret: REDACTED,
      code: REDACTED,
      redirect_uri: 'https://paineis.empresa.com.br/api/auth/microsoft-callback',
      code_verifier: REDACTED,
    },
    answer: { token_type: 'Bearer', expires_in: 3599, access_token: REDACTED, id_token: REDACTED },
    idTokenClaims: claims,
  });

/** The violations as `part at: message`, for readable expectations. */
const found = (e: Exchange) => checkExchange(e).map((v) => `${v.part} ${v.at}: ${v.message}`);

describe('checkExchange', () => {
  it('finds nothing wrong with calls as Microsoft describes them', () => {
    expect(found(generateToken())).toEqual([]);
    expect(found(listUsers())).toEqual([]);
    expect(found(exportStatus({}))).toEqual([]);
    expect(found(redeemCode(idClaims()))).toEqual([]);
  });

  it('catches a wrong field name in a request', () => {
    const body = { reports: [{ id: REPORT }], datasets: [{ id: DATASET }], identity: [identity] };
    const e = generateToken();
    e.request.body = body;
    expect(found(e)).toEqual(['request body: Unrecognized key: "identity"']);
  });

  it('catches a documented field spelled with another casing, in an answer', () => {
    const e = generateToken({}, { tokenId: undefined, tokenID: '4b76f5ed-5a06-4150-8d1b-60f8e4c186f4' });
    delete (e.answer.body as Record<string, unknown>).tokenId;
    expect(found(e)).toEqual([
      'answer body.tokenId: Invalid input: expected string, received undefined',
      "answer body.tokenID: spelled 'tokenId' in Microsoft's description",
    ]);
  });

  it('catches a missing required field', () => {
    const { id: _id, ...withoutId } = user();
    expect(found(listUsers(undefined, [withoutId]))).toEqual([
      'answer body.value[0].id: Invalid input: expected string, received undefined',
      'answer body.value[0].id: named in $select, missing',
    ]);
  });

  it('catches values out of their documented range', () => {
    expect(found(exportStatus({ percentComplete: 150 }))).toEqual([
      'answer body.percentComplete: Too big: expected number to be <=100',
    ]);
    expect(found(listUsers('$select=id&$top=1000', [{ id: 'x' }]))).toEqual([
      'request query.$top: Too big: expected number to be <=999',
    ]);
    const roles = ['Sul', 'a'.repeat(51), 'Norte,Sul'];
    expect(found(generateToken({ identities: [{ ...identity, roles }] }))).toEqual([
      'request body.identities[0].roles[1]: Too big: expected string to have <=50 characters',
      'request body.identities[0].roles[2]: a role must not contain a comma',
    ]);
    const username = `joão@${'e'.repeat(252)}`;
    expect(found(generateToken({ identities: [{ ...identity, username }] }))).toEqual([
      'request body.identities[0].username: Too big: expected string to have <=256 characters',
      'request body.identities[0].username: the username must be ASCII',
    ]);
  });

  it('catches a call no operation in the schemas describes', () => {
    const e = exchange({ service: 'graph', url: '/v1.0/users/11111111-1111-4111-8111-111111111111/manager' });
    expect(checkExchange(e)).toEqual([
      {
        operation: null,
        exchange: 'GET /v1.0/users/11111111-1111-4111-8111-111111111111/manager',
        part: 'operation',
        at: '/v1.0/users/11111111-1111-4111-8111-111111111111/manager',
        message: 'no documented graph call is GET /v1.0/users/11111111-1111-4111-8111-111111111111/manager',
      },
    ]);
    expect(operationOf(e)).toBeNull();
  });

  it('catches an undocumented status, and an error not in the service’s error shape', () => {
    expect(found(exportStatus({}, 200))).toEqual([]);
    const exportTo = exchange({
      service: 'power-bi',
      method: 'POST',
      url: `/v1.0/myorg/groups/${GROUP}/reports/${REPORT}/ExportTo`,
      headers: { ...bearer, 'content-type': 'application/json' },
      body: { format: 'PDF' },
      answer: { id: 'x', status: 'NotStarted', percentComplete: 0 },
    });
    expect(found(exportTo)).toEqual(['answer status: 200 is none of the answers documented (202)']);
    const refused = { ...exportTo, answer: { ...exportTo.answer, status: 404, body: { error: { message: 'x' } } } };
    expect(found(refused)).toEqual([
      'answer body.error.code: Invalid input: expected string, received undefined',
      'answer header requestid: required',
    ]);
  });

  it('catches a $select Graph did not honour, and a property it does not have', () => {
    expect(found(listUsers(undefined, [user({ department: 'Vendas' })]))).toEqual([
      'answer body.value[0].department: answered though $select did not name it',
    ]);
    expect(found(listUsers('$select=id,departamento', [{ id: 'x', departamento: null }]))).toEqual([
      'request query.$select: names a property the resource type does not have',
    ]);
  });

  it('catches claims an ID token never carries', () => {
    expect(found(redeemCode(idClaims({ department: 'Vendas', jobTitle: 'Analista' })))).toEqual([
      'answer id_token.department: not a claim of Microsoft’s v2.0 ID tokens',
      'answer id_token.jobTitle: not a claim of Microsoft’s v2.0 ID tokens',
    ]);
  });

  it('holds Entra’s OAuth errors to the parameters its pages list', () => {
    const e = redeemCode(idClaims());
    e.answer = {
      status: 400,
      headers: { 'content-type': JSON_TYPE },
      body: { error: 'invalid_grant', error_description: 'AADSTS70000: …', error_codes: [70000] },
      bytes: 90,
    };
    expect(found(e)).toEqual([
      'answer body.timestamp: Invalid input: expected string, received undefined',
      'answer body.trace_id: Invalid input: expected string, received undefined',
      'answer body.correlation_id: Invalid input: expected string, received undefined',
    ]);
  });

  it('names every operation by where Microsoft describes it, once', () => {
    const ids = MICROSOFT_OPERATIONS.map((operation) => operation.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const operation of MICROSOFT_OPERATIONS)
      expect(operation.source).toMatch(/^https:\/\/learn\.microsoft\.com\//);
  });
});
