import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { portalEnvironment } from '@paineis/microsoft-stand-ins/stand-ins';
import type { StandInGroup, StandInReport } from '@paineis/microsoft-stand-ins/types';
import { person, useStandIns } from './microsoft.ts';
import { call, freePorts, printServerOutputOnFailure, startServer, type ServerProcess } from './server-process.ts';

/**
 * Several API instances on one PostgreSQL (README, "Using a PostgreSQL server"): two real server processes,
 * started together on one empty database, each with its own in-memory caches, talked to over HTTP. Whatever
 * one of them changes, the other must act on at its next request.
 */

const WORKSPACE = '0a0a0a0a-0000-4000-8000-00000000000a';
const regional: StandInReport = {
  workspaceId: WORKSPACE,
  reportId: '0b0b0b0b-0000-4000-8000-00000000000a',
  name: 'Vendas por Região',
  datasetId: '0c0c0c0c-0000-4000-8000-00000000000a',
  rls: true,
};
const plain: StandInReport = {
  workspaceId: WORKSPACE,
  reportId: '0b0b0b0b-0000-4000-8000-00000000000b',
  name: 'Metas',
  datasetId: '0c0c0c0c-0000-4000-8000-00000000000b',
  rls: false,
};
const ana = person('a1b2c3d4-0000-4000-8000-0000000000a1', 'Ana Regional');
const bia = person('a1b2c3d4-0000-4000-8000-0000000000b1', 'Bia Gestora', { appRoles: ['Admin'] });
/** Comercial ⊃ Comercial - Sul ⊃ Ana. */
const COMERCIAL = '0d0d0d0d-0000-4000-8000-000000000001';
const SUL = '0d0d0d0d-0000-4000-8000-000000000002';
const groups = (): StandInGroup[] => [
  { id: COMERCIAL, displayName: 'Comercial', securityEnabled: true, groupTypes: [], members: [SUL] },
  { id: SUL, displayName: 'Comercial - Sul', securityEnabled: true, groupTypes: [], members: [ana.id] },
];
const ADMIN = { username: 'admin.portal', password: 'senha-do-admin-local-123' };

/**
 * What the other instance answers, read again until it is `expected` or a second has passed (a change on
 * any instance takes effect everywhere within one second; each instance hears of it from PostgreSQL's NOTIFY).
 */
async function withinASecond(read: () => Promise<unknown>, expected: unknown): Promise<void> {
  const deadline = Date.now() + 1_000;
  let last = await read();
  while (!isDeepStrictEqual(last, expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    last = await read();
  }
  expect(last).toEqual(expected);
}

/** A Microsoft sign-in on `server` as a browser does it: portal → stand-in's page → choice → callback. */
async function microsoftSignIn(server: ServerProcess, personId: string): Promise<string> {
  const start = await fetch(`${server.url}/api/auth/microsoft-login`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const cookie = start.headers.get('set-cookie')!.split(';')[0]!;
  const authorize = new URL(start.headers.get('location')!);
  const html = await (await fetch(authorize)).text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
  const request = /name="request" value="([^"]+)"/.exec(html)![1]!;
  const chosen = await fetch(new URL(action, authorize), {
    method: 'POST',
    body: new URLSearchParams({ request, person: personId }),
    redirect: 'manual',
  });
  expect(chosen.status).toBe(302);
  const callback = new URL(chosen.headers.get('location')!);
  expect(callback.origin).toBe(server.url);
  const back = await fetch(callback, { headers: { cookie }, redirect: 'manual' });
  expect(back.status).toBe(302);
  const token = new URL(back.headers.get('location')!).searchParams.get('token');
  expect(token).toBeTruthy();
  return token!;
}

describe.skipIf(inject('database') !== 'postgres')('two API processes on one PostgreSQL database', () => {
  const standIns = useStandIns({ people: [ana, bia], reports: [regional, plain], groups: groups() });
  const name = `paineis_inst_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  let admin: pg.Client | undefined;
  let created = false;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  printServerOutputOnFailure(() => [a, b]);

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: inject('postgresUrl') });
    await admin.connect();
    // Empty, not the migrated template: both instances migrate it at once (under the advisory lock).
    await admin.query(`create database ${name}`);
    created = true;
    const url = new URL(inject('postgresUrl'));
    url.pathname = `/${name}`;
    const env = {
      DATABASE_URL: url.toString(),
      DATABASE_POOL_SIZE: '4',
      JWT_SECRET: 'segredo-compartilhado-pelas-duas-instancias-0123456789',
      PORTAL_ADMIN_USERNAME: ADMIN.username,
      PORTAL_ADMIN_PASSWORD: ADMIN.password,
      GRAPH_SYNC_INTERVAL_MINUTES: '0',
      LOG_LEVEL: 'warn',
      ...portalEnvironment(standIns.current),
    };
    // One at a time would hide races at start (migrations, the bootstrap admin, the first directory sync).
    const [portA, portB] = await freePorts(2);
    const started = await Promise.allSettled([
      startServer({ ...env, PORT: String(portA) }),
      startServer({ ...env, PORT: String(portB) }),
    ]);
    [a, b] = started.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    if (created) await admin?.query(`drop database if exists ${name} with (force)`);
    await admin?.end();
  });

  const signIn = async (server: ServerProcess) => {
    const res = await call(server, 'POST', '/api/auth/login', { body: ADMIN });
    expect(res.status).toBe(200);
    return res.json<{ token: string }>().token;
  };

  const status = (server: () => ServerProcess, url: string, token: string) => async () =>
    (await call(server(), 'GET', url, { token })).status;

  it('a token revoked on one instance is refused by the other within a second', async () => {
    const token = await signIn(a!);
    expect((await call(b!, 'GET', '/api/paineis', { token })).status).toBe(200);
    expect((await call(a!, 'POST', '/api/auth/logout-complete', { token })).status).toBe(204);
    await withinASecond(
      status(() => b!, '/api/paineis', token),
      401,
    );
    expect((await call(a!, 'GET', '/api/paineis', { token })).status).toBe(401);
  });

  it('a panel created, renamed and deleted on one instance is listed so by the other within a second', async () => {
    const token = await signIn(a!);
    const names = async (server: ServerProcess) => {
      const list = await call(server, 'GET', '/api/paineis', { token });
      const grouped = await call(server, 'GET', '/api/paineis/agrupados', { token });
      expect([list.status, grouped.status]).toEqual([200, 200]);
      return {
        list: list.json<{ nomePainel: string }[]>().map((p) => p.nomePainel),
        grouped: grouped
          .json<{ paineis: { nomePainel: string }[] }[]>()
          .flatMap((g) => g.paineis.map((p) => p.nomePainel)),
      };
    };
    // B reads (and caches) the list before A changes it.
    expect(await names(b!)).toEqual({ list: [], grouped: [] });

    const body = { nomePainel: 'Faturamento', workspaceId: WORKSPACE, reportId: randomUUID() };
    const created = await call(a!, 'POST', '/api/paineis', { token, body });
    expect(created.status).toBe(201);
    const id = created.json<{ id: number }>().id;
    await withinASecond(() => names(b!), { list: ['Faturamento'], grouped: ['Faturamento'] });

    const renamed = await call(a!, 'PUT', `/api/paineis/${id}`, { token, body: { ...body, nomePainel: 'Receita' } });
    expect(renamed.status).toBe(200);
    await withinASecond(() => names(b!), { list: ['Receita'], grouped: ['Receita'] });

    expect((await call(a!, 'DELETE', `/api/paineis/${id}`, { token })).status).toBe(204);
    await withinASecond(() => names(b!), { list: [], grouped: [] });
  });

  it('RLS roles and links changed on one instance change the embed identity the other serves', async () => {
    const token = await signIn(a!);
    const anaToken = await microsoftSignIn(b!, ana.id);
    const generateTokenIdentities = () =>
      standIns.current.powerBi.requests
        .filter((r) => r.path === '/v1.0/myorg/GenerateToken')
        .map((r) => (r.body as { identities?: { username: string; roles: string[] }[] }).identities);

    const created = await call(a!, 'POST', '/api/paineis', {
      token,
      body: {
        nomePainel: 'Vendas por Região',
        workspaceId: WORKSPACE,
        reportId: regional.reportId,
        usaRls: true,
        rlsConfigurations: [{ roleName: 'Sul', userEmails: [ana.mail] }],
      },
    });
    expect(created.status).toBe(201);
    const id = created.json<{ id: number }>().id;
    expect((await call(a!, 'POST', `/api/paineis/${id}/usuarios`, { token, body: [ana.id] })).status).toBe(200);

    // B serves what A changed within a second: the identity of the embed token it asks Power BI for.
    const identityOnB = async () => {
      standIns.current.powerBi.reset();
      const opened = await call(b!, 'GET', `/api/paineis/${id}`, { token: anaToken });
      return { status: opened.status, identities: generateTokenIdentities() };
    };
    await withinASecond(identityOnB, {
      status: 200,
      identities: [[{ username: ana.mail, roles: ['Sul'], datasets: [regional.datasetId] }]],
    });

    const rls = await call(a!, 'POST', `/api/paineis/${id}/rls`, {
      token,
      body: [
        { roleName: 'Sul', userEmails: [] },
        { roleName: 'Norte', userEmails: [ana.mail] },
      ],
    });
    expect(rls.status).toBe(200);
    await withinASecond(identityOnB, {
      status: 200,
      identities: [[{ username: ana.mail, roles: ['Norte'], datasets: [regional.datasetId] }]],
    });

    expect((await call(a!, 'POST', `/api/paineis/${id}/usuarios`, { token, body: [] })).status).toBe(200);
    await withinASecond(identityOnB, { status: 404, identities: [] });
    standIns.current.powerBi.reset();
    expect((await call(b!, 'GET', `/api/paineis/${id}/token`, { token: anaToken })).status).toBe(404);
    expect(generateTokenIdentities()).toEqual([]);
  });

  it('a group linked, and a member leaving it at a sync, on one instance change who opens a panel on the other', async () => {
    const token = await signIn(a!);
    const anaToken = await microsoftSignIn(b!, ana.id);
    const created = await call(a!, 'POST', '/api/paineis', {
      token,
      body: { nomePainel: 'Metas', workspaceId: WORKSPACE, reportId: plain.reportId },
    });
    expect(created.status).toBe(201);
    const id = created.json<{ id: number }>().id;
    const onB = status(() => b!, `/api/paineis/${id}`, anaToken);
    expect(await onB()).toBe(404);

    // Ana is in Comercial through Comercial - Sul: the link made on A opens the panel to her on B.
    const linked = await call(a!, 'POST', `/api/paineis/${id}/grupos`, { token, body: [COMERCIAL] });
    expect(linked.status).toBe(200);
    await withinASecond(onB, 200);

    // She leaves Comercial - Sul in Entra; A's sync finds it, and B refuses her.
    standIns.current.graph.removeGroupMember(SUL, ana.id);
    expect((await call(a!, 'POST', '/api/usuarios365/sincronizar', { token })).status).toBe(200);
    await withinASecond(onB, 404);
  });

  it('an admin demoted, then deactivated, through one instance loses those rights on the other within a second', async () => {
    const biaToken = await microsoftSignIn(b!, bia.id);
    expect((await call(b!, 'GET', '/api/usuarios365/ativos', { token: biaToken })).status).toBe(200);

    // Entra no longer gives her the Admin app role: her next sign-in, on A, withdraws it.
    standIns.current.graph.setPeople([ana, { ...bia, appRoles: [] }]);
    await microsoftSignIn(a!, bia.id);
    await withinASecond(
      status(() => b!, '/api/usuarios365/ativos', biaToken),
      403,
    );
    expect((await call(b!, 'GET', '/api/paineis', { token: biaToken })).status).toBe(200);

    // She leaves the directory: a sync on A marks her inactive, and B refuses her session.
    standIns.current.graph.setPeople([ana]);
    const sync = await call(a!, 'POST', '/api/usuarios365/sincronizar', { token: await signIn(a!) });
    expect(sync.status).toBe(200);
    expect(sync.json()).toMatchObject({ desativados: 1 });
    await withinASecond(
      status(() => b!, '/api/paineis', biaToken),
      401,
    );
  });
});
