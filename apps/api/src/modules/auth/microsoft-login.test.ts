import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import type { IdentityFailure, StandInPerson, StandInReport } from '@paineis/microsoft-stand-ins/types';
import { useTestApp, type TestContext } from '../../../test/context.ts';
import { microsoftConfig, person, useStandIns } from '../../../test/microsoft.ts';
import { createAdmin, link, panel } from '../../../test/fixtures.ts';
import { rows } from '../../db/client.ts';
import { recordMicrosoftSignIn, SIGN_IN_REFUSALS } from '../users/users.service.ts';

const PORTAL = 'http://portal.empresa.test';

const people = [
  person('a1b2c3d4-0000-4000-8000-000000000001', 'Ana Gestora', {
    appRoles: ['Admin'],
    department: 'Controladoria',
    jobTitle: 'Gerente',
    officeLocation: 'São Paulo',
  }),
  person('a1b2c3d4-0000-4000-8000-000000000002', 'Bruno Analista', { department: 'Comercial' }),
  // Named in ADMIN_USERS by her UPN, which is not her mail.
  person('a1b2c3d4-0000-4000-8000-000000000003', 'Carla Listada', {
    mail: 'Carla.Listada@Empresa.com.br',
    userPrincipalName: 'carla.listada@empresa.onmicrosoft.com',
  }),
  person('a1b2c3d4-0000-4000-8000-000000000004', 'Davi Sem Caixa', {
    mail: null,
    userPrincipalName: 'davi@empresa.com.br',
  }),
  // A guest: her token's email claim (from her home tenant, unverified here) is Carla's UPN, which ADMIN_USERS and
  // an RLS role list; ADMIN_USERS even names her own UPN. None of it may make her anything.
  person('a1b2c3d4-0000-4000-8000-000000000005', 'Edna Convidada', {
    mail: 'edna@parceiro.com.br',
    userPrincipalName: 'edna_parceiro.com.br#EXT#@empresa.onmicrosoft.com',
    userType: 'Guest',
    emailClaim: 'carla.listada@empresa.onmicrosoft.com',
  }),
  // Named in ADMIN_USERS by object id.
  person('a1b2c3d4-0000-4000-8000-000000000006', 'Fábio Pelo Id'),
];
const [ana, bruno, carla, davi, edna, fabio] = people as [
  StandInPerson,
  StandInPerson,
  StandInPerson,
  StandInPerson,
  StandInPerson,
  StandInPerson,
];
const ADMIN_USERS = `Carla.Listada@Empresa.onmicrosoft.com, ${fabio.id.toUpperCase()}, ${edna.userPrincipalName}`;

/**
 * One browser's sign-in, step by step: the portal's route (through inject, with the browser's cookie), the
 * stand-in's pages (through fetch), and back. Returns where the portal finally sends the browser.
 */
async function signIn(
  ctx: TestContext,
  choose: { personId: string } | { cancel: true },
  tamper: (callback: URL, cookie: string) => { callback: URL; cookie: string } = (callback, cookie) => ({
    callback,
    cookie,
  }),
) {
  const start = await ctx.app.inject({ url: '/api/auth/microsoft-login', headers: { host: 'portal.empresa.test' } });
  expect(start.statusCode).toBe(302);
  const cookie = String(start.headers['set-cookie']).split(';')[0]!;
  const authorize = new URL(String(start.headers.location));
  const page = await fetch(authorize, { redirect: 'manual' });
  if (page.status === 302) return { final: new URL(String(page.headers.get('location'))), authorize, cookie };
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
  const requestId = /name="request" value="([^"]+)"/.exec(html)![1]!;
  const form = new URLSearchParams({ request: requestId });
  if ('cancel' in choose) form.set('action', 'cancel');
  else form.set('person', choose.personId);
  const chosen = await fetch(new URL(action, authorize), { method: 'POST', body: form, redirect: 'manual' });
  expect(chosen.status).toBe(302);
  const back = tamper(new URL(String(chosen.headers.get('location'))), cookie);
  expect(back.callback.origin).toBe(PORTAL);
  const callback = await ctx.app.inject({
    url: back.callback.pathname + back.callback.search,
    headers: { host: 'portal.empresa.test', cookie: back.cookie },
  });
  expect(callback.statusCode).toBe(302);
  return { final: new URL(String(callback.headers.location)), authorize, cookie, callback: back.callback, html };
}

/** A local administrator's session, for the routes a sign-in test needs besides the sign-in. */
const adminToken = async (ctx: TestContext) => ctx.tokenFor(await createAdmin(ctx.db, { id: 'admin-local' }));

const tokenOf = (final: URL) => {
  expect(final.origin + final.pathname).toBe(`${PORTAL}/login`);
  const token = final.searchParams.get('token');
  expect(token).toBeTruthy();
  return token!;
};
const expectLoginError = (final: URL) => {
  expect(final.origin + final.pathname).toBe(`${PORTAL}/login`);
  expect(Object.fromEntries(final.searchParams)).toEqual({ erro: 'microsoft' });
};

const regional: StandInReport = {
  workspaceId: '0a0a0a0a-0000-4000-8000-000000000001',
  reportId: '0b0b0b0b-0000-4000-8000-000000000001',
  name: 'Vendas por Região',
  datasetId: '0c0c0c0c-0000-4000-8000-000000000001',
  rls: true,
};

describe('Microsoft sign-in through the stand-in Entra ID', () => {
  const standIns = useStandIns({ people, reports: [regional] });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current, { ADMIN_USERS }),
    // Graph's retries at sign-in are not waited through.
    graphOptions: { sleep: async () => undefined },
  }));
  beforeEach(() => {
    standIns.current.graph.reset();
    standIns.current.graph.setPeople(people);
    standIns.current.powerBi.reset();
  });

  it('sends the browser to the tenant with PKCE, state and nonce, keeping them in a signed HttpOnly cookie', async () => {
    const start = await ctx.app.inject({ url: '/api/auth/microsoft-login', headers: { host: 'portal.empresa.test' } });
    expect(start.statusCode).toBe(302);
    const url = new URL(String(start.headers.location));
    expect(url.origin + url.pathname).toBe(`${standIns.current.issuer.replace('/v2.0', '')}/oauth2/v2.0/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: standIns.current.clientId,
      redirect_uri: `${PORTAL}/api/auth/microsoft-callback`,
      response_type: 'code',
      code_challenge_method: 'S256',
      scope: 'openid profile email',
    });
    for (const p of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(p)).toMatch(/^[\w-]{20,}$/);
    const cookie = String(start.headers['set-cookie']);
    expect(cookie).toMatch(/^paineis_oidc=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/auth/);
    expect(cookie).toMatch(/Max-Age=600/);
  });

  it('signs a person in: the callback validates the ID token, reads the person from Graph and lands on /login?token=', async () => {
    const { final, html } = await signIn(ctx, { personId: bruno.id });
    // The stand-in's page offered the people, with their roles.
    expect(html).toContain('Ana Gestora');
    expect(html).toContain('Administrador');
    const token = tokenOf(final);
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      sub: bruno.id,
      name: bruno.mail,
      unique_name: bruno.mail,
      email: bruno.mail,
      displayName: 'Bruno Analista',
      role: 'User',
      department: 'Comercial',
      iss: ctx.config.jwt.issuer,
      aud: ctx.config.jwt.audience,
    });
    expect(claims.jti).toEqual(expect.any(String));

    const [row] = await rows(
      ctx.db,
      sql`select id, email, upn, tipo, display_name, department, role, source, active from usuarios`,
    );
    expect(row).toEqual({
      id: bruno.id,
      email: bruno.mail,
      upn: bruno.userPrincipalName,
      tipo: 'Member',
      display_name: 'Bruno Analista',
      department: 'Comercial',
      role: 'User',
      source: 'entra',
      active: true,
    });
    // One read of the person, by the token's oid, with what the portal keeps.
    const reads = standIns.current.graph.requests.map((r) => new URL(r.url));
    expect(reads.map((u) => u.pathname)).toEqual([`/v1.0/users/${bruno.id}`]);
    expect(reads[0]!.searchParams.get('$select')).toBe(
      'id,displayName,mail,userPrincipalName,userType,department,jobTitle,officeLocation,accountEnabled',
    );

    // The token works, and shows what is linked to this person.
    const p = await panel(ctx.db, { nomePainel: 'Metas Comerciais' });
    await link(ctx.db, p.id, [bruno.id]);
    const list = await ctx.request('GET', '/api/paineis', { token });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject([{ nomePainel: 'Metas Comerciais' }]);
  });

  it('records the sign-in, and a refused one, in the audit trail (docs/requirements.md#audit)', async () => {
    tokenOf((await signIn(ctx, { personId: bruno.id })).final);
    expectLoginError((await signIn(ctx, { cancel: true })).final);
    const trail = await rows<{ usuario_id: string | null; usuario: string | null; acao: string; mudancas: unknown }>(
      ctx.db,
      sql`select usuario_id, usuario, acao, mudancas from auditoria where objeto = 'sessao' order by id`,
    );
    expect(trail).toEqual([
      {
        usuario_id: bruno.id,
        usuario: bruno.mail,
        acao: 'login',
        mudancas: [{ campo: 'metodo', depois: 'Microsoft' }],
      },
      {
        usuario_id: null,
        usuario: null,
        acao: 'login_recusado',
        mudancas: [
          { campo: 'metodo', depois: 'Microsoft' },
          { campo: 'motivo', depois: 'resposta do Entra ID recusada' },
        ],
      },
    ]);
    const [last] = await rows<{ usuario_id: string }>(ctx.db, sql`select usuario_id from ultimos_logins`);
    expect(last).toEqual({ usuario_id: bruno.id });
  });

  it('makes an admin of an Entra app role Admin, with department, job title and office from Graph', async () => {
    const token = tokenOf((await signIn(ctx, { personId: ana.id })).final);
    expect(decodeJwt(token)).toMatchObject({
      role: 'Admin',
      department: 'Controladoria',
      jobTitle: 'Gerente',
      officeLocation: 'São Paulo',
    });
    expect((await ctx.request('GET', '/api/classificacoes/admin', { token })).statusCode).toBe(200);
  });

  it('takes the profile from Graph at each sign-in, not from the ID token (which has none of it)', async () => {
    tokenOf((await signIn(ctx, { personId: ana.id })).final);
    standIns.current.graph.setPeople(
      people.map((p) => (p === ana ? { ...p, jobTitle: 'Diretora', officeLocation: null, department: 'Finanças' } : p)),
    );
    const token = tokenOf((await signIn(ctx, { personId: ana.id })).final);
    expect(decodeJwt(token)).toMatchObject({ department: 'Finanças', jobTitle: 'Diretora', officeLocation: null });
    expect(
      await rows(ctx.db, sql`select department, job_title, office_location from usuarios where id = ${ana.id}`),
    ).toEqual([{ department: 'Finanças', job_title: 'Diretora', office_location: null }]);
  });

  it('makes an admin of a member ADMIN_USERS names by UPN (any case), though the UPN is not the mail', async () => {
    const token = tokenOf((await signIn(ctx, { personId: carla.id })).final);
    expect(decodeJwt(token)).toMatchObject({ role: 'Admin', email: 'carla.listada@empresa.com.br' });
    expect(await rows(ctx.db, sql`select role, role_source from usuarios`)).toEqual([
      { role: 'Admin', role_source: 'config' },
    ]);
  });

  it('makes an admin of a person ADMIN_USERS names by object id', async () => {
    const token = tokenOf((await signIn(ctx, { personId: fabio.id })).final);
    expect(decodeJwt(token)).toMatchObject({ role: 'Admin' });
  });

  it('makes nothing of a guest whose token e-mail an admin entry and an RLS role list, nor of her UPN in ADMIN_USERS', async () => {
    const token = tokenOf((await signIn(ctx, { personId: edna.id })).final);
    const carlaToken = tokenOf((await signIn(ctx, { personId: carla.id })).final);
    const p = await panel(ctx.db, {
      nomePainel: 'Vendas por Região',
      workspaceId: regional.workspaceId,
      reportId: regional.reportId,
      usaRls: true,
      rlsConfigurations: [{ roleName: 'Sul', userEmails: ['carla.listada@empresa.onmicrosoft.com'] }],
    });
    await link(ctx.db, p.id, [edna.id, carla.id]);
    // Her directory identity, not the token's claim.
    expect(decodeJwt(token)).toMatchObject({ role: 'User', email: 'edna@parceiro.com.br' });
    expect((await ctx.request('GET', '/api/classificacoes/admin', { token })).statusCode).toBe(403);
    const opened = await ctx.request('GET', `/api/paineis/${p.id}`, { token });
    expect(opened.statusCode).toBe(403);
    expect(opened.json()).toEqual({
      message:
        'Você não está em nenhum papel de segurança em nível de linha (RLS) deste painel. Peça acesso a um administrador.',
    });
    expect(await rows(ctx.db, sql`select email, upn, tipo, role from usuarios where id = ${edna.id}`)).toEqual([
      { email: 'edna@parceiro.com.br', upn: edna.userPrincipalName, tipo: 'Guest', role: 'User' },
    ]);
    // Carla, whose UPN the role lists, is in it, and her UPN is the effective identity's username.
    expect((await ctx.request('GET', `/api/paineis/${p.id}`, { token: carlaToken })).statusCode).toBe(200);
    const generated = standIns.current.powerBi.requests.filter((r) => r.path === '/v1.0/myorg/GenerateToken');
    expect(generated.map((r) => (r.body as { identities: unknown }).identities)).toEqual([
      [{ username: carla.userPrincipalName, roles: ['Sul'], datasets: [regional.datasetId] }],
    ]);
  });

  it('withdraws an Admin role Entra granted once Entra withdraws it, and open sessions lose it at once', async () => {
    const before = tokenOf((await signIn(ctx, { personId: ana.id })).final);
    expect((await ctx.request('GET', '/api/classificacoes/admin', { token: before })).statusCode).toBe(200);
    standIns.current.graph.setPeople(people.map((p) => (p === ana ? { ...p, appRoles: [] } : p)));
    const after = tokenOf((await signIn(ctx, { personId: ana.id })).final);
    expect(decodeJwt(after)).toMatchObject({ role: 'User' });
    // The token issued while Ana was Admin says Admin, but the portal reads the role anew on every request.
    expect(decodeJwt(before)).toMatchObject({ role: 'Admin' });
    expect((await ctx.request('GET', '/api/classificacoes/admin', { token: before })).statusCode).toBe(403);
    expect(await rows(ctx.db, sql`select role, role_source from usuarios`)).toEqual([
      { role: 'User', role_source: null },
    ]);
    // Entra grants it again: Admin again.
    standIns.current.graph.setPeople(people);
    expect(decodeJwt(tokenOf((await signIn(ctx, { personId: ana.id })).final))).toMatchObject({ role: 'Admin' });
  });

  it('never withdraws an Admin role that ADMIN_USERS gives, with or without the Entra app role', async () => {
    standIns.current.graph.setPeople(people.map((p) => (p === carla ? { ...p, appRoles: ['Admin'] } : p)));
    await signIn(ctx, { personId: carla.id });
    standIns.current.graph.setPeople(people);
    const token = tokenOf((await signIn(ctx, { personId: carla.id })).final);
    expect(decodeJwt(token)).toMatchObject({ role: 'Admin' });
    expect(await rows(ctx.db, sql`select role, role_source from usuarios`)).toEqual([
      { role: 'Admin', role_source: 'config' },
    ]);
  });

  it('uses the UPN as the e-mail when the account has no mail', async () => {
    const token = tokenOf((await signIn(ctx, { personId: davi.id })).final);
    expect(decodeJwt(token)).toMatchObject({ email: 'davi@empresa.com.br', role: 'User' });
  });

  it('keeps a role stored in the portal, and updates name and e-mail on the next sign-in', async () => {
    await signIn(ctx, { personId: bruno.id });
    await ctx.db.execute(sql`update usuarios set role = 'Admin', display_name = 'Nome antigo' where id = ${bruno.id}`);
    const token = tokenOf((await signIn(ctx, { personId: bruno.id })).final);
    expect(decodeJwt(token)).toMatchObject({ role: 'Admin', displayName: 'Bruno Analista' });
    expect(await rows(ctx.db, sql`select count(*)::int as n from usuarios`)).toEqual([{ n: 1 }]);
  });

  it('reactivates a person marked inactive by the directory sync when Entra lets them sign in again', async () => {
    await signIn(ctx, { personId: bruno.id });
    await ctx.db.execute(sql`update usuarios set active = false`);
    const token = tokenOf((await signIn(ctx, { personId: bruno.id })).final);
    expect((await ctx.request('GET', '/api/paineis', { token })).statusCode).toBe(200);
  });

  describe('when Graph cannot answer', () => {
    it('signs in a person the last sync stored, with what it stored, and says so in the log', async () => {
      expect(
        (await ctx.request('POST', '/api/usuarios365/sincronizar', { token: await adminToken(ctx) })).statusCode,
      ).toBe(200);
      standIns.current.graph.reset();
      standIns.current.graph.failNext(503, 10);
      const token = tokenOf((await signIn(ctx, { personId: ana.id })).final);
      expect(decodeJwt(token)).toMatchObject({
        sub: ana.id,
        role: 'Admin',
        email: ana.mail,
        department: 'Controladoria',
        jobTitle: 'Gerente',
        officeLocation: 'São Paulo',
      });
      // Tried, and retried a little: a person is waiting.
      expect(standIns.current.graph.requests.map((r) => r.status)).toEqual([503, 503, 503]);
    });

    it('refuses a person it never stored, with the reason in the audit trail', async () => {
      standIns.current.graph.failNext(503, 10);
      expectLoginError((await signIn(ctx, { personId: bruno.id })).final);
      expect(await rows(ctx.db, sql`select id from usuarios`)).toEqual([]);
      const [refused] = await rows<{ usuario_id: string | null; mudancas: unknown }>(
        ctx.db,
        sql`select usuario_id, mudancas from auditoria where acao = 'login_recusado'`,
      );
      expect(refused).toEqual({
        usuario_id: bruno.id,
        mudancas: [
          { campo: 'metodo', depois: 'Microsoft' },
          { campo: 'motivo', depois: 'diretório indisponível e pessoa ainda não sincronizada' },
        ],
      });
      expect(SIGN_IN_REFUSALS.directoryUnavailable).toBe('diretório indisponível e pessoa ainda não sincronizada');
    });
  });

  it('refuses an account Graph says is disabled, even with a valid ID token, and one Graph does not know', async () => {
    // Entra's own sign-in refuses it first; the portal checks what Graph says all the same.
    const signedIn = await recordMicrosoftSignIn(
      ctx.db,
      ctx.app.graph!,
      { oid: ana.id, appRoles: ['Admin'] },
      [],
      ctx.app.log,
    );
    expect(signedIn).toMatchObject({ user: { id: ana.id } });
    standIns.current.graph.setPeople(people.map((p) => (p === ana ? { ...p, accountEnabled: false } : p)));
    expect(
      await recordMicrosoftSignIn(ctx.db, ctx.app.graph!, { oid: ana.id, appRoles: ['Admin'] }, [], ctx.app.log),
    ).toEqual({ refused: 'conta desativada no diretório' });
    // An id Graph does not know (404), never stored either.
    expect(
      await recordMicrosoftSignIn(
        ctx.db,
        ctx.app.graph!,
        { oid: 'a1b2c3d4-0000-4000-8000-0000000000ff', appRoles: [] },
        [],
        ctx.app.log,
      ),
    ).toEqual({ refused: 'pessoa não encontrada no diretório' });
  });

  describe('every failure lands on /login?erro=microsoft, never on an error page, and signs no one in', () => {
    it('the person cancels on the Microsoft page', async () => {
      expectLoginError((await signIn(ctx, { cancel: true })).final);
    });

    it.each<IdentityFailure>([
      'access_denied',
      'invalid_grant',
      'bad_signature',
      'wrong_audience',
      'wrong_nonce',
      'expired_id_token',
    ])('the identity provider fails with %s', async (failure) => {
      standIns.current.identity.failNext(failure);
      const { final, authorize } = await signIn(ctx, { personId: people[1]!.id });
      if (failure === 'access_denied') {
        // Microsoft sent the browser straight back with the error; the portal turns it into its own.
        const back = await ctx.app.inject({
          url: final.pathname + final.search,
          headers: { host: 'portal.empresa.test' },
        });
        expectLoginError(new URL(String(back.headers.location)));
        expect(authorize.searchParams.get('state')).toBe(final.searchParams.get('state'));
      } else {
        expectLoginError(final);
      }
      expect(await rows(ctx.db, sql`select id from usuarios`)).toEqual([]);
    });

    it('the state in the address is not the one the browser was given', async () => {
      const { final } = await signIn(ctx, { personId: people[1]!.id }, (callback, cookie) => {
        callback.searchParams.set('state', 'estado-forjado');
        return { callback, cookie };
      });
      expectLoginError(final);
    });

    it('the browser comes back without the cookie (another browser, or after ten minutes)', async () => {
      expectLoginError(
        (await signIn(ctx, { personId: people[1]!.id }, (callback) => ({ callback, cookie: '' }))).final,
      );
    });

    it('the cookie was altered', async () => {
      const { final } = await signIn(ctx, { personId: people[1]!.id }, (callback, cookie) => ({
        callback,
        cookie: cookie.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')),
      }));
      expectLoginError(final);
    });

    it('the same code is replayed', async () => {
      const first = await signIn(ctx, { personId: people[1]!.id });
      tokenOf(first.final);
      const replay = await ctx.app.inject({
        url: first.callback!.pathname + first.callback!.search,
        headers: { host: 'portal.empresa.test', cookie: first.cookie },
      });
      expectLoginError(new URL(String(replay.headers.location)));
    });

    it('the callback is opened with nothing at all', async () => {
      const res = await ctx.app.inject({
        url: '/api/auth/microsoft-callback',
        headers: { host: 'portal.empresa.test' },
      });
      expectLoginError(new URL(String(res.headers.location)));
    });
  });
});

describe('Microsoft sign-in behind a proxy, with PUBLIC_URL', () => {
  const standIns = useStandIns({ people });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current, { PUBLIC_URL: 'https://paineis.empresa.com.br/' }),
  }));

  it('uses PUBLIC_URL, not the Host header, for the callback, a Secure cookie and the landing page', async () => {
    const start = await ctx.app.inject({ url: '/api/auth/microsoft-login', headers: { host: 'interno:3000' } });
    const url = new URL(String(start.headers.location));
    expect(url.searchParams.get('redirect_uri')).toBe('https://paineis.empresa.com.br/api/auth/microsoft-callback');
    expect(String(start.headers['set-cookie'])).toMatch(/Secure/);
    const failed = await ctx.app.inject({ url: '/api/auth/microsoft-callback', headers: { host: 'interno:3000' } });
    expect(String(failed.headers.location)).toBe('https://paineis.empresa.com.br/login?erro=microsoft');
  });
});

describe('Microsoft sign-in without Microsoft configuration', () => {
  const ctx = useTestApp();

  it('sends the browser back to /login with the error instead of failing', async () => {
    const res = await ctx.app.inject({ url: '/api/auth/microsoft-login', headers: { host: 'portal.empresa.test' } });
    expect(res.statusCode).toBe(302);
    expectLoginError(new URL(String(res.headers.location)));
  });
});

describe('Microsoft sign-in when Entra ID cannot be reached', () => {
  const ctx = useTestApp(() => ({
    config: microsoftConfig({
      tenantId: 't',
      clientId: 'c',
      clientSecret: 's',
      authorityHost: 'http://127.0.0.1:9',
      graphUrl: 'http://127.0.0.1:9',
    } as never),
  }));

  it('sends the browser back to /login with the error', async () => {
    const res = await ctx.app.inject({ url: '/api/auth/microsoft-login', headers: { host: 'portal.empresa.test' } });
    expectLoginError(new URL(String(res.headers.location)));
  });
});
