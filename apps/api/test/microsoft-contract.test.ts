import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { checkExchange, MICROSOFT_OPERATIONS, operationOf } from '@paineis/microsoft-api/check-exchange';
import type { Exchange } from '@paineis/microsoft-api/exchange';
import type { AtualizacoesPaineis, ResultadoImportacao, SaudePainel } from '@paineis/contract/power-bi';
import type {
  StandInAzureCapacity,
  StandInDataset,
  StandInPerson,
  StandInReport,
  StandInWorkspace,
} from '@paineis/microsoft-stand-ins/types';
import { useTestApp, type TestContext } from './context.ts';
import { createAdmin, createUser, link, panel, panelOver } from './fixtures.ts';
import { microsoftConfig, person, useStandIns } from './microsoft.ts';
import { EntraClient } from '../src/integrations/microsoft-identity/entra-client.ts';
import { createMailTransport } from '../src/integrations/mail/create-mail-transport.ts';
import { MailError } from '../src/integrations/mail/mail-transport.ts';
import { outgoingMail } from './outgoing-mail.ts';
import type { PowerBiEmbeddingService } from '../src/integrations/power-bi/power-bi-embedding-service.ts';
import { ARM_SCOPE, CapacityClient, parseCapacityResourceId } from '../src/integrations/azure/capacity-client.ts';

/**
 * Contract tests (docs/decisions/016-microsoft-contract-tests.md): the portal's real Microsoft clients, driven
 * through the app's own routes (sign-in, opening a panel, exporting, the directory sync) against the stand-ins,
 * and every exchange checked against Microsoft's descriptions of the calls (@paineis/microsoft-api): what the
 * portal sends and what the stand-ins answer, refusals included. Microsoft's description wins over both.
 */

const PORTAL = 'http://portal.empresa.test';
const WORKSPACE = '0a0a0a0a-0000-4000-8000-0000000000c1';
/** An application (client) id as Entra issues them: a GUID. */
const CLIENT_ID = '6731de76-14a6-49ae-97bc-6eba6914391e';
const ADMINS_GROUP = '9e9e9e9e-0000-4000-8000-0000000000c1';
/** Microsoft 365 groups: one anyone may join (Public), one whose owners choose its members (Private). */
const PUBLIC_GROUP = '9e9e9e9e-0000-4000-8000-0000000000c2';
const PRIVATE_GROUP = '9e9e9e9e-0000-4000-8000-0000000000c3';

const vendas: StandInReport = {
  workspaceId: WORKSPACE,
  reportId: '0b0b0b0b-0000-4000-8000-0000000000c1',
  name: 'Vendas',
  datasetId: '0c0c0c0c-0000-4000-8000-0000000000c1',
  rls: false,
};
const regional: StandInReport = {
  workspaceId: WORKSPACE,
  reportId: '0b0b0b0b-0000-4000-8000-0000000000c2',
  name: 'Vendas por Região',
  datasetId: '0c0c0c0c-0000-4000-8000-0000000000c2',
  rls: true,
};
/** An RLS report whose semantic model the portal's service principal may not write: its exports are refused. */
const restrito: StandInReport = {
  workspaceId: WORKSPACE,
  reportId: '0b0b0b0b-0000-4000-8000-0000000000c3',
  name: 'Restrito',
  datasetId: '0c0c0c0c-0000-4000-8000-0000000000c3',
  rls: true,
  datasetWritePermission: false,
};

/** A report in a second workspace, where the service principal may lose its membership. */
const WORKSPACE_2 = '0a0a0a0a-0000-4000-8000-0000000000c2';
const custos: StandInReport = {
  workspaceId: WORKSPACE_2,
  reportId: '0b0b0b0b-0000-4000-8000-0000000000c4',
  name: 'Custos',
  datasetId: '0c0c0c0c-0000-4000-8000-0000000000c4',
  rls: false,
};
const REPORTS = [vendas, regional, restrito, custos];
/** Three workspaces: more than one page of the two the portal is set to ask for at a time. */
const WORKSPACES: StandInWorkspace[] = [
  { id: WORKSPACE, name: 'Comercial' },
  { id: WORKSPACE_2, name: 'Controladoria' },
  { id: '0a0a0a0a-0000-4000-8000-0000000000c3', name: 'Operações' },
];
const DATASETS: StandInDataset[] = [
  {
    datasetId: regional.datasetId,
    refreshes: [
      {
        status: 'Failed',
        startTime: '2030-01-02T07:00:00.000Z',
        endTime: '2030-01-02T07:02:00.000Z',
        serviceExceptionJson: '{"errorCode":"ModelRefreshFailed_CredentialsNotSpecified"}',
      },
      { status: 'Completed', startTime: '2030-01-01T07:00:00.000Z', endTime: '2030-01-01T07:04:00.000Z' },
    ],
  },
];

/** The Power BI capacities in Azure (issue 40): an A SKU and an F SKU, apart from the reports' own capacity. */
const SUBSCRIPTION = '0d0d0d0d-0000-4000-8000-0000000000c1';
const CAPACITIES: StandInAzureCapacity[] = [
  {
    subscriptionId: SUBSCRIPTION,
    resourceGroup: 'rg-paineis',
    name: 'paineisa1',
    kind: 'embedded',
    sku: 'A1',
    powerBiCapacityId: 'capacidade-a1',
  },
  {
    subscriptionId: SUBSCRIPTION,
    resourceGroup: 'rg-paineis',
    name: 'paineisf2',
    kind: 'fabric',
    sku: 'F2',
    powerBiCapacityId: 'capacidade-f2',
  },
];

const ana = person('c0c0c0c0-0000-4000-8000-000000000001', 'Ana Gestora', {
  appRoles: ['Admin'],
  department: 'Controladoria',
  jobTitle: 'Gerente',
  officeLocation: 'São Paulo',
});
const bruno = person('c0c0c0c0-0000-4000-8000-000000000002', 'Bruno Analista', { department: 'Comercial' });
/** More people than one page of $top=999 holds, so the sync follows @odata.nextLink. */
const directory: StandInPerson[] = [
  ana,
  bruno,
  ...Array.from({ length: 1_200 }, (_, i) =>
    person(`c1c1c1c1-0000-4000-8000-${String(i).padStart(12, '0')}`, `Pessoa ${i}`, { showOnSignIn: false }),
  ),
];

describe('the portal’s Microsoft calls, checked against Microsoft’s descriptions', () => {
  const standIns = useStandIns({
    people: directory,
    groups: [
      { id: ADMINS_GROUP, displayName: 'Administradores do portal', members: [bruno.id], appRoles: ['Admin'] },
      { id: PUBLIC_GROUP, displayName: 'Projeto Expansão', groupTypes: ['Unified'], members: [bruno.id] },
      {
        id: PRIVATE_GROUP,
        displayName: 'Diretoria',
        groupTypes: ['Unified'],
        visibility: 'Private',
        members: [ana.id],
      },
    ],
    reports: REPORTS,
    workspaces: WORKSPACES,
    datasets: DATASETS,
    clientId: CLIENT_ID,
    capacities: CAPACITIES,
    recordExchanges: true,
  });
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current),
    powerBiOptions: { sleep: async () => undefined, workspacePageSize: 2 },
    graphOptions: { sleep: async () => undefined },
  }));
  /** Every exchange of every test, for the coverage at the end. */
  const all: Exchange[] = [];

  beforeEach(() => {
    standIns.current.clearExchanges();
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports(REPORTS);
    standIns.current.powerBi.setDatasets(DATASETS);
    standIns.current.graph.reset();
    standIns.current.identity.reset();
    (ctx.app.embedding as PowerBiEmbeddingService).clear();
  });

  /** The exchanges since the test began: none may break Microsoft's description, bar the known disagreements. */
  function expectConforming(): Exchange[] {
    const exchanges = [...standIns.current.exchanges];
    all.push(...exchanges);
    const violations = exchanges.flatMap((exchange) => checkExchange(exchange));
    expect(violations).toEqual([]);
    return exchanges;
  }

  /** The calls made, by operation and status; the app's tokens aside (the client keeps them for an hour). */
  const calls = (exchanges: Exchange[]) =>
    exchanges
      .map((e) => `${operationOf(e)?.operation.id ?? `? ${e.method} ${e.url}`} → ${e.answer.status}`)
      .filter((call) => call !== 'Get a token (client credentials) → 200');

  /** One browser's Microsoft sign-in through the portal's routes and the stand-in's page. */
  async function signIn(personId: string) {
    const start = await ctx.app.inject({ url: '/api/auth/microsoft-login', headers: { host: 'portal.empresa.test' } });
    expect(start.statusCode).toBe(302);
    const cookie = String(start.headers['set-cookie']).split(';')[0]!;
    const authorize = new URL(String(start.headers.location));
    let answer = await fetch(authorize, { redirect: 'manual' });
    // Entra sends the browser straight back when it refuses at once; else the person picks who signs in.
    if (answer.status !== 302) {
      const html = await answer.text();
      const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
      const requestId = /name="request" value="([^"]+)"/.exec(html)![1]!;
      answer = await fetch(new URL(action, authorize), {
        method: 'POST',
        body: new URLSearchParams({ request: requestId, person: personId }),
        redirect: 'manual',
      });
    }
    const back = new URL(String(answer.headers.get('location')));
    expect(back.origin).toBe(PORTAL);
    const callback = await ctx.app.inject({
      url: back.pathname + back.search,
      headers: { host: 'portal.empresa.test', cookie },
    });
    expect(callback.statusCode).toBe(302);
    return new URL(String(callback.headers.location));
  }

  async function viewer(ctx: TestContext, report: StandInReport, usaRls = report.rls) {
    const user = await createUser(ctx.db, { email: 'ana@empresa.com.br' });
    const p = await panel(ctx.db, {
      workspaceId: report.workspaceId,
      reportId: report.reportId,
      usaRls,
      ...(usaRls ? { rlsConfigurations: [{ roleName: 'Sul', userEmails: ['ana@empresa.com.br'] }] } : {}),
    });
    await link(ctx.db, p.id, [user.id]);
    return { panel: p, token: await ctx.tokenFor(user) };
  }

  it('sign-in: discovery, the authorization request, the code redemption, the signing keys and the person read from Graph', async () => {
    const landed = await signIn(ana.id);
    expect(landed.pathname).toBe('/login');
    expect(landed.searchParams.get('token')).toBeTruthy();
    expect(calls(expectConforming())).toEqual([
      'OpenID configuration document → 200',
      'Request an authorization code → 200',
      'Redeem a code for an access token → 200',
      'Signing keys (jwks_uri) → 200',
      'Get user → 200',
    ]);
  });

  it('sign-in refused: the person cancels, and a code Entra will not redeem', async () => {
    standIns.current.identity.failNext('access_denied');
    expect(Object.fromEntries((await signIn(ana.id)).searchParams)).toEqual({ erro: 'microsoft' });
    standIns.current.identity.failNext('invalid_grant');
    expect(Object.fromEntries((await signIn(ana.id)).searchParams)).toEqual({ erro: 'microsoft' });
    expect(calls(expectConforming())).toEqual([
      'Request an authorization code → 302',
      'Request an authorization code → 200',
      'Redeem a code for an access token → 400',
    ]);
  });

  it('opening panels: GetReport and GenerateToken, with and without an effective identity', async () => {
    for (const report of [vendas, regional]) {
      const { panel: p, token } = await viewer(ctx, report);
      expect((await ctx.request('GET', `/api/paineis/${p.id}`, { token })).statusCode).toBe(200);
    }
    expect(calls(expectConforming())).toEqual([
      'Reports_GetReportInGroup → 200',
      'EmbedToken_GenerateToken → 200',
      'Reports_GetReportInGroup → 200',
      'EmbedToken_GenerateToken → 200',
    ]);
  });

  it('opening panels refused: a report Power BI does not know (404), an RLS model without an identity (400)', async () => {
    const unknown: StandInReport = { ...vendas, reportId: '0b0b0b0b-0000-4000-8000-0000000000ff' };
    const missing = await viewer(ctx, unknown);
    expect(
      (await ctx.request('GET', `/api/paineis/${missing.panel.id}`, { token: missing.token })).statusCode,
    ).not.toBe(200);
    // A panel that says it has no RLS over a model that has: the portal sends no identity, Power BI refuses.
    const withoutIdentity = await viewer(ctx, regional, false);
    const res = await ctx.request('GET', `/api/paineis/${withoutIdentity.panel.id}`, { token: withoutIdentity.token });
    expect(res.statusCode).not.toBe(200);
    expect(calls(expectConforming())).toEqual([
      'Reports_GetReportInGroup → 404',
      'Reports_GetReportInGroup → 200',
      'EmbedToken_GenerateToken → 400',
    ]);
  });

  it('exporting: ExportTo, the status while it runs and once done, and the file; Power BI throttling the polls', async () => {
    // Long enough that the first poll finds it running even on a busy machine.
    standIns.current.powerBi.setExportDuration(1_000);
    const { panel: p, token } = await viewer(ctx, regional);
    const started = await ctx.request('POST', `/api/paineis/${p.id}/exportacoes`, { token, body: { formato: 'PDF' } });
    expect(started.statusCode).toBe(202);
    const job = started.json<{ id: string }>();
    const status = () => ctx.request('GET', `/api/paineis/${p.id}/exportacoes/${job.id}`, { token });
    expect((await status()).json()).toMatchObject({ status: expect.stringMatching(/NotStarted|Running/) });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    standIns.current.powerBi.failNext(429);
    expect((await status()).json()).toMatchObject({ status: 'Succeeded' });
    // The file's route asks for the status first: Power BI throttles the download after it.
    standIns.current.powerBi.failNext(429, 1, 1);
    const file = await ctx.request('GET', `/api/paineis/${p.id}/exportacoes/${job.id}/arquivo`, { token });
    expect(file.statusCode).toBe(200);
    expect(calls(expectConforming())).toEqual([
      'Reports_GetReportInGroup → 200',
      'Reports_ExportToFileInGroup → 202',
      'Reports_GetExportToFileStatusInGroup → 202',
      'Reports_GetExportToFileStatusInGroup → 429',
      'Reports_GetExportToFileStatusInGroup → 200',
      'Reports_GetExportToFileStatusInGroup → 200',
      'Reports_GetFileOfExportToFileInGroup → 429',
      'Reports_GetFileOfExportToFileInGroup → 200',
    ]);
  });

  it('exporting refused: an RLS export without Write permission on the semantic model (403)', async () => {
    const { panel: p, token } = await viewer(ctx, restrito);
    const res = await ctx.request('POST', `/api/paineis/${p.id}/exportacoes`, { token, body: { formato: 'PPTX' } });
    expect(res.statusCode).not.toBe(202);
    expect(calls(expectConforming())).toEqual(['Reports_GetReportInGroup → 200', 'Reports_ExportToFileInGroup → 403']);
  });

  it('directory sync: the users page by page, the service principal, its app role assignments, a group’s members and the groups’ delta', async () => {
    const admin = await ctx.tokenFor(await createAdmin(ctx.db, { id: 'admin-local' }));
    const sync = () => ctx.request('POST', '/api/usuarios365/sincronizar', { token: admin });
    expect((await sync()).statusCode).toBe(200);
    const reads = [
      'List users → 200',
      'List users → 200',
      'Get servicePrincipal → 200',
      'List appRoleAssignments granted for a service principal → 200',
      'List group members (microsoft.graph.user) → 200',
      'group: delta → 200',
    ];
    const exchanges = expectConforming();
    expect(calls(exchanges)).toEqual(reads);
    // Each group's visibility is asked for, and kept: Graph's own word on who may join a Microsoft 365 group.
    const groupsDelta = exchanges.find((e) => operationOf(e)?.operation.id === 'group: delta')!;
    expect(new URL(groupsDelta.url, 'https://graph.microsoft.com').searchParams.get('$select')).toContain('visibility');
    const directory = await ctx.request('GET', '/api/grupos365', { token: admin });
    expect(directory.json<{ nome: string; publico: boolean }[]>().map((g) => [g.nome, g.publico])).toEqual([
      ['Administradores do portal', false],
      ['Diretoria', false],
      ['Projeto Expansão', true],
    ]);

    // Graph throttles each read in turn (Retry-After: 1); the sync waits and reads it again.
    for (const [index, read] of reads.entries()) {
      if (index === 0) continue;
      standIns.current.clearExchanges();
      standIns.current.graph.throttleNext(1, 1, index);
      expect((await sync()).statusCode).toBe(200);
      const expected = [...reads];
      expected.splice(index, 0, read.replace('→ 200', '→ 429'));
      expect(calls(expectConforming())).toEqual(expected);
    }
  });

  it('mail: sendMail from the configured mailbox, the report attached; a sender the directory does not hold (404)', async () => {
    const from = (sender: string) =>
      createMailTransport(
        { kind: 'graph', sender, maxAttachmentBytes: 3_000_000, limits: ctx.config.graphMailLimits },
        { graph: ctx.app.graph },
      )!;
    await from(ana.userPrincipalName).send(outgoingMail());
    await expect(from('ninguem@empresa.com.br').send(outgoingMail())).rejects.toBeInstanceOf(MailError);
    expect(calls(expectConforming())).toEqual(['user: sendMail → 202', 'user: sendMail → 404']);
  });

  it('the clients’ own refusals: an unknown person (Get user 404), a wrong tenant and a wrong client secret', async () => {
    expect(await ctx.app.graph!.getUser('c9c9c9c9-0000-4000-8000-000000000000')).toBeNull();
    const settings = ctx.config.microsoft!;
    await expect(
      new EntraClient({ ...settings, tenantId: 'outro-diretorio' }).appToken('https://graph.microsoft.com/.default'),
    ).rejects.toThrow();
    await expect(
      new EntraClient({ ...settings, clientSecret: 'segredo-errado' }).appToken('https://graph.microsoft.com/.default'),
    ).rejects.toThrow();
    expect(calls(expectConforming())).toEqual([
      'Get user → 404',
      'OpenID configuration document → 400',
      'OpenID configuration document → 200',
      'Get a token (client credentials) → 401',
    ]);
  });

  it('the catalogue: the workspaces page by page, a workspace’s reports; Power BI throttling a page (429, Retry-After)', async () => {
    const admin = await ctx.tokenFor(await createAdmin(ctx.db, { id: 'admin-local' }));
    const workspaces = await ctx.request('GET', '/api/powerbi/workspaces', { token: admin });
    expect(workspaces.statusCode).toBe(200);
    expect(workspaces.json<unknown[]>()).toHaveLength(3);
    const reports = await ctx.request('GET', `/api/powerbi/workspaces/${WORKSPACE}/relatorios`, { token: admin });
    expect(reports.statusCode).toBe(200);
    expect(reports.json<unknown[]>()).toHaveLength(3);
    // The second page is throttled once; the portal waits Retry-After and asks for it again.
    standIns.current.powerBi.throttleNext(1, 1, 1);
    expect((await ctx.request('GET', '/api/powerbi/workspaces', { token: admin })).json<unknown[]>()).toHaveLength(3);
    const exchanges = expectConforming();
    expect(calls(exchanges)).toEqual([
      'Groups_GetGroups → 200',
      'Groups_GetGroups → 200',
      'Reports_GetReportsInGroup → 200',
      'Groups_GetGroups → 200',
      'Groups_GetGroups → 429',
      'Groups_GetGroups → 200',
    ]);
    const pages = exchanges.filter((e) => e.url.startsWith('/v1.0/myorg/groups?')).map((e) => e.url);
    expect(pages.slice(0, 2)).toEqual(['/v1.0/myorg/groups?$top=2&$skip=0', '/v1.0/myorg/groups?$top=2&$skip=2']);
    expect(exchanges.find((e) => e.answer.status === 429)?.answer.headers['retry-after']).toBe('1');
  });

  it('importing: the reports checked in their workspace, the new panel’s first rounds; a workspace the service principal was removed from (401)', async () => {
    const admin = await ctx.tokenFor(await createAdmin(ctx.db, { id: 'admin-local' }));
    const imported = await ctx.request('POST', '/api/paineis/importar', {
      token: admin,
      body: { classificacaoId: null, relatorios: [{ workspaceId: WORKSPACE, reportId: vendas.reportId }] },
    });
    expect(imported.statusCode).toBe(201);
    expect(imported.json<ResultadoImportacao>().criados).toHaveLength(1);
    // The new panel's freshness and health are read at once, in the background: waited for, so that no round of
    // this test runs on into the next.
    await Promise.all([ctx.app.freshness!.idle(), ctx.app.panelHealth!.idle()]);
    standIns.current.powerBi.removeServicePrincipal(WORKSPACE_2);
    const refused = await ctx.request('POST', '/api/paineis/importar', {
      token: admin,
      body: { classificacaoId: null, relatorios: [{ workspaceId: WORKSPACE_2, reportId: custos.reportId }] },
    });
    expect(refused.statusCode).toBe(404);
    const made = calls(expectConforming());
    expect(made[0]).toBe('Reports_GetReportsInGroup → 200');
    // The two rounds run side by side: their calls in either order.
    expect(made.slice(1, -1).sort()).toEqual(
      [
        'Reports_GetReportsInGroup → 200',
        'Datasets_GetDatasetsInGroup → 200',
        'Datasets_GetRefreshHistoryInGroup → 200',
        'Reports_GetPagesInGroup → 200',
      ].sort(),
    );
    expect(made.at(-1)).toBe('Reports_GetReportsInGroup → 401');
  });

  it('freshness: the reports, the workspace’s datasets and a refresh history; Power BI throttling each (429, Retry-After)', async () => {
    const admin = await ctx.tokenFor(await createAdmin(ctx.db, { id: 'admin-local' }));
    const p = await panelOver(ctx.db, regional, { nomePainel: 'Vendas por Região' });
    const round = async () => {
      expect((await ctx.request('POST', '/api/paineis/atualizacoes/verificar', { token: admin })).statusCode).toBe(202);
      await ctx.app.freshness!.idle();
    };
    await round();
    const read = await ctx.request('GET', '/api/paineis/atualizacoes', { token: admin });
    expect(read.json<AtualizacoesPaineis>()[String(p.id)]).toMatchObject({
      status: 'falhou',
      ultimaAtualizacao: '2030-01-01T07:04:00.000Z',
    });
    // Each call throttled in turn: the round waits Retry-After and asks again.
    for (const index of [0, 1, 2]) {
      standIns.current.powerBi.throttleNext(1, 1, index);
      await round();
    }
    const read3 = [
      'Reports_GetReportsInGroup → 200',
      'Datasets_GetDatasetsInGroup → 200',
      'Datasets_GetRefreshHistoryInGroup → 200',
    ];
    const throttled = (index: number) => {
      const expected = [...read3];
      expected.splice(index, 0, read3[index]!.replace('→ 200', '→ 429'));
      return expected;
    };
    const exchanges = expectConforming();
    expect(calls(exchanges)).toEqual([...read3, ...throttled(0), ...throttled(1), ...throttled(2)]);
    expect(exchanges.find((e) => e.url.includes('/refreshes'))?.url).toMatch(/\/refreshes\?\$top=\d+$/);
  });

  it('freshness beyond IsRefreshable: the DirectQuery schedule of a DirectQuery model (200) and of an unscheduled import model (400), whose history says a refresh was cancelled', async () => {
    const admin = await ctx.tokenFor(await createAdmin(ctx.db, { id: 'admin-local' }));
    standIns.current.powerBi.setDatasets([
      ...DATASETS,
      { datasetId: vendas.datasetId, storageMode: 'DirectQuery' },
      {
        datasetId: custos.datasetId,
        isRefreshable: false,
        refreshes: [
          {
            status: 'Cancelled',
            extendedStatus: 'Cancelled',
            refreshType: 'ViaEnhancedApi',
            startTime: '2030-01-03T07:00:00.000Z',
            endTime: '2030-01-03T07:01:00.000Z',
          },
          {
            status: 'Completed',
            startTime: '2030-01-02T07:00:00.000Z',
            endTime: '2030-01-02T07:03:00.000Z',
            serviceExceptionJson: '',
          },
        ],
      },
    ]);
    const panels = { vendas: await panelOver(ctx.db, vendas), custos: await panelOver(ctx.db, custos) };
    expect((await ctx.request('POST', '/api/paineis/atualizacoes/verificar', { token: admin })).statusCode).toBe(202);
    await ctx.app.freshness!.idle();
    const read = (await ctx.request('GET', '/api/paineis/atualizacoes', { token: admin })).json<AtualizacoesPaineis>();
    expect(read[String(panels.vendas.id)]).toMatchObject({ status: 'tempo-real' });
    expect(read[String(panels.custos.id)]).toMatchObject({
      status: 'cancelada',
      ultimaAtualizacao: '2030-01-02T07:03:00.000Z',
    });
    const exchanges = expectConforming();
    expect(calls(exchanges).sort()).toEqual([
      'Datasets_GetDatasetsInGroup → 200',
      'Datasets_GetDatasetsInGroup → 200',
      'Datasets_GetDirectQueryRefreshScheduleInGroup → 200',
      'Datasets_GetDirectQueryRefreshScheduleInGroup → 400',
      'Datasets_GetRefreshHistoryInGroup → 200',
      'Reports_GetReportsInGroup → 200',
      'Reports_GetReportsInGroup → 200',
    ]);
  });

  it('health: each report’s pages; a deleted report (404) and a workspace the service principal was removed from (401)', async () => {
    const admin = await ctx.tokenFor(await createAdmin(ctx.db, { id: 'admin-local' }));
    const panels = {
      vendas: await panelOver(ctx.db, vendas),
      regional: await panelOver(ctx.db, regional),
      custos: await panelOver(ctx.db, custos),
    };
    standIns.current.powerBi.setReports(REPORTS.filter((report) => report !== regional));
    standIns.current.powerBi.removeServicePrincipal(WORKSPACE_2);
    expect((await ctx.request('POST', '/api/paineis/saude/verificar', { token: admin })).statusCode).toBe(202);
    await ctx.app.panelHealth!.idle();
    const health = (await ctx.request('GET', '/api/paineis/saude', { token: admin })).json<SaudePainel[]>();
    const estado = (id: number) => health.find((entry) => entry.painelId === id)?.estado;
    expect([estado(panels.vendas.id), estado(panels.regional.id), estado(panels.custos.id)]).toEqual([
      'ok',
      'relatorio-nao-encontrado',
      'sem-acesso',
    ]);
    expect(calls(expectConforming()).sort()).toEqual([
      'Reports_GetPagesInGroup → 200',
      'Reports_GetPagesInGroup → 401',
      'Reports_GetPagesInGroup → 404',
    ]);
  });

  it('refresh schedules: an import model’s (200), a dataset Power BI does not know (404)', async () => {
    const powerBi = ctx.app.powerBi!;
    expect(await powerBi.refreshSchedule(WORKSPACE, vendas.datasetId)).toMatchObject({ enabled: true });
    await expect(powerBi.refreshSchedule(WORKSPACE, '0c0c0c0c-0000-4000-8000-0000000000ff')).rejects.toMatchObject({
      status: 404,
    });
    expect(calls(expectConforming())).toEqual([
      'Datasets_GetRefreshScheduleInGroup → 200',
      'Datasets_GetRefreshScheduleInGroup → 404',
    ]);
  });

  it('the capacity: read, suspended, resumed and scaled, an A SKU and an F SKU, the Location polled; without the Azure role (403), an operation not known (404)', async () => {
    const s = standIns.current;
    s.capacities.reset();
    const entra = ctx.app.entra!;
    const client = (name: string) =>
      new CapacityClient(s.managementUrl, entra, parseCapacityResourceId(s.capacities.resourceId(name)), {
        sleep: async () => undefined,
      });
    const poll = async (location: string | null) =>
      (await fetch(location!, { headers: { authorization: `Bearer ${await entra.appToken(ARM_SCOPE)}` } })).status;

    for (const [name, sku] of [
      ['paineisa1', 'A2'],
      ['paineisf2', 'F4'],
    ] as const) {
      const capacity = client(name);
      await capacity.get();
      const suspended = await capacity.suspend();
      expect(await poll(suspended.location)).toBe(202);
      s.capacities.settle();
      expect(await poll(suspended.location)).toBe(200);
      await capacity.resume();
      s.capacities.settle();
      await capacity.setSku(sku);
      s.capacities.settle();
      // The SKU it has: nothing to do.
      await capacity.setSku(sku);
      s.capacities.setRole(name, false);
      for (const call of [() => capacity.get(), () => capacity.suspend(), () => capacity.resume()]) {
        await expect(call()).rejects.toMatchObject({ code: 'AuthorizationFailed' });
      }
      await expect(capacity.setSku('F8')).rejects.toMatchObject({ status: 403 });
      s.capacities.setRole(name, true);
    }
    const unknown = `${s.managementUrl}/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Fabric/locations/brazilsouth/operationresults/00000000-0000-4000-8000-000000000000?api-version=2023-11-01`;
    expect(await poll(unknown)).toBe(404);

    const embedded = [
      'Capacities_GetDetails → 200',
      'Capacities_Suspend → 202',
      'Location (async operation result) → 202',
      'Location (async operation result) → 200',
      'Capacities_Resume → 202',
      'Capacities_Update → 202',
      'Capacities_Update → 200',
      'Capacities_GetDetails → 403',
      'Capacities_Suspend → 403',
      'Capacities_Resume → 403',
      'Capacities_Update → 403',
    ];
    expect(calls(expectConforming())).toEqual([
      ...embedded,
      ...embedded.map((call) =>
        call.replace('Capacities_GetDetails', 'FabricCapacities_Get').replace(/^Capacities_/, 'FabricCapacities_'),
      ),
      'Location (async operation result) → 404',
    ]);
  });

  afterAll(() => {
    // Runs last: every operation in the schemas was called, with a success, and with a refusal where the stand-ins
    // can refuse it; and every known disagreement still shows (a fixed one must leave the list).
    const outcomes = new Map<string, Set<'success' | 'refusal'>>();
    for (const exchange of all) {
      const found = operationOf(exchange);
      if (!found) continue;
      const refused = exchange.answer.status >= 400 || /[?&]error=/.test(exchange.answer.headers.location ?? '');
      const set = outcomes.get(found.operation.id) ?? new Set();
      set.add(refused ? 'refusal' : 'success');
      outcomes.set(found.operation.id, set);
    }
    // The signing keys are only ever asked of the tenant the portal discovered: no refusal to provoke.
    const noRefusal = new Set(['Signing keys (jwks_uri)']);
    // Described for the stand-in's own checks (packages/microsoft-api/src/graph-groups.test.ts): the portal reads
    // groups only through the delta query, so it calls none of these.
    const notCalled = new Set(['List groups', 'Get group', 'List group members', 'List group transitive members']);
    const coverage = Object.fromEntries(
      MICROSOFT_OPERATIONS.map((operation) => [operation.id, [...(outcomes.get(operation.id) ?? [])].sort()]),
    );
    expect(coverage).toEqual(
      Object.fromEntries(
        MICROSOFT_OPERATIONS.map((operation) => [
          operation.id,
          notCalled.has(operation.id) ? [] : noRefusal.has(operation.id) ? ['success'] : ['refusal', 'success'],
        ]),
      ),
    );
  });
});
