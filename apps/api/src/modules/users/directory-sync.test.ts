import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StandInPerson } from '@paineis/microsoft-stand-ins/types';
import { eventually } from '../../../test/eventually.ts';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser, link, panel } from '../../../test/fixtures.ts';
import { microsoftConfig, person, useStandIns } from '../../../test/microsoft.ts';
import { rows } from '../../db/client.ts';
import { ensureLocalAccounts } from '../auth/bootstrap-accounts.ts';
import { ensureLocalAccountUser, seedUsers } from './users.service.ts';
import { SYNC_FAILED, SYNC_NOT_CONFIGURED } from '../../plugins/microsoft-error-answers.ts';

const directory = (count: number): StandInPerson[] =>
  Array.from({ length: count }, (_, i) =>
    person(`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, `Pessoa ${String(i).padStart(5, '0')}`, {
      department: i % 7 === 0 ? null : `Departamento ${i % 12}`,
      jobTitle: i % 5 === 0 ? null : `Cargo ${i % 4}`,
      officeLocation: i % 3 === 0 ? null : `Escritório ${i % 6}`,
      // Some people's UPN is not their mail; a few are guests.
      ...(i % 9 === 0 ? { userPrincipalName: `p${i}@empresa.onmicrosoft.com` } : {}),
      ...(i % 11 === 0 ? { userType: 'Guest' as const } : {}),
      showOnSignIn: false,
    }),
  );

describe('directory sync from Microsoft Graph', () => {
  const standIns = useStandIns({ people: [] });
  const waits: number[] = [];
  /** While set, a wait for Graph's Retry-After lasts until the test opens it. */
  let waitGate: Promise<void> | null = null;
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    // Retry-After is honoured, but the test records the wait instead of sleeping through it.
    graphOptions: {
      sleep: async (ms) => {
        waits.push(ms);
        await waitGate;
      },
    },
  }));
  let token: string;

  beforeEach(async () => {
    waits.length = 0;
    standIns.current.graph.reset();
    standIns.current.graph.setPeople([]);
    token = await ctx.tokenFor(await createAdmin(ctx.db, { id: 'admin-local' }));
  });

  const sync = () => ctx.request('POST', '/api/usuarios365/sincronizar', { token });
  /** The reads of the user list (the sync also reads who holds the app role Admin). */
  const userPages = () => standIns.current.graph.requests.filter((r) => new URL(r.url).pathname === '/v1.0/users');
  const entraUsers = () =>
    rows<{
      id: string;
      email: string;
      upn: string | null;
      tipo: string | null;
      display_name: string;
      department: string | null;
      job_title: string | null;
      office_location: string | null;
      active: boolean;
    }>(
      ctx.db,
      sql`select id, email, upn, tipo, display_name, department, job_title, office_location, active from usuarios
          where source = 'entra' order by id`,
    );

  it('reads all 25,000 people page by page, with the service principal token, into the users table', async () => {
    const people = directory(25_000);
    standIns.current.graph.setPeople(people);
    const res = await sync();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ativos: 25_000, desativados: 0, duracaoMs: expect.any(Number) });

    const requests = userPages();
    expect(requests).toHaveLength(Math.ceil(25_000 / 999));
    expect(requests.every((r) => r.status === 200 && r.authorized)).toBe(true);
    const first = new URL(requests[0]!.url);
    expect(first.pathname).toBe('/v1.0/users');
    expect(Object.fromEntries(first.searchParams)).toEqual({
      $select: 'id,displayName,mail,userPrincipalName,userType,department,jobTitle,officeLocation,accountEnabled',
      $filter: 'accountEnabled eq true',
      $top: '999',
    });

    const stored = await entraUsers();
    expect(stored).toHaveLength(25_000);
    expect(stored[7]).toEqual({
      id: people[7]!.id,
      email: people[7]!.mail,
      upn: people[7]!.userPrincipalName,
      tipo: 'Member',
      display_name: 'Pessoa 00007',
      department: null,
      job_title: 'Cargo 3',
      office_location: 'Escritório 1',
      active: true,
    });
    // The directory's UPN and user type, each as Graph gives them.
    expect(stored[99]).toMatchObject({ email: people[99]!.mail, upn: 'p99@empresa.onmicrosoft.com', tipo: 'Guest' });
    // The directory the links modal reads has them all (plus the local admin).
    const listed = await ctx.request('GET', '/api/usuarios365/ativos', { token });
    expect(listed.json<unknown[]>()).toHaveLength(25_001);
  });

  it('waits as Graph asks when it throttles part-way, then carries on where it was', async () => {
    standIns.current.graph.setPeople(directory(3_000));
    standIns.current.graph.throttleNext(7, 2, 2); // pages 1 and 2 pass, then two 429s
    const res = await sync();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ativos: 3_000 });
    expect(waits).toEqual([7000, 7000]);
    expect(userPages().map((r) => r.status)).toEqual([200, 200, 429, 429, 200, 200]);
    expect(await entraUsers()).toHaveLength(3_000);
  });

  it('marks people who left or were disabled as inactive, keeping their links, and brings them back', async () => {
    const people = directory(5);
    standIns.current.graph.setPeople(people);
    await sync();
    const p = await panel(ctx.db, { nomePainel: 'Metas' });
    await link(ctx.db, p.id, [people[1]!.id, people[2]!.id]);
    const leaverToken = await ctx.tokenFor({ ...people[1]!, email: people[1]!.mail!, role: 'User' });
    expect((await ctx.request('GET', '/api/paineis', { token: leaverToken })).statusCode).toBe(200);

    // Person 1 left; person 2 was disabled; person 3 was renamed and given a job title; a newcomer arrived.
    const newcomer = person('00000000-0000-4000-8000-999999999999', 'Recém Chegada');
    standIns.current.graph.setPeople([
      people[0]!,
      { ...people[2]!, accountEnabled: false },
      { ...people[3]!, displayName: 'Pessoa Renomeada', jobTitle: 'Gerente', officeLocation: 'Recife' },
      people[4]!,
      newcomer,
    ]);
    const res = await sync();
    expect(res.json()).toMatchObject({ ativos: 4, desativados: 2 });
    const stored = new Map((await entraUsers()).map((u) => [u.id, u]));
    expect(stored.get(people[1]!.id)?.active).toBe(false);
    expect(stored.get(people[2]!.id)?.active).toBe(false);
    expect(stored.get(people[3]!.id)).toMatchObject({
      active: true,
      display_name: 'Pessoa Renomeada',
      job_title: 'Gerente',
      office_location: 'Recife',
    });
    expect(stored.get(newcomer.id)?.active).toBe(true);
    // Links are kept; the person's session ends; the directory no longer offers them.
    expect(await rows(ctx.db, sql`select usuario_id from painel_usuarios order by usuario_id`)).toEqual([
      { usuario_id: people[1]!.id },
      { usuario_id: people[2]!.id },
    ]);
    expect((await ctx.request('GET', '/api/paineis', { token: leaverToken })).statusCode).toBe(401);
    const listed = (await ctx.request('GET', '/api/usuarios365/ativos', { token })).json<{ id: string }[]>();
    expect(listed.map((u) => u.id)).not.toContain(people[1]!.id);

    standIns.current.graph.setPeople(people);
    await sync();
    expect((await ctx.request('GET', '/api/paineis', { token: leaverToken })).json()).toMatchObject([
      { nomePainel: 'Metas' },
    ]);
  });

  it('never deactivates local accounts or people the portal did not get from Microsoft', async () => {
    const local = await createUser(ctx.db, { id: 'pessoa-local' });
    standIns.current.graph.setPeople(directory(3));
    await sync();
    standIns.current.graph.setPeople([]);
    const res = await sync();
    expect(res.json()).toMatchObject({ ativos: 0, desativados: 3 });
    expect(await rows(ctx.db, sql`select active from usuarios where id in (${local.id}, 'admin-local')`)).toEqual([
      { active: true },
      { active: true },
    ]);
  });

  it('leaves the previous data exactly as it was when Graph fails part-way, and says so', async () => {
    standIns.current.graph.setPeople(directory(3_000));
    await sync();
    const before = await entraUsers();
    standIns.current.graph.setPeople(directory(2_000).map((p) => ({ ...p, displayName: 'Mudou' })));
    standIns.current.graph.failNext(503, 20, 1); // page 1 passes, then Graph stays down past every retry
    const res = await sync();
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: SYNC_FAILED });
    expect(await entraUsers()).toEqual(before);
    expect(waits.length).toBeGreaterThan(0);
  });

  it('answers the requests made during a sync with one more sync after it, which they share', async () => {
    standIns.current.graph.setPeople(directory(1_500));
    // Graph throttles the first page, and the first sync waits there until the test lets it go.
    let open!: () => void;
    waitGate = new Promise((resolve) => (open = resolve));
    standIns.current.graph.throttleNext(1);
    const first = sync();
    await eventually(() => expect(waits).toHaveLength(1));
    const during = [sync(), sync()] as const;
    waitGate = null;
    open();
    const [a, b, c] = await Promise.all([first, ...during]);
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([200, 200, 200]);
    expect(b.json()).toEqual(c.json());
    expect(b.json()).toMatchObject({ ativos: 1_500 });
    // The first sync: the throttled page, then its two; the second, shared by both requests: two more.
    expect(userPages()).toHaveLength(5);
  });

  it('is for administrators only', async () => {
    const user = await createUser(ctx.db);
    const res = await ctx.request('POST', '/api/usuarios365/sincronizar', { token: await ctx.tokenFor(user) });
    expect(res.statusCode).toBe(403);
    expect(standIns.current.graph.requests).toHaveLength(0);
  });
});

describe('administrators follow the Entra app role at each directory sync', () => {
  const ana = person('00000000-0000-4000-8000-00000000a001', 'Ana Gestora', { appRoles: ['Admin'] });
  const bia = person('00000000-0000-4000-8000-00000000a002', 'Bia Analista');
  const caio = person('00000000-0000-4000-8000-00000000a003', 'Caio Diretor');
  // ADMIN_USERS names Dora by her UPN (not her mail), Eli by object id, and Gil, a guest, by his UPN, which
  // never counts; Gil's mail is even Dora's UPN.
  const dora = person('00000000-0000-4000-8000-00000000a004', 'Dora Configurada', {
    mail: 'dora@empresa.com.br',
    userPrincipalName: 'dora.configurada@empresa.onmicrosoft.com',
  });
  const eli = person('00000000-0000-4000-8000-00000000a006', 'Eli Pelo Id');
  const gil = person('00000000-0000-4000-8000-00000000a007', 'Gil Convidado', {
    mail: 'dora.configurada@empresa.onmicrosoft.com',
    userPrincipalName: 'gil_parceiro.com.br#EXT#@empresa.onmicrosoft.com',
    userType: 'Guest',
  });
  const ADMIN_USERS = `Dora.Configurada@Empresa.onmicrosoft.com, ${eli.id}, ${gil.userPrincipalName}`;
  const gestores = { id: '00000000-0000-4000-8000-00000000b001', displayName: 'Gestores', appRoles: ['Admin'] };
  const diretoria = { id: '00000000-0000-4000-8000-00000000b002', displayName: 'Diretoria', members: [bia.id] };
  const standIns = useStandIns({ people: [] });
  const waits: number[] = [];
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current, { ADMIN_USERS }),
    graphOptions: { sleep: async (ms) => void waits.push(ms) },
  }));
  let token: string;
  beforeEach(async () => {
    standIns.current.graph.reset();
    standIns.current.graph.setPeople([ana, bia, caio, dora, eli, gil]);
    // Caio holds the role as a member of a group it is assigned to. Bia is only in a group nested in that one:
    // Entra does not cascade app roles to nested groups, so neither does the portal.
    standIns.current.graph.setGroups([{ ...gestores, members: [caio.id, diretoria.id] }, diretoria]);
    // The local bootstrap administrator, whose role is configuration.
    await ensureLocalAccountUser(ctx.db, {
      id: 'local:admin',
      email: 'admin@paineis.local',
      displayName: 'admin',
      role: 'Admin',
      source: 'local',
    });
    token = await ctx.tokenFor({
      id: 'local:admin',
      email: 'admin@paineis.local',
      displayName: 'admin',
      role: 'Admin',
    });
  });
  const sync = () => ctx.request('POST', '/api/usuarios365/sincronizar', { token });
  const roles = async () =>
    Object.fromEntries(
      (await rows<{ id: string; role: string }>(ctx.db, sql`select id, role from usuarios order by id`)).map((r) => [
        r.id,
        r.role,
      ]),
    );
  const asPerson = (p: typeof ana) =>
    ctx.tokenFor({ id: p.id, email: p.mail!, displayName: p.displayName, role: 'User' });

  it('grants Admin to its holders, directly or through a group, and withdraws it when Entra does', async () => {
    expect((await sync()).statusCode).toBe(200);
    expect(await roles()).toEqual({
      [ana.id]: 'Admin',
      [bia.id]: 'User',
      [caio.id]: 'Admin',
      [dora.id]: 'Admin', // ADMIN_USERS, by UPN
      [eli.id]: 'Admin', // ADMIN_USERS, by object id
      [gil.id]: 'User', // a guest: neither his UPN in ADMIN_USERS nor his mail counts
      'local:admin': 'Admin',
    });
    const anaToken = await asPerson(ana);
    expect((await ctx.request('GET', '/api/classificacoes/admin', { token: anaToken })).statusCode).toBe(200);

    // Entra withdraws the role from Ana, and takes Caio out of Gestores.
    standIns.current.graph.setPeople([{ ...ana, appRoles: [] }, bia, caio, dora, eli, gil]);
    standIns.current.graph.setGroups([{ ...gestores, members: [diretoria.id] }, diretoria]);
    expect((await sync()).statusCode).toBe(200);
    expect(await roles()).toEqual({
      [ana.id]: 'User',
      [bia.id]: 'User',
      [caio.id]: 'User',
      [dora.id]: 'Admin',
      [eli.id]: 'Admin',
      [gil.id]: 'User',
      'local:admin': 'Admin',
    });
    // Ana's open session loses its admin rights on its next request; the configured administrators keep theirs.
    expect((await ctx.request('GET', '/api/classificacoes/admin', { token: anaToken })).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/classificacoes/admin', { token })).statusCode).toBe(200);
  });

  it('reads the holders from the portal application’s own service principal', async () => {
    await sync();
    const paths = standIns.current.graph.requests.map((r) => decodeURIComponent(new URL(r.url).pathname));
    expect(paths).toContain(`/v1.0/servicePrincipals(appId='${standIns.current.clientId}')`);
    expect(paths.some((p) => /^\/v1\.0\/servicePrincipals\/[^/]+\/appRoleAssignedTo$/.test(p))).toBe(true);
    expect(standIns.current.graph.requests.every((r) => r.status === 200 && r.authorized)).toBe(true);
  });

  it('keeps every role as it was when Graph will not say who holds the app role, and still syncs the people', async () => {
    await sync();
    standIns.current.graph.setPeople([
      { ...ana, appRoles: [] },
      bia,
      caio,
      dora,
      eli,
      gil,
      person('00000000-0000-4000-8000-00000000a005', 'Eva Nova'),
    ]);
    standIns.current.graph.failNext(503, 20, 1); // the user list passes; every read of the roles fails
    const res = await sync();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ativos: 7 });
    expect((await roles())[ana.id]).toBe('Admin');
    expect(waits.length).toBeGreaterThan(0);
  });

  it('applies ADMIN_USERS at start too, to the people stored before (by object id, or UPN for members only)', async () => {
    const stored = (p: StandInPerson, tipo: 'Member' | 'Guest') => ({
      id: p.id,
      email: (p.mail ?? p.userPrincipalName).toLowerCase(),
      upn: p.userPrincipalName,
      tipo,
      displayName: p.displayName,
      department: null,
      jobTitle: null,
      officeLocation: null,
      role: 'User' as const,
    });
    await seedUsers(
      ctx.db,
      [stored(bia, 'Member'), stored(dora, 'Member'), stored(eli, 'Member'), stored(gil, 'Guest')],
      'entra',
    );
    await ensureLocalAccounts(ctx.db, ctx.config);
    expect(await roles()).toEqual({
      [bia.id]: 'User',
      [dora.id]: 'Admin',
      [eli.id]: 'Admin',
      [gil.id]: 'User',
      'local:admin': 'Admin',
    });
    expect(standIns.current.graph.requests).toEqual([]);
  });
});

describe('directory sync without Microsoft configuration', () => {
  const ctx = useTestApp();

  it('answers 503 with a clear message', async () => {
    const token = await ctx.tokenFor(await createAdmin(ctx.db));
    const res = await ctx.request('POST', '/api/usuarios365/sincronizar', { token });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: SYNC_NOT_CONFIGURED });
  });
});

describe('directory sync at start', () => {
  const standIns = useStandIns({ people: directory(1_200) });
  const ctx = useTestApp(() => ({ config: microsoftConfig(standIns.current), syncDirectoryAtStart: true }));

  it('runs by itself once the server is ready, without holding up the start', async () => {
    // useTestApp truncates tables before each test, so run the start-up hook again on a fresh app.
    const { buildApp } = await import('../../app.ts');
    const app = await buildApp({
      config: ctx.config,
      database: ctx.database,
      ownsDatabase: false,
      logger: false,
      syncDirectoryAtStart: true,
    });
    await app.ready();
    await app.close(); // close waits for the sync under way
    expect(standIns.current.graph.requests.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(2);
    expect(await rows(ctx.db, sql`select count(*)::int as n from usuarios where source = 'entra' and active`)).toEqual([
      { n: 1_200 },
    ]);
  });
});
