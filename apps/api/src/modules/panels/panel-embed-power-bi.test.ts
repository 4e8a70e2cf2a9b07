import { createServer, type AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/context.ts';
import { createAdmin, createUser, link, panelOver } from '../../../test/fixtures.ts';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import { salesPanels, salesReports, useSalesApp } from '../../../test/sales-reports.ts';
import {
  NO_RLS_ROLE_TO_CHOOSE,
  ROLE_CHOICE_ADMIN_ONLY,
  unknownRlsRole,
  NO_RLS_ROLE_FOR_PERSON,
} from './panel-access.ts';
import {
  POWER_BI_REFUSED,
  POWER_BI_TIMEOUT,
  POWER_BI_UNAVAILABLE,
  RLS_WITHOUT_ROLES,
  rlsIdentityRefused,
} from '../../plugins/microsoft-error-answers.ts';
import { storeLegacyRoles } from '../../../test/panel-helpers.ts';
import { PANEL_NOT_FOUND } from '@paineis/contract/panels';
import { PANEL_UNAVAILABLE } from '@paineis/contract/power-bi';
import { openForViewing } from './panel-opening.ts';
import type { Requester } from './requester.ts';

const COMMA =
  "O nome do papel RLS (roleName) 'Norte,Sul' contém vírgula, que o Power BI não aceita em nomes de papéis.";

const reports = salesReports(1);
const { vendas, regional } = reports;

describe('embedding Power BI reports through the stand-in Power BI service', () => {
  const { standIns, ctx } = useSalesApp(reports, {
    // The stand-in shares this process, whose event loop 100 concurrent requests keep busy: allow 2 s.
    powerBiOptions: { timeoutMs: 2000, sleep: async () => undefined },
  });

  const generateTokenBodies = () =>
    standIns.current.powerBi.requests.filter((r) => r.path === '/v1.0/myorg/GenerateToken').map((r) => r.body);

  async function setup() {
    const admin = await createAdmin(ctx.db, { email: 'admin@empresa.com.br' });
    const ana = await createUser(ctx.db, { email: 'ana@empresa.com.br' });
    const { plain, rls } = await salesPanels(ctx.db, reports, [
      { roleName: 'Sul', userEmails: ['ana@empresa.com.br'] },
      { roleName: 'Norte', userEmails: ['bia@empresa.com.br'] },
      { roleName: 'Diretoria', userEmails: ['ana@empresa.com.br'] },
    ]);
    await link(ctx.db, plain.id, [ana.id]);
    await link(ctx.db, rls.id, [ana.id]);
    return { admin: await ctx.tokenFor(admin), ana: await ctx.tokenFor(ana), anaId: ana.id, plain, rls };
  }

  it('embeds a report without RLS: the report’s embed URL and a token for it, with no identity', async () => {
    const s = await setup();
    const res = await ctx.request('GET', `/api/paineis/${s.plain.id}`, { token: s.ana });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ embedToken: string; embedUrl: string; tokenExpiration: string; nomePainel: string }>();
    expect(body.nomePainel).toBe('Vendas');
    expect(body.embedUrl).toMatch(
      /^https:\/\/app\.powerbi\.com\/reportEmbed\?reportId=0b0b0b0b-0000-4000-8000-000000000001/,
    );
    expect(Date.parse(body.tokenExpiration)).toBeGreaterThan(Date.now());
    // To view only: no workspace to save to, no report to edit (docs/decisions/014).
    expect(generateTokenBodies()).toEqual([
      {
        reports: [{ id: vendas.reportId }],
        datasets: [{ id: vendas.datasetId }],
      },
    ]);
    expect(decodeJwt(body.embedToken)).toMatchObject({ reports: [vendas.reportId], targetWorkspaces: [] });
  });

  it('gives a user of an RLS panel an identity with exactly their roles', async () => {
    const s = await setup();
    const res = await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.ana });
    expect(res.statusCode).toBe(200);
    expect(generateTokenBodies()).toEqual([
      {
        reports: [{ id: regional.reportId }],
        datasets: [{ id: regional.datasetId }],
        identities: [{ username: 'ana@empresa.com.br', roles: ['Diretoria', 'Sul'], datasets: [regional.datasetId] }],
      },
    ]);
  });

  it('lets an admin preview an RLS panel with all its roles, and refuses one with no roles configured', async () => {
    const s = await setup();
    expect((await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.admin })).statusCode).toBe(200);
    expect(generateTokenBodies()[0]).toMatchObject({
      identities: [{ username: 'admin@empresa.com.br', roles: ['Diretoria', 'Norte', 'Sul'] }],
    });
    await ctx.request('DELETE', `/api/paineis/${s.rls.id}/rls`, { token: s.admin });
    const none = await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.admin });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({ message: RLS_WITHOUT_ROLES });
  });

  it('lets an admin preview an RLS panel as one role they choose, on the panel and the token route', async () => {
    const s = await setup();
    const res = await ctx.request('GET', `/api/paineis/${s.rls.id}?papel=norte`, { token: s.admin });
    expect(res.statusCode).toBe(200);
    const renewed = await ctx.request('GET', `/api/paineis/${s.rls.id}/token?papel=${encodeURIComponent(' Sul ')}`, {
      token: s.admin,
    });
    expect(renewed.statusCode).toBe(200);
    // The role as the panel spells it, whatever the case asked for.
    expect(generateTokenBodies()).toMatchObject([
      { identities: [{ username: 'admin@empresa.com.br', roles: ['Norte'] }] },
      { identities: [{ username: 'admin@empresa.com.br', roles: ['Sul'] }] },
    ]);
    expect(decodeJwt(res.json<{ embedToken: string }>().embedToken)).toMatchObject({
      identities: [{ username: 'admin@empresa.com.br', roles: ['Norte'] }],
    });
  });

  it('refuses a role choice that cannot be honoured, without asking Power BI', async () => {
    const s = await setup();
    const cases: [string, string, number, string][] = [
      [s.admin, `/api/paineis/${s.rls.id}?papel=Leste`, 400, unknownRlsRole('Leste')],
      [s.admin, `/api/paineis/${s.rls.id}/token?papel=Leste`, 400, unknownRlsRole('Leste')],
      [s.admin, `/api/paineis/${s.plain.id}?papel=Sul`, 400, NO_RLS_ROLE_TO_CHOOSE],
      [s.admin, `/api/paineis/${s.rls.id}?papel=`, 400, 'Papel RLS (papel) não pode ser vazio.'],
      [
        s.admin,
        `/api/paineis/${s.rls.id}?papel=${'x'.repeat(101)}`,
        400,
        'Papel RLS (papel) deve ter no máximo 100 caracteres.',
      ],
      [s.admin, `/api/paineis/${s.rls.id}?papel=Sul&papel=Norte`, 400, 'Papel RLS (papel) deve ser um texto.'],
      // Only admins choose: a user cannot pick a role of theirs, nor another's.
      [s.ana, `/api/paineis/${s.rls.id}?papel=Sul`, 403, ROLE_CHOICE_ADMIN_ONLY],
      [s.ana, `/api/paineis/${s.rls.id}/token?papel=Norte`, 403, ROLE_CHOICE_ADMIN_ONLY],
    ];
    for (const [token, url, status, message] of cases) {
      const res = await ctx.request('GET', url, { token });
      expect([url, res.statusCode, res.json()]).toEqual([url, status, { message }]);
    }
    expect(generateTokenBodies()).toEqual([]);
  });

  it('refuses opening or exporting with an identity Power BI would refuse (409), without asking Power BI', async () => {
    const s = await setup();
    // Stored before the limits: 51 roles in all, one of them with a comma, which Ana is in.
    await storeLegacyRoles(ctx, s.rls.id, [
      ...Array.from({ length: 47 }, (_, i) => ({ roleName: `Papel ${i + 1}` })),
      { roleName: 'Norte,Sul', userEmails: ['ana@empresa.com.br'] },
    ]);
    const tooMany = rlsIdentityRefused(['A identidade teria 51 papéis; o Power BI aceita no máximo 50.', COMMA]);
    const comma =
      "O Power BI recusaria a identidade RLS deste acesso ao painel. O nome do papel RLS (roleName) 'Norte,Sul' " +
      'contém vírgula, que o Power BI não aceita em nomes de papéis. Avise um administrador.';
    expect(rlsIdentityRefused([COMMA])).toBe(comma);
    const cases: [string, string, string][] = [
      [s.admin, `/api/paineis/${s.rls.id}`, tooMany],
      [s.admin, `/api/paineis/${s.rls.id}/token`, tooMany],
      [s.admin, `/api/paineis/${s.rls.id}?papel=norte,sul`, comma],
      [s.ana, `/api/paineis/${s.rls.id}`, comma],
    ];
    for (const [token, url, message] of cases) {
      const res = await ctx.request('GET', url, { token });
      expect([url, res.statusCode, res.json()]).toEqual([url, 409, { message }]);
    }
    for (const token of [s.admin, s.ana]) {
      const exported = await ctx.request('POST', `/api/paineis/${s.rls.id}/exportacoes`, {
        token,
        body: { formato: 'PDF' },
      });
      expect(exported.statusCode).toBe(409);
      expect(exported.json()).toEqual({ message: token === s.admin ? tooMany : comma });
    }
    expect(standIns.current.powerBi.requests).toEqual([]);

    // One role within the rules still opens: the way an administrator previews such a panel.
    expect((await ctx.request('GET', `/api/paineis/${s.rls.id}?papel=Sul`, { token: s.admin })).statusCode).toBe(200);
  });

  it('refuses a username Power BI would refuse (not ASCII, with spaces), without asking Power BI', async () => {
    const s = await setup();
    const joao = await createUser(ctx.db, { email: 'joão@empresa.com.br' });
    await link(ctx.db, s.rls.id, [joao.id]);
    await storeLegacyRoles(ctx, s.rls.id, [{ roleName: 'Leste', userEmails: ['joão@empresa.com.br'] }]);
    const res = await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: await ctx.tokenFor(joao) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: rlsIdentityRefused([
        "O nome de usuário 'joão@empresa.com.br' contém caracteres fora do ASCII, que o Power BI não aceita.",
      ]),
    });
    expect(generateTokenBodies()).toEqual([]);
  });

  it('answers a user asking for a role on a panel they are not linked to as if it did not exist', async () => {
    const s = await setup();
    const carla = await createUser(ctx.db, { email: 'carla@empresa.com.br' });
    const res = await ctx.request('GET', `/api/paineis/${s.rls.id}?papel=Sul`, { token: await ctx.tokenFor(carla) });
    expect(res.statusCode).toBe(404);
  });

  it('refuses a linked user in no role of an RLS panel, without asking Power BI', async () => {
    const s = await setup();
    const carla = await createUser(ctx.db, { email: 'carla@empresa.com.br' });
    await link(ctx.db, s.rls.id, [carla.id]);
    const res = await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: await ctx.tokenFor(carla) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: NO_RLS_ROLE_FOR_PERSON });
    expect(generateTokenBodies()).toEqual([]);
  });

  it('shares one upstream call among 100 identical requests, and caches the token for the next ones', async () => {
    const s = await setup();
    standIns.current.powerBi.setLatency(150);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => ctx.request('GET', `/api/paineis/${s.plain.id}/token`, { token: s.ana })),
    );
    standIns.current.powerBi.setLatency(0);
    expect(new Set(answers.map((a) => `${a.statusCode} ${a.statusCode === 200 ? '' : a.body}`))).toEqual(
      new Set(['200 ']),
    );
    expect(new Set(answers.map((a) => a.json<{ embedToken: string }>().embedToken)).size).toBe(1);
    expect(generateTokenBodies()).toHaveLength(1);
    expect(standIns.current.powerBi.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
    await ctx.request('GET', `/api/paineis/${s.plain.id}`, { token: s.admin });
    expect(generateTokenBodies()).toHaveLength(1);
    // Another identity is another token.
    await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.ana });
    expect(generateTokenBodies()).toHaveLength(2);
  });

  it('never serves a cached token made for roles the person no longer has', async () => {
    const s = await setup();
    expect((await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.ana })).statusCode).toBe(200);
    await ctx.request('POST', `/api/paineis/${s.rls.id}/rls/roles/Diretoria/usuarios`, { token: s.admin, body: [] });
    expect((await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.ana })).statusCode).toBe(200);
    const identities = generateTokenBodies().map(
      (b) => (b as { identities: { roles: string[] }[] }).identities[0]!.roles,
    );
    expect(identities).toEqual([['Diretoria', 'Sul'], ['Sul']]);
    // Out of every role: refused, and Power BI is not asked at all.
    await ctx.request('POST', `/api/paineis/${s.rls.id}/rls/roles/Sul/usuarios`, { token: s.admin, body: [] });
    expect((await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.ana })).statusCode).toBe(403);
    expect(generateTokenBodies()).toHaveLength(2);
  });

  it('answers an opening at once, without a promise, once the panel, the links and the token are in memory', async () => {
    const s = await setup();
    const ana: Requester = {
      id: s.anaId,
      email: 'ana@empresa.com.br',
      upn: null,
      username: 'ana@empresa.com.br',
      isAdmin: false,
    };
    const first = openForViewing(ctx.app, s.rls.id, ana, undefined);
    expect(first).toBeInstanceOf(Promise);
    const waited = await first;
    const now = openForViewing(ctx.app, s.rls.id, ana, undefined);
    expect(now).not.toBeInstanceOf(Promise);
    expect((now as Awaited<typeof first>).answer).toBe(waited.answer);
    expect(generateTokenBodies()).toHaveLength(1);
    // Her roles change: the next opening waits for a token with the new ones.
    await ctx.request('POST', `/api/paineis/${s.rls.id}/rls/roles/Diretoria/usuarios`, { token: s.admin, body: [] });
    const changed = openForViewing(ctx.app, s.rls.id, ana, undefined);
    expect(changed).toBeInstanceOf(Promise);
    expect((await changed).answer).not.toBe(waited.answer);
    expect(generateTokenBodies().map((b) => (b as { identities: { roles: string[] }[] }).identities[0]!.roles)).toEqual(
      [['Diretoria', 'Sul'], ['Sul']],
    );
    // Unlinked: refused at once, from memory too, once the links are loaded again.
    await ctx.request('POST', `/api/paineis/${s.rls.id}/usuarios`, { token: s.admin, body: [] });
    await expect(Promise.resolve(openForViewing(ctx.app, s.rls.id, ana, undefined))).rejects.toMatchObject({
      kind: 'not-found',
    });
    expect(() => openForViewing(ctx.app, s.rls.id, ana, undefined)).toThrow(PANEL_NOT_FOUND);
  });

  it('stops serving a token, even a cached one, to a person unlinked from the panel', async () => {
    const s = await setup();
    expect((await ctx.request('GET', `/api/paineis/${s.plain.id}/token`, { token: s.ana })).statusCode).toBe(200);
    await ctx.request('POST', `/api/paineis/${s.plain.id}/usuarios`, { token: s.admin, body: [] });
    expect((await ctx.request('GET', `/api/paineis/${s.plain.id}/token`, { token: s.ana })).statusCode).toBe(404);
    expect((await ctx.request('GET', `/api/paineis/${s.plain.id}`, { token: s.ana })).statusCode).toBe(404);
    expect(generateTokenBodies()).toHaveLength(1);
  });

  it('answers the lighter token route with only what the viewer needs to renew', async () => {
    const s = await setup();
    const res = await ctx.request('GET', `/api/paineis/${s.plain.id}/token`, { token: s.ana });
    expect(Object.keys(res.json()).sort()).toEqual(['embedToken', 'embedUrl', 'tokenExpiration']);
    // With Microsoft configured, only Power BI's own hosts may be framed.
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/frame-src 'self' https:\/\/app\.powerbi\.com https:\/\/\*\.powerbi\.com(;|$)/);
  });

  it('retries Power BI’s 429 and 5xx, then says it is unavailable (503) without its details', async () => {
    const s = await setup();
    standIns.current.powerBi.failNext(429, 1);
    expect((await ctx.request('GET', `/api/paineis/${s.plain.id}`, { token: s.ana })).statusCode).toBe(200);
    standIns.current.powerBi.reset();
    standIns.current.powerBi.failNext(500, 20);
    const down = await ctx.request('GET', `/api/paineis/${s.rls.id}`, { token: s.ana });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ message: POWER_BI_UNAVAILABLE });
    expect(standIns.current.powerBi.requests.length).toBe(4); // the first try and 3 retries
  });

  it('answers 504 when Power BI does not answer in time', async () => {
    const s = await setup();
    standIns.current.powerBi.setLatency(3_000);
    const res = await ctx.request('GET', `/api/paineis/${s.plain.id}`, { token: s.ana });
    standIns.current.powerBi.setLatency(0);
    expect(res.statusCode).toBe(504);
    expect(res.json()).toEqual({ message: POWER_BI_TIMEOUT });
  });

  it('answers 502 when Power BI refuses the report, without its error code or request id', async () => {
    const s = await setup();
    standIns.current.powerBi.failNext(400);
    const res = await ctx.request('GET', `/api/paineis/${s.plain.id}`, { token: s.ana });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: POWER_BI_REFUSED });
  });

  it('answers a report Power BI no longer has as an unavailable panel (503), not as Power BI’s error', async () => {
    const s = await setup();
    standIns.current.powerBi.setReports([regional]);
    const res = await ctx.request('GET', `/api/paineis/${s.plain.id}`, { token: s.ana });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: PANEL_UNAVAILABLE });
  });
});

describe('what is logged of Power BI’s refusals', () => {
  const standIns = useStandIns({ people: [], reports: [] });
  const lines: Record<string, unknown>[] = [];
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    logger: {
      level: 'error',
      stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    },
  }));

  it('keeps Power BI’s error code and request id in the log, and out of the answer', async () => {
    const user = await createUser(ctx.db);
    const p = await panelOver(ctx.db, vendas);
    await link(ctx.db, p.id, [user.id]);
    const res = await ctx.request('GET', `/api/paineis/${p.id}`, { token: await ctx.tokenFor(user) });
    // A report Power BI does not have: the panel is unavailable to the person; what Power BI said is in the log.
    expect(res.statusCode).toBe(503);
    const logged = lines.find((line) => line.powerBiCode !== undefined);
    expect(logged).toMatchObject({ powerBiStatus: 404, powerBiCode: 'PowerBIEntityNotFound', painelId: p.id });
    expect(logged?.powerBiRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).not.toContain('PowerBIEntityNotFound');
    expect(res.body).not.toContain(String(logged?.powerBiRequestId));
  });
});

describe('Power BI out of reach', () => {
  const standIns = useStandIns({ people: [], reports: [vendas] });
  const sleeps: number[] = [];
  const ctx = useTestApp(async () => {
    // A port nothing listens on: every call to Power BI fails to connect (Entra still answers).
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    return {
      config: microsoftConfig(standIns.current, { POWERBI_API_URL: `http://127.0.0.1:${port}` }),
      powerBiOptions: { sleep: async (ms: number) => void sleeps.push(ms) },
    };
  });

  it('is retried with backoff, then answered 503 with a Portuguese message', async () => {
    const user = await createUser(ctx.db);
    const p = await panelOver(ctx.db, vendas);
    await link(ctx.db, p.id, [user.id]);
    const res = await ctx.request('GET', `/api/paineis/${p.id}`, { token: await ctx.tokenFor(user) });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: POWER_BI_UNAVAILABLE });
    expect(sleeps.length).toBe(3);
    expect(sleeps).toEqual([...sleeps].sort((a, b) => a - b));
  });
});

describe('embedding in demo mode', () => {
  const standIns = useStandIns({ people: [], reports: [vendas] });
  const ctx = useTestApp(() => {
    const config = microsoftConfig(standIns.current);
    return { config: { ...config, microsoft: { ...config.microsoft!, demoEmbedHost: standIns.current.embedHostUrl } } };
  });

  it('also names the stand-in page that plays the embed URL, with the same report and workspace', async () => {
    const user = await createUser(ctx.db);
    const p = await panelOver(ctx.db, vendas);
    await link(ctx.db, p.id, [user.id]);
    const token = await ctx.tokenFor(user);
    for (const url of [`/api/paineis/${p.id}`, `/api/paineis/${p.id}/token`]) {
      const body = (await ctx.request('GET', url, { token })).json<{ embedUrl: string; demoEmbedUrl: string }>();
      const demo = new URL(body.demoEmbedUrl);
      expect(`${demo.origin}${demo.pathname}`).toBe(standIns.current.embedHostUrl);
      expect(demo.search).toBe(new URL(body.embedUrl).search);
      expect(demo.searchParams.get('reportId')).toBe(vendas.reportId);
    }
  });

  it('lets the web app frame the stand-in page, which only demo mode does', async () => {
    const csp = (await ctx.request('GET', '/healthz')).headers['content-security-policy'];
    expect(csp).toMatch(new RegExp(`frame-src [^;]*${new URL(standIns.current.embedHostUrl).origin}`));
  });
});

describe('embed tokens close to their expiry', () => {
  // Power BI tokens of one minute: always inside the five minutes before expiry, so never reused.
  const standIns = useStandIns({ people: [], reports: [vendas], embedTokenLifetimeSeconds: 60 });
  const ctx = useTestApp(() => ({ config: microsoftConfig(standIns.current) }));

  it('are renewed instead of served again', async () => {
    const user = await createUser(ctx.db);
    const p = await panelOver(ctx.db, vendas);
    await link(ctx.db, p.id, [user.id]);
    const token = await ctx.tokenFor(user);
    const first = await ctx.request('GET', `/api/paineis/${p.id}/token`, { token });
    const second = await ctx.request('GET', `/api/paineis/${p.id}/token`, { token });
    expect(first.statusCode).toBe(200);
    expect(second.json<{ embedToken: string }>().embedToken).not.toBe(first.json<{ embedToken: string }>().embedToken);
    expect(standIns.current.powerBi.requests.filter((r) => r.path === '/v1.0/myorg/GenerateToken')).toHaveLength(2);
  });
});
