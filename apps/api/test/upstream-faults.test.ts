import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StandInPerson, StandInReport, StandIns } from '@paineis/microsoft-stand-ins/types';
import { useTestApp, type TestContext } from './context.ts';
import { createAdmin, createUser, link, panel } from './fixtures.ts';
import { microsoftConfig, person, useStandIns } from './microsoft.ts';
import { rows } from '../src/db/client.ts';
import type { PowerBiEmbeddingService } from '../src/integrations/power-bi/power-bi-embedding-service.ts';
import {
  ENTRA_REFUSED,
  ENTRA_UNAVAILABLE,
  POWER_BI_TIMEOUT,
  POWER_BI_UNAVAILABLE,
  SYNC_FAILED,
} from '../src/plugins/microsoft-error-answers.ts';

/**
 * Power BI, Entra ID and Microsoft Graph misbehaving upstream: answers that never come or never finish,
 * 500s, 429s with and without a sane Retry-After, and 200s that cannot be used. The portal must answer within its
 * timeouts, with its Portuguese messages (never a 500), write nothing half-way, keep nothing a failure left
 * behind, and keep serving everything else meanwhile.
 */

const WORKSPACE = '0a0a0a0a-0000-4000-8000-0000000000f1';
const vendas: StandInReport = {
  workspaceId: WORKSPACE,
  reportId: '0b0b0b0b-0000-4000-8000-0000000000f1',
  name: 'Vendas',
  datasetId: '0c0c0c0c-0000-4000-8000-0000000000f1',
  rls: false,
};
const A_YEAR_IN_SECONDS = 365 * 24 * 3600;
const inAYear = () => new Date(Date.now() + A_YEAR_IN_SECONDS * 1000).toUTCString();

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records the waits the portal asks for, and waits only a moment, so that retries stay quick. */
function recordingSleep(waits: number[]) {
  return async (ms: number) => {
    waits.push(ms);
    await pause(10);
  };
}

/** A person linked to a panel over `report`, and the way to open it. */
async function linkedViewer(ctx: TestContext, report: StandInReport = vendas) {
  const user = await createUser(ctx.db);
  const p = await panel(ctx.db, { workspaceId: report.workspaceId, reportId: report.reportId });
  await link(ctx.db, p.id, [user.id]);
  const token = await ctx.tokenFor(user);
  return { panel: p, token, open: () => ctx.request('GET', `/api/paineis/${p.id}`, { token }) };
}

/** Other routes, none of which needs Microsoft: each must answer 200, promptly, while a Microsoft service hangs. */
function otherRoutes(ctx: TestContext, token: string) {
  return Promise.all(
    [
      () => ctx.request('GET', '/api/paineis', { token }),
      () => ctx.request('GET', '/api/classificacoes', { token }),
      () => ctx.request('GET', '/healthz'),
      () => ctx.request('GET', '/readyz'),
    ].map((call) => timed(call)),
  );
}

interface EmbedCase {
  name: string;
  fault: (s: StandIns) => void;
  status: number;
  message?: string;
  /** Bounds of the answer's time, in ms. */
  atLeast?: number;
  within: number;
  /** The waits between attempts the portal asked for. */
  waits?: number[];
  /** Requests Power BI saw for this opening (GetReport and GenerateToken, retries included). */
  calls: number;
}

describe('Power BI faults while a person opens a report', () => {
  const TIMEOUT = 1500;
  const standIns = useStandIns({ people: [], reports: [vendas] });
  const waits: number[] = [];
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    powerBiOptions: { timeoutMs: TIMEOUT, sleep: recordingSleep(waits) },
  }));
  beforeEach(() => {
    waits.length = 0;
    standIns.current.powerBi.reset();
    (ctx.app.embedding as PowerBiEmbeddingService).clear();
  });
  const generateTokens = () =>
    standIns.current.powerBi.requests.filter((r) => r.path === '/v1.0/myorg/GenerateToken' && r.status === 200);

  const timeout = { status: 504, message: POWER_BI_TIMEOUT, atLeast: TIMEOUT - 50, within: TIMEOUT + 1000 };
  const unavailable = { status: 503, message: POWER_BI_UNAVAILABLE, within: 1000 };
  const cases: EmbedCase[] = [
    { name: 'GetReport accepts and never answers', fault: (s) => s.powerBi.hangNext(), ...timeout, calls: 1 },
    {
      name: 'GetReport sends headers and never finishes the body',
      fault: (s) => s.powerBi.hangNext(1, 0, 'body'),
      ...timeout,
      calls: 1,
    },
    { name: 'GenerateToken never answers', fault: (s) => s.powerBi.hangNext(1, 1), ...timeout, calls: 2 },
    {
      name: 'GenerateToken never finishes the body',
      fault: (s) => s.powerBi.hangNext(1, 1, 'body'),
      ...timeout,
      calls: 2,
    },
    {
      name: 'GetReport answers 500 to every try',
      fault: (s) => s.powerBi.failNext(500, 4),
      ...unavailable,
      waits: [500, 1000, 2000],
      calls: 4,
    },
    {
      name: 'GenerateToken answers 429 without Retry-After to every try',
      fault: (s) => s.powerBi.throttleNext(null, 4, 1),
      ...unavailable,
      waits: [500, 1000, 2000],
      calls: 5,
    },
    {
      name: 'GetReport answers 429 with Retry-After: 2, once',
      fault: (s) => s.powerBi.throttleNext(2),
      status: 200,
      within: 1000,
      waits: [2000],
      calls: 3,
    },
    {
      name: 'GetReport answers 429 with a Retry-After of a year (seconds)',
      fault: (s) => s.powerBi.throttleNext(A_YEAR_IN_SECONDS),
      ...unavailable,
      waits: [],
      calls: 1,
    },
    {
      name: 'GenerateToken answers 429 with a Retry-After of a year (HTTP-date)',
      fault: (s) => s.powerBi.throttleNext(inAYear(), 1, 1),
      ...unavailable,
      waits: [],
      calls: 2,
    },
    {
      name: 'GetReport answers 429 with an unreadable Retry-After to every try',
      fault: (s) => s.powerBi.throttleNext('depois', 4),
      ...unavailable,
      waits: [500, 1000, 2000],
      calls: 4,
    },
    ...(['GetReport', 'GenerateToken'] as const).flatMap((endpoint): EmbedCase[] => {
      const before = endpoint === 'GetReport' ? 0 : 1;
      return [
        ...(['not-json', 'wrong-shape', 'wrong-content-type'] as const).map((garbage) => ({
          name: `${endpoint} answers 200 with garbage: ${garbage}`,
          fault: (s: StandIns) => s.powerBi.garbageNext(garbage, 1, before),
          ...unavailable,
          waits: [],
          calls: before + 1,
        })),
        {
          name: `${endpoint} answers 200 with a truncated body to every try`,
          fault: (s) => s.powerBi.garbageNext('truncated', 4, before),
          ...unavailable,
          waits: [500, 1000, 2000],
          calls: before + 4,
        },
      ];
    }),
    {
      name: 'GetReport answers 200 with a truncated body once (retried as a network error)',
      fault: (s) => s.powerBi.garbageNext('truncated'),
      status: 200,
      within: 1000,
      waits: [500],
      calls: 3,
    },
  ];

  it.each(cases)('$name → $status', async (c) => {
    const viewer = await linkedViewer(ctx);
    c.fault(standIns.current);
    const { value: res, ms } = await timed(viewer.open);
    expect(res.statusCode).toBe(c.status);
    if (c.message) expect(res.json()).toEqual({ message: c.message });
    expect(ms).toBeLessThan(c.within);
    if (c.atLeast) expect(ms).toBeGreaterThanOrEqual(c.atLeast);
    if (c.waits) expect(waits).toEqual(c.waits);
    expect(standIns.current.powerBi.requests).toHaveLength(c.calls);

    // Nothing of a failure was kept: once Power BI is well, the next opening asks it for a fresh token. A success
    // is kept: the next opening gets the same token without asking again.
    const tokensBefore = generateTokens().length;
    const next = await viewer.open();
    expect(next.statusCode).toBe(200);
    const token = next.json<{ embedToken: string }>().embedToken;
    if (c.status === 200) {
      expect(token).toBe(res.json<{ embedToken: string }>().embedToken);
      expect(generateTokens()).toHaveLength(tokensBefore);
    } else {
      expect(generateTokens()).toHaveLength(tokensBefore + 1);
    }
  });

  it('keeps serving the other routes while Power BI hangs, and answers everyone waiting for it at once', async () => {
    const viewer = await linkedViewer(ctx);
    standIns.current.powerBi.hangNext();
    let answered = false;
    const opening = Promise.all(Array.from({ length: 20 }, () => timed(viewer.open))).finally(() => {
      answered = true;
    });
    await pause(50); // the openings are waiting on Power BI now
    const others = await otherRoutes(ctx, viewer.token);
    expect(answered).toBe(false);
    for (const { value, ms } of others) {
      expect(value.statusCode).toBe(200);
      expect(ms).toBeLessThan(1000);
    }
    const openings = await opening;
    expect(new Set(openings.map(({ value }) => `${value.statusCode} ${value.body}`))).toEqual(
      new Set([`504 ${JSON.stringify({ message: POWER_BI_TIMEOUT })}`]),
    );
    expect(Math.max(...openings.map(({ ms }) => ms))).toBeLessThan(TIMEOUT + 1000);
    // One call to Power BI for the twenty of them.
    expect(standIns.current.powerBi.requests).toHaveLength(1);
  });
});

describe('Entra ID token faults while a person opens a report', () => {
  const DEADLINE = 1500;
  // Service-principal tokens of a minute are never reused, so every opening asks Entra ID for one.
  const standIns = useStandIns({ people: [], reports: [vendas], tokenLifetimeSeconds: 60 });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    powerBiOptions: { timeoutMs: 1000, deadlineMs: DEADLINE, sleep: async () => undefined },
  }));
  beforeEach(() => {
    standIns.current.identity.reset();
    standIns.current.powerBi.reset();
    (ctx.app.embedding as PowerBiEmbeddingService).clear();
  });

  const unavailable = { status: 503, message: ENTRA_UNAVAILABLE, within: 1000 };
  const hung = { status: 503, message: ENTRA_UNAVAILABLE, atLeast: DEADLINE - 50, within: DEADLINE + 1000 };
  const cases: Omit<EmbedCase, 'calls' | 'waits'>[] = [
    { name: 'the token endpoint accepts and never answers', fault: (s) => s.identity.token.hangNext(), ...hung },
    {
      name: 'the token endpoint never finishes the body',
      fault: (s) => s.identity.token.hangNext(1, 0, 'body'),
      ...hung,
    },
    { name: 'the token endpoint answers 500', fault: (s) => s.identity.token.failNext(500), ...unavailable },
    {
      name: 'the token endpoint answers 429 with a Retry-After of a year',
      fault: (s) => s.identity.token.throttleNext(A_YEAR_IN_SECONDS),
      ...unavailable,
    },
    {
      name: 'the token endpoint answers 401',
      fault: (s) => s.identity.token.failNext(401),
      status: 502,
      message: ENTRA_REFUSED,
      within: 1000,
    },
    ...(['not-json', 'wrong-shape', 'truncated', 'wrong-content-type'] as const).map((garbage) => ({
      name: `the token endpoint answers 200 with garbage: ${garbage}`,
      fault: (s: StandIns) => s.identity.token.garbageNext(garbage),
      ...unavailable,
    })),
  ];

  it.each(cases)('$name → $status', async (c) => {
    const viewer = await linkedViewer(ctx);
    c.fault(standIns.current);
    const { value: res, ms } = await timed(viewer.open);
    expect(res.statusCode).toBe(c.status);
    expect(res.json()).toEqual({ message: c.message });
    expect(ms).toBeLessThan(c.within);
    if (c.atLeast) expect(ms).toBeGreaterThanOrEqual(c.atLeast);
    // Power BI is not asked without a token.
    expect(standIns.current.powerBi.requests).toHaveLength(0);

    // A request still held by the stand-in is let go of; then nothing of the failure is left in the portal.
    standIns.current.identity.reset();
    if (c.atLeast) await pause(200);
    const next = await viewer.open();
    expect(next.statusCode).toBe(200);
  });
});

describe('Entra ID discovery faults while a person opens a report', () => {
  const DEADLINE = 1500;
  const standIns = useStandIns({ people: [], reports: [vendas] });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    powerBiOptions: { timeoutMs: 1000, deadlineMs: DEADLINE, sleep: async () => undefined },
  }));

  it('answers 503 for each, promptly, and discovers again once Entra ID is well', async () => {
    // The portal discovers the tenant once, at its first need, and again after a failure: so every fault here
    // comes before the first success.
    const viewer = await linkedViewer(ctx);
    const faults: [string, (s: StandIns) => void][] = [
      ['500', (s) => s.identity.discovery.failNext(500)],
      ['429 with a Retry-After of a year', (s) => s.identity.discovery.throttleNext(A_YEAR_IN_SECONDS)],
      ...(['not-json', 'wrong-shape', 'truncated', 'wrong-content-type'] as const).map(
        (garbage): [string, (s: StandIns) => void] => [garbage, (s) => s.identity.discovery.garbageNext(garbage)],
      ),
    ];
    for (const [name, fault] of faults) {
      fault(standIns.current);
      const { value: res, ms } = await timed(viewer.open);
      expect([name, res.statusCode, res.json()]).toEqual([name, 503, { message: ENTRA_UNAVAILABLE }]);
      expect(ms).toBeLessThan(1000);
    }
    for (const stage of ['body', 'headers'] as const) {
      standIns.current.identity.discovery.hangNext(1, 0, stage);
      const { value: res, ms } = await timed(viewer.open);
      expect([stage, res.statusCode, res.json()]).toEqual([stage, 503, { message: ENTRA_UNAVAILABLE }]);
      expect(ms).toBeGreaterThanOrEqual(DEADLINE - 50);
      expect(ms).toBeLessThan(DEADLINE + 1000);
      standIns.current.identity.reset();
      await pause(200); // the held discovery fails now, and is forgotten
    }
    expect(standIns.current.powerBi.requests).toHaveLength(0);
    expect((await viewer.open()).statusCode).toBe(200);
  });
});

const ana = person('a1b2c3d4-0000-4000-8000-0000000000f1', 'Ana Falhas');
const PORTAL = 'http://portal.empresa.test';
/** Entra ID's timeout, shortened for these tests (2 s instead of 10): the sign-in routes wait for nothing longer. */
const ENTRA_TIMEOUT = 2_000;

/** Starts a Microsoft sign-in as a browser would, and where the portal sends the browser: Entra ID or back to /login. */
async function startSignIn(ctx: TestContext) {
  const start = await ctx.app.inject({ url: '/api/auth/microsoft-login', headers: { host: 'portal.empresa.test' } });
  expect(start.statusCode).toBe(302);
  return { location: new URL(String(start.headers.location)), cookie: String(start.headers['set-cookie']) };
}

/** One whole sign-in as `who`: the portal's routes through inject, the stand-in's pages through fetch. */
async function signIn(ctx: TestContext, who: StandInPerson): Promise<URL> {
  const { location, cookie } = await startSignIn(ctx);
  const html = await (await fetch(location)).text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
  const requestId = /name="request" value="([^"]+)"/.exec(html)![1]!;
  const chosen = await fetch(new URL(action, location), {
    method: 'POST',
    body: new URLSearchParams({ request: requestId, person: who.id }),
    redirect: 'manual',
  });
  const callback = new URL(String(chosen.headers.get('location')));
  const back = await ctx.app.inject({
    url: callback.pathname + callback.search,
    headers: { host: 'portal.empresa.test', cookie: cookie.split(';')[0]! },
  });
  expect(back.statusCode).toBe(302);
  return new URL(String(back.headers.location));
}

const expectLoginError = (url: URL) => expect(url.href).toBe(`${PORTAL}/login?erro=microsoft`);

describe('Entra ID faults during a Microsoft sign-in', () => {
  const standIns = useStandIns({ people: [ana] });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    entraOptions: { timeoutMs: ENTRA_TIMEOUT },
  }));
  beforeEach(() => standIns.current.identity.reset());
  const users = () => rows<{ id: string }>(ctx.db, sql`select id from usuarios order by id`);

  it('sends the browser back to the login page when discovery fails, promptly, or within Entra’s timeout if it hangs', async () => {
    const faults: [string, (s: StandIns) => void][] = [
      ['503', (s) => s.identity.discovery.failNext(503)],
      ['not-json', (s) => s.identity.discovery.garbageNext('not-json')],
      ['wrong-shape', (s) => s.identity.discovery.garbageNext('wrong-shape')],
      ['wrong-content-type', (s) => s.identity.discovery.garbageNext('wrong-content-type')],
    ];
    for (const [name, fault] of faults) {
      fault(standIns.current);
      const { value, ms } = await timed(() => startSignIn(ctx));
      expect([name, value.location.href]).toEqual([name, `${PORTAL}/login?erro=microsoft`]);
      expect(ms).toBeLessThan(1000);
    }
    standIns.current.identity.discovery.hangNext();
    const { value, ms } = await timed(() => startSignIn(ctx));
    expectLoginError(value.location);
    expect(ms).toBeGreaterThanOrEqual(ENTRA_TIMEOUT - 50);
    expect(ms).toBeLessThan(ENTRA_TIMEOUT + 2000);
    // Once Entra ID is well, the sign-in starts.
    expect((await startSignIn(ctx)).location.origin).toBe(standIns.current.authorityHost);
  });

  it('creates no user when redeeming the code fails, and signs the person in once Entra ID is well', async () => {
    const faults: [string, (s: StandIns) => void][] = [
      ['500', (s) => s.identity.token.failNext(500)],
      ['429 with a Retry-After of a year', (s) => s.identity.token.throttleNext(A_YEAR_IN_SECONDS)],
      ...(['not-json', 'wrong-shape', 'truncated', 'wrong-content-type'] as const).map(
        (garbage): [string, (s: StandIns) => void] => [garbage, (s) => s.identity.token.garbageNext(garbage)],
      ),
    ];
    for (const [name, fault] of faults) {
      fault(standIns.current);
      const { value, ms } = await timed(() => signIn(ctx, ana));
      expect([name, value.href]).toEqual([name, `${PORTAL}/login?erro=microsoft`]);
      expect(ms).toBeLessThan(2000);
      expect(await users()).toEqual([]);
    }
    standIns.current.identity.token.hangNext(1, 0, 'body');
    const { value, ms } = await timed(() => signIn(ctx, ana));
    expectLoginError(value);
    expect(ms).toBeGreaterThanOrEqual(ENTRA_TIMEOUT - 50);
    expect(ms).toBeLessThan(ENTRA_TIMEOUT + 2000);
    expect(await users()).toEqual([]);

    const final = await signIn(ctx, ana);
    expect(final.searchParams.get('token')).toBeTruthy();
    expect(await users()).toEqual([{ id: ana.id }]);
  });
});

const directory = (count: number, name = 'Pessoa'): StandInPerson[] =>
  Array.from({ length: count }, (_, i) =>
    person(`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, `${name} ${String(i).padStart(5, '0')}`, {
      showOnSignIn: false,
    }),
  );

interface SyncCase {
  name: string;
  fault: (s: StandIns) => void;
  atLeast?: number;
  within: number;
  waits?: number[];
}

describe('Microsoft Graph faults during a directory sync', () => {
  const TIMEOUT = 400;
  const RETRIES = 2;
  // Two pages of 999 people, before and after: a fault after one request falls on the second page of users, after
  // two on the service principal, after three on its appRoleAssignedTo.
  const before = directory(1_500);
  const after = directory(1_200, 'Renomeada');
  const chefe = { ...before[0]!, appRoles: ['Admin'] };
  const standIns = useStandIns({ people: [] });
  const waits: number[] = [];
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    graphOptions: { timeoutMs: TIMEOUT, maxRetries: RETRIES, sleep: recordingSleep(waits) },
  }));
  let token: string;
  const sync = () => ctx.request('POST', '/api/usuarios365/sincronizar', { token });
  const table = () => rows(ctx.db, sql`select * from usuarios order by id`);
  const roleOf = async (id: string) =>
    (await rows<{ role: string }>(ctx.db, sql`select role from usuarios where id = ${id}`))[0]?.role;

  beforeEach(async () => {
    standIns.current.graph.reset();
    standIns.current.graph.setPeople([chefe, ...before.slice(1)]);
    token = await ctx.tokenFor(await createAdmin(ctx.db, { id: 'admin-local' }));
    expect((await sync()).statusCode).toBe(200);
    expect(await roleOf(chefe.id)).toBe('Admin');
    // Graph's directory changes: people renamed, some gone, the app role withdrawn.
    standIns.current.graph.setPeople(after);
    standIns.current.graph.reset();
    waits.length = 0;
  });

  const attempts = RETRIES + 1;
  const hang = { atLeast: attempts * TIMEOUT - 50, within: attempts * TIMEOUT + 1500, waits: [1000, 2000] };
  const cases: SyncCase[] = [
    { name: 'a page is accepted and never answered', fault: (s) => s.graph.hangNext(attempts, 1), ...hang },
    {
      name: 'a page never finishes its body',
      fault: (s) => s.graph.hangNext(attempts, 1, 'body'),
      ...hang,
    },
    {
      name: 'a page answers 503 to every try',
      fault: (s) => s.graph.failNext(503, attempts, 1),
      within: 1500,
      waits: [1000, 2000],
    },
    {
      name: 'a page answers 429 without Retry-After to every try',
      fault: (s) => s.graph.throttleNext(null, attempts, 1),
      within: 1500,
      waits: [1000, 2000],
    },
    {
      name: 'a page answers 429 with a Retry-After of a year',
      fault: (s) => s.graph.throttleNext(A_YEAR_IN_SECONDS, 1, 1),
      within: 1500,
      waits: [],
    },
    ...(['not-json', 'wrong-shape', 'wrong-content-type'] as const).map((garbage) => ({
      name: `a page answers 200 with garbage: ${garbage}`,
      fault: (s: StandIns) => s.graph.garbageNext(garbage, 1, 1),
      within: 1500,
      waits: [],
    })),
    {
      name: 'a page answers 200 with a truncated body to every try',
      fault: (s) => s.graph.garbageNext('truncated', attempts, 1),
      within: 1500,
      waits: [1000, 2000],
    },
  ];

  it.each(cases)('$name → 502, the previous data kept exactly', async (c) => {
    const kept = await table();
    c.fault(standIns.current);
    const { value: res, ms } = await timed(sync);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: SYNC_FAILED });
    expect(ms).toBeLessThan(c.within);
    if (c.atLeast) expect(ms).toBeGreaterThanOrEqual(c.atLeast);
    if (c.waits) expect(waits).toEqual(c.waits);
    expect(await table()).toEqual(kept);

    // Once Graph is well, the next sync runs from the start and applies the new directory.
    const next = await sync();
    expect(next.statusCode).toBe(200);
    expect(next.json()).toMatchObject({ ativos: after.length, desativados: before.length - after.length });
  });

  it('applies a page that was truncated once, after retrying it', async () => {
    standIns.current.graph.garbageNext('truncated', 1, 1);
    const res = await sync();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ativos: after.length });
    expect(waits).toEqual([1000]);
  });

  const roleCases: SyncCase[] = [
    {
      name: 'the service principal never finishes its body',
      fault: (s) => s.graph.hangNext(attempts, 2, 'body'),
      atLeast: hang.atLeast,
      within: attempts * TIMEOUT + 4000,
    },
    {
      name: 'the service principal answers 200 with garbage: wrong-shape',
      fault: (s) => s.graph.garbageNext('wrong-shape', 1, 2),
      within: 4000,
    },
    {
      name: 'the service principal answers 200 with garbage: not-json',
      fault: (s) => s.graph.garbageNext('not-json', 1, 2),
      within: 4000,
    },
    {
      name: 'appRoleAssignedTo answers 200 with garbage: wrong-shape',
      fault: (s) => s.graph.garbageNext('wrong-shape', 1, 3),
      within: 4000,
    },
    {
      name: 'appRoleAssignedTo answers 503 to every try',
      fault: (s) => s.graph.failNext(503, attempts, 3),
      within: 4000,
    },
  ];

  it.each(roleCases)('$name → the people are synced, every role kept as it was', async (c) => {
    c.fault(standIns.current);
    const { value: res, ms } = await timed(sync);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ativos: after.length });
    expect(ms).toBeLessThan(c.within);
    if (c.atLeast) expect(ms).toBeGreaterThanOrEqual(c.atLeast);
    // Graph would not say who holds the app role: the one who had it keeps it until it does.
    expect(await roleOf(chefe.id)).toBe('Admin');
    expect((await sync()).statusCode).toBe(200);
    expect(await roleOf(chefe.id)).toBe('User');
  });

  it('keeps serving the other routes while Graph hangs, and runs a second sync asked meanwhile after the first', async () => {
    standIns.current.graph.hangNext(attempts);
    let answered = false;
    const first = timed(sync).finally(() => {
      answered = true;
    });
    await pause(50);
    const second = sync();
    const others = await otherRoutes(ctx, token);
    const people = await timed(() => ctx.request('GET', '/api/usuarios365/ativos', { token }));
    expect(answered).toBe(false);
    for (const { value, ms } of [...others, people]) {
      expect(value.statusCode).toBe(200);
      expect(ms).toBeLessThan(1000);
    }
    const { value: res, ms } = await first;
    expect(res.statusCode).toBe(502);
    expect(ms).toBeLessThan(attempts * TIMEOUT + 1500);
    // The second, asked while the first ran, started after it: the first page's three tries come first, then its
    // own reads, which Graph answers; the changes are in.
    expect((await second).statusCode).toBe(200);
    const [page, ...rest] = standIns.current.graph.requests;
    expect(standIns.current.graph.requests.slice(0, attempts).map((r) => r.url)).toEqual(
      Array(attempts).fill(page!.url),
    );
    expect(rest.length).toBeGreaterThanOrEqual(attempts);
    expect(await roleOf(chefe.id)).toBe('User');
  });
});
