import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIns } from './stand-ins.ts';
import { anaSouza, clientCredentials, codeRedemption, REDIRECT_URI } from './test-helpers.ts';
import type { IdentityFailure, StandInPerson, StandIns } from './types.ts';

const ana = anaSouza({
  department: 'Finanças',
  jobTitle: 'Analista de dados',
  officeLocation: 'São Paulo',
  appRoles: ['Admin'],
});
const bruno: StandInPerson = {
  id: '22222222-2222-4222-8222-222222222222',
  displayName: 'Bruno Lima',
  mail: null,
  userPrincipalName: 'bruno.lima@contoso.onmicrosoft.com',
  showOnSignIn: true,
};
const carla: StandInPerson = {
  id: '33333333-3333-4333-8333-333333333333',
  displayName: 'Carla Dias',
  mail: 'carla.dias@contoso.com.br',
  userPrincipalName: 'carla.dias@contoso.com.br',
  accountEnabled: false,
  showOnSignIn: true,
};
const hidden: StandInPerson = {
  id: '44444444-4444-4444-8444-444444444444',
  displayName: 'Diretório Apenas',
  mail: 'so.no.diretorio@contoso.com.br',
  userPrincipalName: 'so.no.diretorio@contoso.com.br',
};
/** A guest: Graph's mail is the address the invitation used; the token's email, the one of her home tenant. */
const edna: StandInPerson = {
  id: '66666666-6666-4666-8666-666666666666',
  displayName: 'Edna Parceira',
  mail: 'edna@parceiro.com.br',
  userPrincipalName: 'edna_parceiro.com.br#EXT#@contoso.onmicrosoft.com',
  userType: 'Guest',
  emailClaim: 'edna.silva@parceiro.com.br',
  showOnSignIn: true,
};
const mischief: StandInPerson = {
  id: '55555555-5555-4555-8555-555555555555',
  displayName: '<script>alert("x")</script>',
  mail: `o'brien&"co"@example.com`,
  userPrincipalName: 'mischief@contoso.com.br',
  showOnSignIn: true,
};

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Response bodies are checked by shape, so tests read them untyped. */
function json(response: Response): Promise<any> {
  return response.json();
}

function requestIdIn(html: string): string {
  const id = /name="request" value="([^"]+)"/.exec(html)?.[1];
  if (!id) throw new Error('the sign-in page has no pending request id');
  return id;
}

function locationOf(response: Response): URL {
  const location = response.headers.get('location');
  if (!location) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location);
}

describe('Entra ID stand-in', () => {
  let s: StandIns;
  let authorizeUrl: string;
  let tokenUrl: string;

  beforeAll(async () => {
    s = await startStandIns({ people: [ana, bruno, carla, hidden, mischief, edna] });
    authorizeUrl = `${s.authorityHost}/${s.tenantId}/oauth2/v2.0/authorize`;
    tokenUrl = `${s.authorityHost}/${s.tenantId}/oauth2/v2.0/token`;
  });
  afterAll(() => s.close());

  function authorizeParams(overrides: Record<string, string | null> = {}): URLSearchParams {
    const params: Record<string, string | null> = {
      client_id: s.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid profile email',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      state: 'estado-1',
      nonce: 'nonce-1',
      ...overrides,
    };
    return new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== null));
  }

  function openSignIn(params: URLSearchParams): Promise<Response> {
    return fetch(`${authorizeUrl}?${params.toString()}`, { redirect: 'manual' });
  }

  function choose(requestId: string, fields: Record<string, string>): Promise<Response> {
    return fetch(authorizeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ request: requestId, ...fields }),
      redirect: 'manual',
    });
  }

  /** Signs in by hand and returns the callback's code with the PKCE verifier that goes with it. */
  async function signInCode(person: StandInPerson): Promise<{ code: string; verifier: string }> {
    const { verifier, challenge } = pkce();
    const page = await openSignIn(authorizeParams({ code_challenge: challenge }));
    const callback = locationOf(await choose(requestIdIn(await page.text()), { person: person.id }));
    const code = callback.searchParams.get('code');
    if (!code) throw new Error(`no code in ${callback.href}`);
    return { code, verifier };
  }

  function postToken(fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields),
    });
  }

  function redeem(code: string, verifier: string, extra: Record<string, string> = {}): Promise<Response> {
    return postToken({ ...codeRedemption(s, code, verifier), ...extra });
  }

  function discover(...execute: ((config: client.Configuration) => void)[]): Promise<client.Configuration> {
    return client.discovery(new URL(s.issuer), s.clientId, s.clientSecret, undefined, {
      execute: [client.allowInsecureRequests, ...execute],
    });
  }

  /** The portal's whole sign-in, with the real openid-client, choosing `person` on the page. */
  async function openIdSignIn(config: client.Configuration, person: StandInPerson) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid profile email',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const callback = locationOf(await choose(requestIdIn(await page.text()), { person: person.id }));
    return client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
  }

  it('publishes discovery with the exact Entra-shaped issuer and endpoints', async () => {
    expect(s.issuer).toBe(`${s.authorityHost}/${s.tenantId}/v2.0`);
    expect(s.tenantId).toBe('00000000-0000-4000-8000-000000000001');
    const response = await fetch(`${s.issuer}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const metadata = await json(response);
    expect(metadata).toMatchObject({
      issuer: s.issuer,
      authorization_endpoint: authorizeUrl,
      token_endpoint: tokenUrl,
      jwks_uri: `${s.authorityHost}/${s.tenantId}/discovery/v2.0/keys`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      id_token_signing_alg_values_supported: ['RS256'],
      subject_types_supported: ['pairwise'],
    });
    expect(metadata.scopes_supported).toContain('openid');
    expect(metadata.claims_supported).toEqual(expect.arrayContaining(['oid', 'tid', 'roles', 'email']));
    // Profile fields are Graph's, never ID token claims (Entra's ID token claims and optional claims references).
    for (const claim of ['department', 'jobTitle', 'officeLocation']) {
      expect(metadata.claims_supported).not.toContain(claim);
    }

    const config = await discover();
    expect(config.serverMetadata().issuer).toBe(s.issuer);
  });

  it('refuses discovery for another tenant', async () => {
    const response = await fetch(`${s.authorityHost}/outro-tenant/v2.0/.well-known/openid-configuration`);
    expect(response.status).toBe(400);
    expect((await json(response)).error).toBe('invalid_tenant');
  });

  it('publishes an RS256 signing key with a kid', async () => {
    const jwks = await json(await fetch(`${s.authorityHost}/${s.tenantId}/discovery/v2.0/keys`));
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256', kid: expect.any(String) });
    expect(jwks.keys[0].d).toBeUndefined();
  });

  it('completes the authorization code flow with the real openid-client', async () => {
    const config = await discover(client.enableNonRepudiationChecks);
    const tokens = await openIdSignIn(config, ana);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: s.issuer,
      aud: s.clientId,
      oid: ana.id,
      tid: s.tenantId,
      name: 'Ana Souza',
      preferred_username: ana.userPrincipalName,
      email: ana.mail,
      roles: ['Admin'],
      ver: '2.0',
    });
    // Ana has them in Graph, but Entra does not put them in ID tokens.
    for (const claim of ['department', 'jobTitle', 'officeLocation']) expect(claims).not.toHaveProperty(claim);
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.sub).not.toBe(ana.id);
    expect(decodeProtectedHeader(tokens.id_token!)).toMatchObject({
      alg: 'RS256',
      typ: 'JWT',
      kid: expect.any(String),
    });

    const again = await openIdSignIn(config, ana);
    expect(again.claims()!.sub).toBe(claims.sub);
  });

  it('authenticates the client with HTTP Basic too, and leaves out claims a person lacks', async () => {
    const config = await client.discovery(
      new URL(s.issuer),
      s.clientId,
      undefined,
      client.ClientSecretBasic(s.clientSecret),
      {
        execute: [client.allowInsecureRequests],
      },
    );
    const claims = (await openIdSignIn(config, bruno)).claims()!;
    expect(claims.oid).toBe(bruno.id);
    expect(claims.preferred_username).toBe(bruno.userPrincipalName);
    expect(claims).not.toHaveProperty('email');
    expect(claims).not.toHaveProperty('roles');
    expect(claims).not.toHaveProperty('department');
  });

  it("gives a guest's token the e-mail and sign-in name of her home tenant, not Graph's mail or her UPN", async () => {
    const claims = (await openIdSignIn(await discover(), edna)).claims()!;
    expect(claims).toMatchObject({
      oid: edna.id,
      email: 'edna.silva@parceiro.com.br',
      preferred_username: 'edna.silva@parceiro.com.br',
    });
  });

  it('serves a Portuguese sign-in page listing the people shown on sign-in, escaped and locked down', async () => {
    const response = await openSignIn(authorizeParams());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[^']+'/);
    expect(csp).toContain("form-action 'self' http://127.0.0.1:5173");
    const html = await response.text();
    expect(html).toContain('<title>Entrar — simulação local do Microsoft Entra ID</title>');
    expect(html).toContain('lang="pt-BR"');
    expect(html).toContain('Ana Souza');
    expect(html).toContain('Administrador');
    expect(html).toContain('bruno.lima@contoso.onmicrosoft.com');
    expect(html).toContain('Usuário');
    expect(html).toContain('Conta desativada');
    expect(html).toContain('Cancelar');
    expect(html).not.toContain('Diretório Apenas');
    expect(html).not.toContain('<script');
    expect(html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
    expect(html).toContain('o&#39;brien&#38;&#34;co&#34;@example.com');
    expect(html).not.toMatch(/\s(src|href)=/);
  });

  it('answers an unknown client with an error page, not a redirect', async () => {
    const response = await openSignIn(authorizeParams({ client_id: 'app-desconhecido' }));
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    const html = await response.text();
    expect(html).toContain('Não foi possível entrar');
    expect(html).toContain('app-desconhecido');
  });

  it('answers a redirect_uri that is not an http(s) URL with an error page', async () => {
    for (const redirectUri of ['javascript:alert(1)', '/auth/callback', 'http://127.0.0.1:5173/cb#x']) {
      const response = await openSignIn(authorizeParams({ redirect_uri: redirectUri }));
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
  });

  it('redirects back with invalid_request when PKCE is missing or not S256', async () => {
    const variants: Record<string, string | null>[] = [
      { code_challenge: null },
      { code_challenge_method: null },
      { code_challenge_method: 'plain' },
    ];
    for (const overrides of variants) {
      const response = await openSignIn(authorizeParams(overrides));
      expect(response.status).toBe(302);
      const callback = locationOf(response);
      expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
      expect(callback.searchParams.get('error')).toBe('invalid_request');
      expect(callback.searchParams.get('state')).toBe('estado-1');
    }
  });

  it('redirects back with unsupported_response_type for anything but code', async () => {
    const callback = locationOf(await openSignIn(authorizeParams({ response_type: 'token' })));
    expect(callback.searchParams.get('error')).toBe('unsupported_response_type');
  });

  it('redirects back with access_denied when the person cancels', async () => {
    const page = await openSignIn(authorizeParams());
    const response = await choose(requestIdIn(await page.text()), { action: 'cancel' });
    expect(response.status).toBe(302);
    const callback = locationOf(response);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe('estado-1');
    expect(callback.searchParams.get('code')).toBeNull();
  });

  it('does not let a disabled person sign in', async () => {
    const page = await openSignIn(authorizeParams());
    const callback = locationOf(await choose(requestIdIn(await page.text()), { person: carla.id }));
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('error_description')).toContain('disabled');
  });

  it('redirects only to the redirect_uri kept server-side, and only once per page', async () => {
    const page = await openSignIn(authorizeParams());
    const requestId = requestIdIn(await page.text());
    const response = await choose(requestId, { person: ana.id, redirect_uri: 'https://evil.example/cb' });
    const callback = locationOf(response);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('state')).toBe('estado-1');

    const replay = await choose(requestId, { person: ana.id });
    expect(replay.status).toBe(400);
    expect(replay.headers.get('location')).toBeNull();
    expect(await replay.text()).toContain('expirou');

    const forged = await choose('nao-existe', { person: ana.id });
    expect(forged.status).toBe(400);
  });

  it('rejects a replayed code with invalid_grant', async () => {
    const { code, verifier } = await signInCode(ana);
    const first = await redeem(code, verifier);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const body = await json(first);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: expect.any(String) });
    expect(body.id_token).toEqual(expect.any(String));
    expect(body.access_token).toEqual(expect.any(String));

    const second = await redeem(code, verifier);
    expect(second.status).toBe(400);
    expect(await json(second)).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('redeemed'),
    });
  });

  it('rejects a wrong PKCE verifier with invalid_grant, and spends the code', async () => {
    const { code, verifier } = await signInCode(ana);
    const wrong = await redeem(code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).error).toBe('invalid_grant');
    expect((await redeem(code, verifier)).status).toBe(400);
  });

  it('rejects a code redeemed with another redirect_uri', async () => {
    const { code, verifier } = await signInCode(ana);
    const response = await redeem(code, verifier, { redirect_uri: 'http://127.0.0.1:5173/outro' });
    expect(response.status).toBe(400);
    expect((await json(response)).error).toBe('invalid_grant');
  });

  it('answers a wrong client secret with 401 invalid_client, by post and by Basic', async () => {
    const { code, verifier } = await signInCode(ana);
    const byPost = await redeem(code, verifier, { client_secret: 'errado' });
    expect(byPost.status).toBe(401);
    expect(await json(byPost)).toMatchObject({ error: 'invalid_client', error_description: expect.any(String) });

    const basic = Buffer.from(`${s.clientId}:errado`).toString('base64');
    const byBasic = await postToken(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier },
      { authorization: `Basic ${basic}` },
    );
    expect(byBasic.status).toBe(401);
    expect((await json(byBasic)).error).toBe('invalid_client');

    const unknown = await redeem(code, verifier, { client_id: 'outro-app' });
    expect(unknown.status).toBe(401);

    const wrongSecret = await client.discovery(new URL(s.issuer), s.clientId, 'errado', undefined, {
      execute: [client.allowInsecureRequests],
    });
    await expect(openIdSignIn(wrongSecret, ana)).rejects.toMatchObject({ error: 'invalid_client' });
  });

  it('answers unknown grant types with unsupported_grant_type', async () => {
    const response = await postToken({ grant_type: 'password', client_id: s.clientId, client_secret: s.clientSecret });
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({
      error: 'unsupported_grant_type',
      error_description: expect.any(String),
    });
  });

  it('fails the next sign-in with access_denied when told to, once', async () => {
    s.identity.failNext('access_denied');
    const denied = await openSignIn(authorizeParams());
    expect(denied.status).toBe(302);
    const callback = locationOf(denied);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('error_description')).toBeTruthy();
    expect(callback.searchParams.get('state')).toBe('estado-1');

    expect((await openSignIn(authorizeParams())).status).toBe(200);
  });

  it('fails the next code redemption with invalid_grant when told to, once', async () => {
    const config = await discover();
    s.identity.failNext('invalid_grant');
    await expect(openIdSignIn(config, ana)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(openIdSignIn(config, ana)).resolves.toBeDefined();
  });

  const badIdTokens: [IdentityFailure, RegExp][] = [
    ['bad_signature', /signature verification failed/],
    ['wrong_audience', /"aud"/],
    ['wrong_nonce', /"nonce"/],
    ['expired_id_token', /"exp"/],
  ];
  it.each(badIdTokens)('makes openid-client refuse the ID token on %s', async (failure, reason) => {
    const config = await discover(client.enableNonRepudiationChecks);
    s.identity.failNext(failure);
    const error = await openIdSignIn(config, ana).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(client.ClientError);
    expect((error as client.ClientError).cause).toMatchObject({ message: expect.stringMatching(reason) });
    await expect(openIdSignIn(config, ana)).resolves.toBeDefined();
  });

  it('forges bad_signature tokens that only a signature check catches', async () => {
    // openid-client skips ID token signatures from the token endpoint unless enableNonRepudiationChecks is on.
    const config = await discover();
    s.identity.failNext('bad_signature');
    await expect(openIdSignIn(config, ana)).resolves.toBeDefined();
  });

  it("gives the signed-in person a Graph token that may not list the directory, as Graph's User.Read would", async () => {
    const { code, verifier } = await signInCode(ana);
    const { access_token } = await json(await redeem(code, verifier));
    expect(decodeJwt(access_token)).toMatchObject({
      aud: 'https://graph.microsoft.com',
      oid: ana.id,
      scp: expect.any(String),
    });
    const response = await fetch(`${s.graphUrl}/v1.0/users`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(response.status).toBe(403);
    expect((await json(response)).error.code).toBe('Authorization_RequestDenied');
  });

  it('signs out back to the portal only, like end_session_endpoint', async () => {
    const logout = `${s.authorityHost}/${s.tenantId}/oauth2/v2.0/logout`;
    const back = await fetch(`${logout}?post_logout_redirect_uri=${encodeURIComponent('http://127.0.0.1:5173/')}`, {
      redirect: 'manual',
    });
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe('http://127.0.0.1:5173/');
    const elsewhere = await fetch(`${logout}?post_logout_redirect_uri=${encodeURIComponent('https://evil.example/')}`, {
      redirect: 'manual',
    });
    expect(elsewhere.status).toBe(200);
    expect(await elsewhere.text()).toContain('Você saiu');
  });

  it('issues client-credentials tokens for Graph and Power BI', async () => {
    const config = await discover();
    const graphToken = await client.clientCredentialsGrant(config, { scope: 'https://graph.microsoft.com/.default' });
    expect(graphToken.expires_in).toBe(3600);
    expect(decodeJwt(graphToken.access_token)).toMatchObject({
      aud: 'https://graph.microsoft.com',
      iss: s.issuer,
      appid: s.clientId,
      azp: s.clientId,
      tid: s.tenantId,
      roles: ['User.Read.All', 'Application.Read.All', 'GroupMember.Read.All'],
    });

    const powerBi = await client.clientCredentialsGrant(config, {
      scope: 'https://analysis.windows.net/powerbi/api/.default',
    });
    const claims = decodeJwt(powerBi.access_token);
    expect(claims.aud).toBe('https://analysis.windows.net/powerbi/api');
    expect(claims).not.toHaveProperty('roles');

    await expect(client.clientCredentialsGrant(config, { scope: 'User.Read' })).rejects.toMatchObject({
      error: 'invalid_scope',
    });
  });
});

describe('Microsoft Graph stand-in', () => {
  const disabledEvery = 10;
  const directory: StandInPerson[] = Array.from({ length: 2500 }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    displayName: `Pessoa ${i}`,
    mail: `pessoa.${i}@contoso.com.br`,
    userPrincipalName: `pessoa.${i}@contoso.com.br`,
    department: i % 2 ? 'Vendas' : 'Finanças',
    accountEnabled: i % disabledEvery !== 0,
  }));
  const enabledIds = directory.filter((person) => person.accountEnabled).map((person) => person.id);

  let s: StandIns;
  let appToken: string;
  let usersUrl: string;

  beforeAll(async () => {
    s = await startStandIns({ people: directory });
    usersUrl = `${s.graphUrl}/v1.0/users`;
    const config = await client.discovery(new URL(s.issuer), s.clientId, s.clientSecret, undefined, {
      execute: [client.allowInsecureRequests],
    });
    appToken = (await client.clientCredentialsGrant(config, { scope: 'https://graph.microsoft.com/.default' }))
      .access_token;
  });
  afterAll(() => s.close());

  function getUsers(url: string, token: string | null = appToken): Promise<Response> {
    return fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  }

  it('pages through 2,500 people with $top=999, leaving out disabled accounts', async () => {
    const select = 'id,displayName,mail,accountEnabled';
    let url: string | undefined =
      `${usersUrl}?$select=${select}&$filter=${encodeURIComponent('accountEnabled eq true')}&$top=999`;
    const pages: any[][] = [];
    while (url) {
      const response = await getUsers(url);
      expect(response.status).toBe(200);
      const body: any = await json(response);
      expect(body['@odata.context']).toBe(`${s.graphUrl}/v1.0/$metadata#users(id,displayName,mail,accountEnabled)`);
      pages.push(body.value);
      url = body['@odata.nextLink'];
      if (url) {
        const next = new URL(url);
        expect(next.origin + next.pathname).toBe(usersUrl);
        expect(next.searchParams.get('$select')).toBe(select);
        expect(next.searchParams.get('$filter')).toBe('accountEnabled eq true');
        expect(next.searchParams.get('$top')).toBe('999');
        expect(next.searchParams.get('$skiptoken')).toBeTruthy();
      }
    }
    expect(pages.map((page) => page.length)).toEqual([999, 999, enabledIds.length - 1998]);
    const ids = pages.flat().map((user) => user.id);
    expect(ids).toEqual(enabledIds);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.flat().every((user) => user.accountEnabled === true)).toBe(true);
  });

  it('honours $select, always with id', async () => {
    const body: any = await json(await getUsers(`${usersUrl}?$select=displayName,department&$top=2`));
    expect(body.value).toEqual([
      { id: directory[0]!.id, displayName: 'Pessoa 0', department: 'Finanças' },
      { id: directory[1]!.id, displayName: 'Pessoa 1', department: 'Vendas' },
    ]);
    expect(new URL(body['@odata.nextLink']).searchParams.get('$top')).toBe('2');
  });

  it("returns Graph's default properties without $select, which leave out department and accountEnabled", async () => {
    const body: any = await json(await getUsers(`${usersUrl}?$top=1`));
    expect(body.value[0]).toMatchObject({
      id: directory[0]!.id,
      displayName: 'Pessoa 0',
      mail: 'pessoa.0@contoso.com.br',
    });
    expect(body.value[0]).not.toHaveProperty('department');
    expect(body.value[0]).not.toHaveProperty('accountEnabled');
  });

  it('pages by 100 by default', async () => {
    const body: any = await json(await getUsers(usersUrl));
    expect(body.value).toHaveLength(100);
    expect(body['@odata.nextLink']).toContain('$skiptoken=');
  });

  it('refuses other filters, bad page sizes and unsupported options', async () => {
    for (const query of [
      `$filter=${encodeURIComponent("department eq 'Vendas'")}`,
      '$top=0',
      '$top=1000',
      '$top=abc',
      '$orderby=displayName',
    ]) {
      const response = await getUsers(`${usersUrl}?${query}`);
      expect(response.status, query).toBe(400);
      expect((await json(response)).error.code).toBe('Request_UnsupportedQuery');
    }
    const badSelect = await getUsers(`${usersUrl}?$select=naoExiste`);
    expect(badSelect.status).toBe(400);
    const badToken = await getUsers(`${usersUrl}?$skiptoken=lixo`);
    expect(badToken.status).toBe(400);
  });

  it('answers 401 in Graph error shape without a token or with one it did not issue for Graph', async () => {
    const powerBiToken = await json(await clientCredentials(s, 'https://analysis.windows.net/powerbi/api/.default'));
    const [header, payload] = appToken.split('.');
    const tampered = `${header}.${payload}.${Buffer.from('assinatura falsa').toString('base64url')}`;

    for (const token of [null, 'nao-e-um-jwt', tampered, powerBiToken.access_token]) {
      const response = await getUsers(usersUrl, token);
      expect(response.status).toBe(401);
      const body = await json(response);
      expect(body.error).toMatchObject({ code: 'InvalidAuthenticationToken', message: expect.any(String) });
    }
  });

  it('throttles when told to, with Retry-After, then serves again', async () => {
    s.graph.throttleNext(7, 2);
    for (let i = 0; i < 2; i++) {
      const throttled = await getUsers(`${usersUrl}?$top=1`);
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toBe('7');
      expect((await json(throttled)).error).toMatchObject({ code: 'TooManyRequests', message: expect.any(String) });
    }
    expect((await getUsers(`${usersUrl}?$top=1`)).status).toBe(200);
  });

  it('fails with the given status when told to, then serves again', async () => {
    s.graph.failNext(503);
    const failed = await getUsers(`${usersUrl}?$top=1`);
    expect(failed.status).toBe(503);
    expect((await json(failed)).error).toMatchObject({ code: 'ServiceUnavailable', message: expect.any(String) });
    expect((await getUsers(`${usersUrl}?$top=1`)).status).toBe(200);
  });

  it('logs every request with its status and whether it was authorized', async () => {
    const before = s.graph.requests.length;
    s.graph.failNext(500);
    await getUsers(`${usersUrl}?$top=3`, null);
    await getUsers(`${usersUrl}?$top=3`);
    await getUsers(`${usersUrl}?$top=3`);
    expect(s.graph.requests.slice(before)).toEqual([
      { url: `${usersUrl}?$top=3`, status: 401, authorized: false },
      { url: `${usersUrl}?$top=3`, status: 500, authorized: true },
      { url: `${usersUrl}?$top=3`, status: 200, authorized: true },
    ]);
  });

  it('serves one user by id, or by UPN, with $select as Graph does, disabled accounts included', async () => {
    const select = 'id,displayName,mail,userPrincipalName,userType,department,accountEnabled';
    const byId = await getUsers(`${usersUrl}/${directory[10]!.id}?$select=${select}`);
    expect(byId.status).toBe(200);
    expect(await json(byId)).toEqual({
      '@odata.context': `${s.graphUrl}/v1.0/$metadata#users(${select})/$entity`,
      id: directory[10]!.id,
      displayName: 'Pessoa 10',
      mail: 'pessoa.10@contoso.com.br',
      userPrincipalName: 'pessoa.10@contoso.com.br',
      userType: 'Member',
      department: 'Finanças',
      accountEnabled: false,
    });
    const byUpn = await json(await getUsers(`${usersUrl}/${encodeURIComponent('Pessoa.11@contoso.com.br')}`));
    // Without $select, Graph's defaults: no userType, department or accountEnabled.
    expect(byUpn).toMatchObject({
      '@odata.context': `${s.graphUrl}/v1.0/$metadata#users/$entity`,
      id: directory[11]!.id,
    });
    expect(byUpn).not.toHaveProperty('userType');
    expect(byUpn).not.toHaveProperty('accountEnabled');
  });

  it("gives a guest's userType, and answers 404 Request_ResourceNotFound for a user it does not know", async () => {
    s.graph.setPeople([...directory.slice(0, 3), { ...bruno, userType: 'Guest' }]);
    try {
      expect(await json(await getUsers(`${usersUrl}/${bruno.id}?$select=userType`))).toMatchObject({
        id: bruno.id,
        userType: 'Guest',
      });
      const unknown = await getUsers(`${usersUrl}/${directory[1000]!.id}?$select=id`);
      expect(unknown.status).toBe(404);
      expect((await json(unknown)).error.code).toBe('Request_ResourceNotFound');
      const badSelect = await getUsers(`${usersUrl}/${bruno.id}?$select=naoExiste`);
      expect(badSelect.status).toBe(400);
      expect((await getUsers(`${usersUrl}/${bruno.id}?$top=1`)).status).toBe(400);
    } finally {
      s.graph.setPeople(directory);
    }
  });

  it('serves the directory set with setPeople, in the given order', async () => {
    s.graph.setPeople([bruno, ana, carla]);
    const body: any = await json(await getUsers(`${usersUrl}?$select=id&$filter=accountEnabled eq true`));
    expect(body.value).toEqual([{ id: bruno.id }, { id: ana.id }]);
    expect(body).not.toHaveProperty('@odata.nextLink');
  });
});
