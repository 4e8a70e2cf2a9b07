import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../../scripts/lib/chromium.mjs';
import { EMBED_SCRIPT_PATH, embedHostResponse, isEmbedHostPath } from './embed-host.ts';
import { pagesOf } from './power-bi.ts';
import {
  decodeReportState,
  encodeReportState,
  EXPORT_DATA_MAX_ROWS,
  exportVisualCsv,
  formatos,
  regionFigures,
  rlsRegion,
  VISUAIS,
  visibleRows,
} from './report-state.ts';
import { startStandIns } from './stand-ins.ts';
import { powerBiToken, testReport, vendas, WORKSPACE } from './test-helpers.ts';
import type { StandInReport, StandIns } from './types.ts';

const financeiro = testReport(2, {
  name: 'Financeiro <&>',
  rls: true,
  pages: [
    { name: 'ReportSectionResumo', displayName: 'Resumo', visibility: 0 },
    { name: 'ReportSectionOculta', displayName: 'Oculta', visibility: 1 },
  ],
});
// exportData: 40,000 underlying rows (over Microsoft's 30,000), and one whose export setting is off.
const grande = testReport(3, { name: 'Grande', rls: false, underlyingRows: 40_000 });
const semExportacao = testReport(4, { name: 'Sem exportação', rls: false, exportDataDisabled: true });
const reports = [vendas, financeiro, grande, semExportacao];
const ANA = 'ana.souza@contoso.com.br';

/**
 * An embed token for one report, asked for as the portal asks (to view only: no targetWorkspaces, no allowEdit)
 * unless `grant` asks for more.
 */
async function embedToken(
  s: StandIns,
  report: StandInReport,
  roles?: string[],
  grant: { targetWorkspaces?: string[]; allowEdit?: boolean } = {},
): Promise<string> {
  const response = await fetch(`${s.powerBiApiUrl}/v1.0/myorg/GenerateToken`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await powerBiToken(s)}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      datasets: [{ id: report.datasetId }],
      reports: [{ id: report.reportId, ...(grant.allowEdit === undefined ? {} : { allowEdit: grant.allowEdit }) }],
      ...(grant.targetWorkspaces ? { targetWorkspaces: grant.targetWorkspaces.map((id) => ({ id })) } : {}),
      ...(roles ? { identities: [{ username: ANA, roles, datasets: [report.datasetId] }] } : {}),
    }),
  });
  if (!response.ok) throw new Error(`GenerateToken answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

async function embedUrlOf(s: StandIns, report: StandInReport): Promise<string> {
  const response = await fetch(
    `${s.powerBiApiUrl}/v1.0/myorg/groups/${report.workspaceId}/reports/${report.reportId}`,
    {
      headers: { authorization: `Bearer ${await powerBiToken(s)}` },
    },
  );
  return ((await response.json()) as { embedUrl: string }).embedUrl;
}

describe('embed host page', () => {
  let s: StandIns;

  beforeAll(async () => {
    s = await startStandIns({ people: [], reports });
  });
  afterAll(() => s.close());

  const pageFor = (report: Pick<StandInReport, 'reportId' | 'workspaceId'>) =>
    fetch(`${s.embedHostUrl}?reportId=${report.reportId}&groupId=${report.workspaceId}&config=abc&uid=x1`);

  it('is served at /reportEmbed, locked down to its own inline script and style, and its script', async () => {
    expect(s.embedHostUrl).toBe(`${s.authorityHost}/reportEmbed`);
    const response = await pageFor(vendas);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const csp = response.headers.get('content-security-policy')!;
    const html = await response.text();
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const hash = (text: string) => createHash('sha256').update(text).digest('base64');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'self' 'sha256-${hash(script)}'`);
    expect(csp).toContain(`style-src 'sha256-${hash(style)}'`);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('frame-ancestors');
    expect(response.headers.get('x-frame-options')).toBeNull();
    // No address but its own script's path, so the page works wherever it is served from (https://app.powerbi.com in
    // browser tests).
    expect([...html.matchAll(/\s(src|href|action)="([^"]*)"/g)].map((match) => match[2])).toEqual([EMBED_SCRIPT_PATH]);
    expect(html).not.toMatch(/https?:\/\/(?!app\.powerbi\.com)/);
  });

  it("draws every page of the report, each with its own title and numbers, and carries the report's metadata", async () => {
    const html = await (await pageFor(vendas)).text();
    const pages = pagesOf(vendas);
    expect(pages.map((page) => page.visibility)).toEqual([0, 0, 0, 1]);
    for (const page of pages) {
      expect(html).toContain(`data-pagina="${page.name}"`);
      expect(html).toContain(`<h1>${page.displayName} — Vendas</h1>`);
    }
    const numbers = [...html.matchAll(/<strong>([^<]+)<\/strong>/g)].map((match) => match[1]);
    expect(new Set(numbers).size).toBe(numbers.length);
    const data = JSON.parse(/<script type="application\/json" id="dados-relatorio">([^<]*)</.exec(html)![1]!);
    expect(data.report).toMatchObject({ reportId: vendas.reportId, datasetId: vendas.datasetId, rls: false });
    expect(data.report.pages).toHaveLength(4);
  });

  it('escapes report and page names', async () => {
    const html = await (await pageFor(financeiro)).text();
    expect(html).toContain('Resumo — Financeiro &#60;&#38;&#62;');
    expect(html).not.toContain('Financeiro <&>');
    expect(html).toContain('\\u003c&>');
  });

  it('serves a not-found page for an unknown report or the wrong workspace', async () => {
    for (const report of [
      { reportId: 'bbbbbbbb-0000-4000-8000-00000000ffff', workspaceId: WORKSPACE },
      { reportId: vendas.reportId, workspaceId: 'aaaaaaaa-0000-4000-8000-00000000ffff' },
    ]) {
      const html = await (await pageFor(report)).text();
      expect(html).toContain('"report":null');
      expect(html).not.toContain('<section');
    }
  });
});

describe("embed host page's script, as slow as Power BI's when asked (docs/requirements.md#report-loading)", () => {
  let s: StandIns;
  let slow: StandIns;

  beforeAll(async () => {
    [s, slow] = await Promise.all([
      startStandIns({ people: [], reports }),
      startStandIns({ people: [], reports, embedScriptDelayMs: 300 }),
    ]);
  });
  afterAll(() => Promise.all([s.close(), slow.close()]));

  /** How long the script took to answer, and the answer. */
  async function timedScript(standIns: StandIns): Promise<{ ms: number; response: Response; body: string }> {
    const started = performance.now();
    const response = await fetch(new URL(EMBED_SCRIPT_PATH, standIns.authorityHost));
    const body = await response.text();
    return { ms: performance.now() - started, response, body };
  }

  it('is loaded in the head of the page with and without a report (bootstrap, preload), before its own script', async () => {
    expect(EMBED_SCRIPT_PATH).toMatch(/^\/reportEmbed\/scripts\/relatorio\.[0-9a-f]{16}\.js$/);
    for (const query of [`?reportId=${vendas.reportId}&groupId=${vendas.workspaceId}`, '', '?language=en-US']) {
      const html = await (await fetch(`${s.embedHostUrl}${query}`)).text();
      const head = html.slice(0, html.indexOf('</head>'));
      // A plain script: blocking, so the page's load event (and powerbi-client's load message) waits for it.
      expect(head).toContain(`<script src="${EMBED_SCRIPT_PATH}"></script>`);
    }
  });

  it('answers at once by default, cacheable for a year', async () => {
    const { ms, response, body } = await timedScript(s);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/javascript');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(body).toContain('powerBiSimulacao');
    expect(ms).toBeLessThan(250);
    // Any other version of it is not there.
    expect((await fetch(`${s.authorityHost}/reportEmbed/scripts/relatorio.0000000000000000.js`)).status).toBe(404);
  });

  it('answers after the delay given at the start or set later; reset puts back the starting one', async () => {
    expect((await timedScript(slow)).ms).toBeGreaterThanOrEqual(290);
    slow.embedHost.setScriptDelay(0);
    expect((await timedScript(slow)).ms).toBeLessThan(250);
    slow.embedHost.reset();
    const again = await timedScript(slow);
    expect(again.ms).toBeGreaterThanOrEqual(290);
    expect(again.response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    s.embedHost.setScriptDelay(300);
    expect((await timedScript(s)).ms).toBeGreaterThanOrEqual(290);
    s.embedHost.reset();
    expect((await timedScript(s)).ms).toBeLessThan(250);
    expect(() => s.embedHost.setScriptDelay(-1)).toThrow(RangeError);
  });

  it("is what a browser test answers for Power BI's address, with its caching; the page keeps no-store", async () => {
    const script = await embedHostResponse(s.embedHostUrl, `https://app.powerbi.com${EMBED_SCRIPT_PATH}`);
    expect(script.status).toBe(200);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['content-type']).toContain('text/javascript');
    expect(script.body).toContain('powerBiSimulacao');
    const page = await embedHostResponse(
      s.embedHostUrl,
      `https://app.powerbi.com/reportEmbed?reportId=${vendas.reportId}`,
    );
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain(`"reportId":"${vendas.reportId}"`);
    expect([
      isEmbedHostPath('/reportEmbed'),
      isEmbedHostPath(EMBED_SCRIPT_PATH),
      isEmbedHostPath('/reportEmbedX'),
    ]).toEqual([true, true, false]);
  });
});

/** The host page's helpers: embed with the real powerbi-client and record the events, as the viewer will. */
const HOST_SCRIPT = `
window.eventos = {};
window.embutir = (id, accessToken, embedUrl, reportId, extra) => {
  const { models } = window['powerbi-client'];
  const report = window.powerbi.embed(document.getElementById(id), {
    type: 'report',
    tokenType: models.TokenType.Embed,
    accessToken,
    embedUrl,
    id: reportId,
    settings: { panes: { filters: { visible: true }, pageNavigation: { visible: false } }, background: models.BackgroundType.Transparent },
    ...extra,
  });
  const eventos = (window.eventos[id] = []);
  for (const name of ['loaded', 'rendered', 'error', 'pageChanged', 'saved']) {
    report.on(name, (event) => {
      const detail = name === 'pageChanged'
        ? { newPage: { name: event.detail.newPage.name, displayName: event.detail.newPage.displayName } }
        : event.detail;
      eventos.push({ name, detail });
    });
  }
};
// powerbi.bootstrap(): Power BI's page in the element before there is a token, in a locale (localeSettings).
window.iniciar = (id, locale) => {
  window.powerbi.bootstrap(document.getElementById(id), {
    type: 'report',
    hostname: 'https://app.powerbi.com',
    settings: { localeSettings: { language: locale, formatLocale: locale } },
  });
};
window.relatorio = (id) => window.powerbi.get(document.getElementById(id));
window.paginas = async (id) =>
  (await window.relatorio(id).getPages()).map(({ name, displayName, isActive, visibility }) => ({ name, displayName, isActive, visibility }));
window.visuais = async (id) =>
  (await (await window.relatorio(id).getActivePage()).getVisuals()).map(({ name, title, type, layout }) => ({ name, title, type, layout }));
window.exportar = async (id, visual, tipo, linhas) => {
  const pagina = await window.relatorio(id).getActivePage();
  const alvo = (await pagina.getVisuals()).find((each) => each.name === visual);
  return alvo.exportData(tipo, linhas).then((result) => ({ ok: true, data: result.data }), (error) => ({ ok: false, error }));
};
window.resultado = (promise) => promise.then(() => ({ ok: true }), (error) => ({ ok: false, error }));
`;

const HOST_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Portal</title></head>
<body style="margin:0;display:flex;flex-wrap:wrap;gap:4px">
${['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q'].map((id) => `<div id="${id}" style="width:520px;height:320px"></div>`).join('')}
</body></html>`;

interface RecordedEvent {
  name: string;
  detail: any;
}

describe('embed host page with the real powerbi-client', () => {
  let s: StandIns;
  /** Same reports, embed tokens that live 3 s: for expiry. */
  let short: StandIns;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let vendasUrl: string;
  let financeiroUrl: string;

  beforeAll(async () => {
    [s, short] = await Promise.all([
      // The reports' capacity in Azure, for the load that fails while it is paused.
      startStandIns({
        people: [],
        reports,
        capacities: [{ subscriptionId: 's', resourceGroup: 'g', name: 'paineisa1', kind: 'embedded', sku: 'A1' }],
      }),
      startStandIns({ people: [], reports, embedTokenLifetimeSeconds: 3 }),
    ]);
    [vendasUrl, financeiroUrl] = await Promise.all([embedUrlOf(s, vendas), embedUrlOf(s, financeiro)]);
    browser = await chromium.launch(chromiumLaunchOptions());
    context = await browser.newContext({ viewport: { width: 1600, height: 700 } });
    context.setDefaultTimeout(8000);
    // powerbi-client only embeds Power BI addresses: the real one is answered by the stand-in's page.
    // Nothing leaves the machine (routes registered later take precedence over this one).
    await context.route('**/*', (route) => route.abort());
    await context.route(
      (url) => url.origin === 'https://app.powerbi.com' && isEmbedHostPath(url.pathname),
      async (route) => route.fulfill(await embedHostResponse(s.embedHostUrl, route.request().url())),
    );
    await context.route('https://portal.example/**', (route) =>
      route.fulfill({ contentType: 'text/html; charset=utf-8', body: HOST_PAGE }),
    );
    page = await context.newPage();
    await page.goto('https://portal.example/');
    const require = createRequire(import.meta.url);
    await page.addScriptTag({ path: require.resolve('powerbi-client/dist/powerbi.min.js') });
    await page.addScriptTag({ content: HOST_SCRIPT });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([s?.close(), short?.close()]);
  });

  const embed = (id: string, token: string, embedUrl: string, reportId: string, extra: object = {}) =>
    page.evaluate(([id, token, url, reportId, extra]) => (globalThis as any).embutir(id, token, url, reportId, extra), [
      id,
      token,
      embedUrl,
      reportId,
      extra,
    ] as const);

  const events = (id: string): Promise<RecordedEvent[]> => page.evaluate((id) => (globalThis as any).eventos[id], id);

  async function waitForEvent(id: string, name: string, count = 1): Promise<RecordedEvent> {
    await page.waitForFunction(
      ([id, name, count]) =>
        ((globalThis as any).eventos[id] ?? []).filter((event: RecordedEvent) => event.name === name).length >= count,
      [id, name, count] as const,
    );
    return (await events(id)).filter((event) => event.name === name)[count - 1]!;
  }

  const pages = (id: string) => page.evaluate((id) => (globalThis as any).paginas(id), id);
  const call = (id: string, method: 'setPage' | 'setAccessToken' | 'updateSettings', argument: unknown) =>
    page.evaluate(
      ([id, method, argument]) => (globalThis as any).resultado((globalThis as any).relatorio(id)[method](argument)),
      [id, method, argument] as const,
    );

  async function reportFrame(id: string): Promise<Frame> {
    const frame = await (await page.locator(`#${id} iframe`).elementHandle())?.contentFrame();
    if (!frame) throw new Error(`no report frame in #${id}`);
    return frame;
  }

  const visibleTitle = (frame: Frame) => frame.locator('section:not([hidden]) h1').textContent();

  it('loads, renders, lists the pages with visibility and switches pages', async () => {
    const token = await embedToken(s, vendas);
    await embed('a', token, vendasUrl, vendas.reportId);
    await waitForEvent('a', 'loaded');
    await waitForEvent('a', 'rendered');
    expect((await events('a')).some((event) => event.name === 'error')).toBe(false);

    const expected = pagesOf(vendas);
    expect(await pages('a')).toEqual(
      expected.map((reportPage, index) => ({
        name: reportPage.name,
        displayName: reportPage.displayName,
        isActive: index === 0,
        visibility: reportPage.visibility,
      })),
    );
    const frame = await reportFrame('a');
    expect(await visibleTitle(frame)).toBe('Visão geral — Vendas');
    expect(await frame.locator('#identidade').isHidden()).toBe(true);
    expect(await frame.locator('#filtros').isVisible()).toBe(true);
    expect(await frame.locator('#abas').isHidden()).toBe(true);
    expect(await frame.locator('html').getAttribute('class')).toBe('transparente');
    // Its script came from Power BI's address and ran (the CSP allowed it).
    expect(await frame.locator('html').getAttribute('data-scripts')).toBe('carregados');

    expect(await call('a', 'setPage', expected[1]!.name)).toEqual({ ok: true });
    const changed = await waitForEvent('a', 'pageChanged');
    expect(changed.detail).toEqual({ newPage: { name: expected[1]!.name, displayName: 'Detalhes' } });
    expect(await visibleTitle(frame)).toBe('Detalhes — Vendas');
    expect((await pages('a')).find((reportPage: any) => reportPage.isActive).name).toBe(expected[1]!.name);

    expect(await call('a', 'updateSettings', { panes: { pageNavigation: { visible: true } } })).toEqual({ ok: true });
    expect(await frame.locator('#abas').isVisible()).toBe(true);
    await frame.getByRole('button', { name: 'Tendências' }).click();
    expect((await waitForEvent('a', 'pageChanged', 2)).detail.newPage.name).toBe(expected[2]!.name);
    expect(await visibleTitle(frame)).toBe('Tendências — Vendas');

    const missing = await call('a', 'setPage', 'ReportSectionQueNaoExiste');
    expect(missing).toMatchObject({ ok: false, error: { message: 'PageNotFound' } });
  }, 20_000);

  const visuals = (id: string) => page.evaluate((id) => (globalThis as any).visuais(id), id);
  const exportData = (id: string, visual: string, kind: number, rows?: number) =>
    page.evaluate(([id, visual, kind, rows]) => (globalThis as any).exportar(id, visual, kind, rows), [
      id,
      visual,
      kind,
      rows,
    ] as const);

  it('lists the visuals of the active page and exports their data as CSV, each identity only its own rows', async () => {
    const seller = await embedToken(s, financeiro, ['Vendedor']);
    await embed('l', seller, financeiroUrl, financeiro.reportId);
    await embed('m', await embedToken(s, financeiro, ['Diretoria']), financeiroUrl, financeiro.reportId);
    await Promise.all([waitForEvent('l', 'rendered'), waitForEvent('m', 'rendered')]);

    const listed = await visuals('l');
    expect(listed.map(({ name, title, type }: any) => ({ name, title, type }))).toEqual(VISUAIS);
    expect(listed[0].layout).toMatchObject({ displayState: { mode: 0 } });

    // Ana's rows are those of the region her username maps to; 'Diretoria' sees them all.
    const pageName = pagesOf(financeiro)[0]!.name;
    const region = rlsRegion({ username: ANA, roles: ['Vendedor'] })!;
    const own = visibleRows(pageName, 60, region);
    const all = visibleRows(pageName, 60, null);
    expect(own.length).toBe(12);
    expect(all.length).toBe(60);
    const underlying = await exportData('l', 'graficoVendasMes', 1);
    expect(underlying).toEqual({ ok: true, data: exportVisualCsv('graficoVendasMes', 1, own, EXPORT_DATA_MAX_ROWS) });
    expect(underlying.data.split('\r\n')[0]).toBe('Mês,Região,Vendedor,Pedidos,Unidades,Receita,Custo');
    expect(
      underlying.data
        .trim()
        .split('\r\n')
        .slice(1)
        .every((line: string) => line.includes(`,${region},`)),
    ).toBe(true);
    const director = await exportData('m', 'graficoVendasMes', 1);
    expect(director).toEqual({ ok: true, data: exportVisualCsv('graficoVendasMes', 1, all, EXPORT_DATA_MAX_ROWS) });
    expect(director.data).not.toBe(underlying.data);

    // Summarized: grouped as the card shows it, in pt-BR as Power BI writes it.
    const revenue = await exportData('l', 'cartaoReceita', 0);
    const total = own.reduce((sum, row) => sum + row.receita, 0);
    expect(revenue).toEqual({ ok: true, data: `Receita\r\n${formatos.money.format(total)}\r\n` });
    expect(revenue.data).toMatch(/R\$\s\d{1,3}(\.\d{3})+/);
    expect(await exportData('l', 'cartaoMargem', 0)).toEqual({
      ok: true,
      data: exportVisualCsv('cartaoMargem', 0, own, EXPORT_DATA_MAX_ROWS),
    });
    // `rows` caps the rows.
    expect((await exportData('m', 'graficoVendasMes', 1, 5)).data.trim().split('\r\n')).toHaveLength(6);

    // Power BI exports nothing from custom or R visuals.
    for (const name of ['visualMapaCalor', 'visualPrevisaoR']) {
      expect(await exportData('l', name, 0)).toMatchObject({ ok: false, error: { message: 'ExportDataFailed' } });
    }
  }, 20_000);

  it('exports one visual at a time per report, at most 30,000 rows, and refuses when the setting is off', async () => {
    const [grandeUrl, semUrl] = await Promise.all([embedUrlOf(s, grande), embedUrlOf(s, semExportacao)]);
    await embed('n', await embedToken(s, grande), grandeUrl, grande.reportId);
    await embed('o', await embedToken(s, semExportacao), semUrl, semExportacao.reportId);
    await Promise.all([waitForEvent('n', 'rendered'), waitForEvent('o', 'rendered')]);

    const [first, second] = await Promise.all([
      exportData('n', 'graficoVendasMes', 1),
      exportData('n', 'cartaoReceita', 1),
    ]);
    expect(first.ok).toBe(true);
    expect(first.data.trim().split('\r\n')).toHaveLength(EXPORT_DATA_MAX_ROWS + 1);
    expect(second).toMatchObject({ ok: false, error: { message: 'ExportDataFailed', errorCode: '429' } });
    // Asking for more changes nothing.
    expect((await exportData('n', 'graficoVendasMes', 1, 40_000)).data.trim().split('\r\n')).toHaveLength(
      EXPORT_DATA_MAX_ROWS + 1,
    );

    expect(await exportData('o', 'cartaoReceita', 0)).toMatchObject({
      ok: false,
      error: { message: 'ExportDataFailed', errorCode: '403' },
    });
  }, 30_000);

  it('shows the effective identity and roles of an RLS token', async () => {
    await embed('b', await embedToken(s, financeiro, ['Vendedor', 'Gerente']), financeiroUrl, financeiro.reportId);
    await waitForEvent('b', 'loaded');
    const frame = await reportFrame('b');
    expect(await visibleTitle(frame)).toBe('Resumo — Financeiro <&>');
    const banner = frame.locator('#identidade');
    expect(await banner.isVisible()).toBe(true);
    expect(await frame.locator('#identidade-usuario').textContent()).toBe(`Identidade: ${ANA}`);
    expect(await frame.locator('#identidade-papeis').textContent()).toBe('Papéis: Vendedor, Gerente');
  }, 20_000);

  it("fires LoadReportFailed for a token that does not cover the report, or that isn't an embed token", async () => {
    await embed('c', await embedToken(s, vendas), financeiroUrl, financeiro.reportId);
    const failed = await waitForEvent('c', 'error');
    expect(failed.detail).toMatchObject({ message: 'LoadReportFailed', errorCode: '403', level: 6 });
    expect((await events('c')).some((event) => event.name === 'loaded')).toBe(false);
    expect(await call('c', 'setAccessToken', 'nao-e-um-jwt')).toMatchObject({
      ok: false,
      error: { message: 'LoadReportFailed' },
    });
    expect(await (await reportFrame('c')).locator('#erro').isVisible()).toBe(true);
  }, 20_000);

  it('fails to load (OpenConnectionError) a report whose capacity was paused after its token was issued', async () => {
    const token = await embedToken(s, vendas);
    s.capacities.pause('paineisa1');
    try {
      await embed('k', token, vendasUrl, vendas.reportId);
      const failed = await waitForEvent('k', 'error');
      expect(failed.detail).toMatchObject({
        message: 'OpenConnectionError',
        detailedMessage: 'ExplorationContainer_FailedToLoadModel_DefaultDetails',
        level: 6,
      });
      expect((await events('k')).some((event) => event.name === 'loaded')).toBe(false);
      expect(await (await reportFrame('k')).locator('#erro').isVisible()).toBe(true);
    } finally {
      s.capacities.resume('paineisa1');
    }
  }, 20_000);

  it('fires TokenExpired when the token expires and recovers with setAccessToken, without reloading', async () => {
    const expiring = await embedToken(short, vendas);
    await embed('d', expiring, vendasUrl, vendas.reportId);
    await waitForEvent('d', 'loaded');
    const frame = await reportFrame('d');
    const expired = await waitForEvent('d', 'error');
    expect(expired.detail).toMatchObject({
      message: 'TokenExpired',
      detailedMessage: expect.any(String),
      errorCode: '403',
      level: 6,
    });
    expect(await frame.locator('#erro').textContent()).toContain('O token de acesso expirou');
    const navigated = new Set<Frame>();
    page.on('framenavigated', (each) => navigated.add(each));

    expect(await call('d', 'setAccessToken', await embedToken(s, vendas))).toEqual({ ok: true });
    expect(await frame.locator('#erro').isHidden()).toBe(true);
    expect(await visibleTitle(frame)).toBe('Visão geral — Vendas');
    expect((await pages('d')).length).toBe(4);
    expect(navigated.has(frame)).toBe(false);

    // An already expired token fails the load with TokenExpired; a fresh one completes it in place.
    await embed('e', expiring, vendasUrl, vendas.reportId);
    const atLoad = await waitForEvent('e', 'error');
    const frameE = await reportFrame('e');
    navigated.clear();
    expect(atLoad.detail).toMatchObject({ message: 'TokenExpired' });
    expect((await events('e')).some((event) => event.name === 'loaded')).toBe(false);
    const expiredAgain = await call('e', 'setAccessToken', expiring);
    expect(expiredAgain).toMatchObject({ ok: false, error: { message: 'TokenExpired' } });
    expect(await call('e', 'setAccessToken', await embedToken(s, vendas))).toEqual({ ok: true });
    await waitForEvent('e', 'loaded');
    await waitForEvent('e', 'rendered');
    expect(await visibleTitle(frameE)).toBe('Visão geral — Vendas');
    expect(navigated.has(frame) || navigated.has(frameE)).toBe(false);
  }, 20_000);

  /** A method of the report's bookmarksManager (or the report itself), through the real powerbi-client. */
  const bookmarks = (id: string, method: string, argument?: unknown) =>
    page.evaluate(
      ([id, method, argument]) => {
        const report = (globalThis as any).relatorio(id);
        const target = method === 'print' ? report : report.bookmarksManager;
        return target[method](argument).then(
          (value: any) => ({ ok: true, value: value && 'body' in value ? undefined : value }),
          (error: any) => ({ ok: false, error }),
        );
      },
      [id, method, argument] as const,
    );

  /** The text with its spaces (Intl writes a no-break space after R$) made plain. */
  const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ');

  it('captures page and slicer in a bookmark; applyState restores both after they changed', async () => {
    const expected = pagesOf(vendas);
    await embed('f', await embedToken(s, vendas), vendasUrl, vendas.reportId);
    await waitForEvent('f', 'loaded');
    const frame = await reportFrame('f');
    const revenue = (pageName: string) =>
      frame.locator(`section[data-pagina="${pageName}"] [data-kpi=receita] strong`).textContent();
    expect(await frame.locator('#regiao-atual').textContent()).toBe('Região: Todas');
    expect(await frame.getByLabel('Região').inputValue()).toBe('Todas');

    expect(await call('f', 'setPage', expected[1]!.name)).toEqual({ ok: true });
    await waitForEvent('f', 'pageChanged');
    await frame.getByLabel('Região').selectOption('Sul');
    expect(await frame.locator('#regiao-atual').textContent()).toBe('Região: Sul');
    // The figures are the region's share, the same numbers an export with this state prints.
    const sul = formatos.money.format(regionFigures(expected[1]!.name, 'Sul').revenue);
    expect(plain(await revenue(expected[1]!.name))).toBe(plain(sul));

    const captured = await bookmarks('f', 'capture');
    expect(captured).toMatchObject({
      ok: true,
      value: { name: expect.stringMatching(/^Bookmark/), displayName: expect.any(String), state: expect.any(String) },
    });
    const state = captured.value.state as string;
    // Written as report-state.ts writes it, so the API can hand it to ExportTo as the default bookmark.
    expect(state).toBe(encodeReportState({ pagina: expected[1]!.name, regiao: 'Sul' }));
    expect(
      decodeReportState(
        state,
        expected.map((each) => each.name),
      ),
    ).toEqual({
      pagina: expected[1]!.name,
      regiao: 'Sul',
    });

    await frame.getByLabel('Região').selectOption('Norte');
    expect(await call('f', 'setPage', expected[2]!.name)).toEqual({ ok: true });
    await waitForEvent('f', 'pageChanged', 2);
    expect(await visibleTitle(frame)).toBe('Tendências — Vendas');
    expect(plain(await revenue(expected[1]!.name))).not.toBe(plain(sul));

    expect(await bookmarks('f', 'applyState', state)).toMatchObject({ ok: true });
    const restored = await waitForEvent('f', 'pageChanged', 3);
    expect(restored.detail.newPage.name).toBe(expected[1]!.name);
    expect(await visibleTitle(frame)).toBe('Detalhes — Vendas');
    expect(await frame.locator('#regiao-atual').textContent()).toBe('Região: Sul');
    expect(await frame.getByLabel('Região').inputValue()).toBe('Sul');
    expect(plain(await revenue(expected[1]!.name))).toBe(plain(sul));
    expect((await pages('f')).find((reportPage: any) => reportPage.isActive).name).toBe(expected[1]!.name);

    expect(await bookmarks('f', 'getBookmarks')).toEqual({ ok: true, value: [] });
  }, 20_000);

  it('refuses states it cannot read and bookmarks by name with 400 errors, and prints on request', async () => {
    // 'f' is loaded by the test before.
    for (const garbage of [
      'lixo!',
      'H4sIAAAAAAAEAKtWKkktLlGyUlAqS8wpTVWqBQA',
      encodeReportState({ pagina: 'ReportSectionQueNaoExiste', regiao: 'Sul' }),
      Buffer.from(JSON.stringify({ v: 1, pagina: pagesOf(vendas)[0]!.name, regiao: 'Marte' })).toString('base64'),
    ]) {
      expect(await bookmarks('f', 'applyState', garbage)).toMatchObject({
        ok: false,
        error: { message: 'InvalidBookmarkState', errorCode: '400', level: 6 },
      });
    }
    expect(await bookmarks('f', 'apply', 'Bookmark1')).toMatchObject({
      ok: false,
      error: { message: 'BookmarkNotFound', errorCode: '400' },
    });

    const frame = await reportFrame('f');
    expect(await frame.locator('html').getAttribute('data-impressoes')).toBeNull();
    expect(await bookmarks('f', 'print')).toMatchObject({ ok: true });
    await frame.locator('html[data-impressoes="1"]').waitFor({ state: 'attached' });
    expect(await bookmarks('f', 'print')).toMatchObject({ ok: true });
    await frame.locator('html[data-impressoes="2"]').waitFor({ state: 'attached' });
  }, 20_000);

  /** report.save() or report.saveAs(parameters) through the real powerbi-client. */
  const saving = (id: string, method: 'save' | 'saveAs', parameters?: object) =>
    page.evaluate(
      ([id, method, parameters]) =>
        (globalThis as any).resultado(
          method === 'save'
            ? (globalThis as any).relatorio(id).save()
            : (globalThis as any).relatorio(id).saveAs(parameters),
        ),
      [id, method, parameters] as const,
    );

  it("refuses save and saveAs with a token made the portal's way, which only views", async () => {
    await embed('h', await embedToken(s, financeiro, ['Vendedor']), financeiroUrl, financeiro.reportId);
    await waitForEvent('h', 'loaded');
    expect(await saving('h', 'save')).toMatchObject({
      ok: false,
      error: { message: 'SaveReportFailed', errorCode: '403', level: 6 },
    });
    for (const parameters of [{ name: 'Cópia' }, { name: 'Cópia', targetWorkspaceId: WORKSPACE }]) {
      expect(await saving('h', 'saveAs', parameters)).toMatchObject({
        ok: false,
        error: { message: 'SaveAsReportFailed', errorCode: '403', level: 6 },
      });
    }
    expect((await events('h')).some((event) => event.name === 'saved')).toBe(false);
  }, 20_000);

  it('saves as granted: a copy only into the targetWorkspaces, the report itself only with allowEdit', async () => {
    const copies = await embedToken(s, vendas, undefined, { targetWorkspaces: [WORKSPACE] });
    await embed('i', copies, vendasUrl, vendas.reportId);
    await waitForEvent('i', 'loaded');
    expect(await saving('i', 'saveAs', { name: 'Cópia de Vendas' })).toEqual({ ok: true });
    expect((await waitForEvent('i', 'saved')).detail).toMatchObject({ reportName: 'Cópia de Vendas', saveAs: true });
    expect(await saving('i', 'saveAs', { name: 'Cópia', targetWorkspaceId: WORKSPACE.toUpperCase() })).toEqual({
      ok: true,
    });
    expect(
      await saving('i', 'saveAs', { name: 'Cópia', targetWorkspaceId: 'aaaaaaaa-0000-4000-8000-00000000ffff' }),
    ).toMatchObject({ ok: false, error: { message: 'SaveAsReportFailed' } });
    // Where a copy may go says nothing of editing the report itself.
    expect(await saving('i', 'save')).toMatchObject({ ok: false, error: { message: 'SaveReportFailed' } });

    await embed('j', await embedToken(s, vendas, undefined, { allowEdit: true }), vendasUrl, vendas.reportId);
    await waitForEvent('j', 'loaded');
    expect(await saving('j', 'save')).toEqual({ ok: true });
    expect((await waitForEvent('j', 'saved')).detail).toEqual({
      reportObjectId: vendas.reportId,
      reportName: 'Vendas',
      saveAs: false,
    });
    expect(await saving('j', 'saveAs', { name: 'Cópia' })).toMatchObject({ ok: false });
  }, 20_000);

  it('opens on the page and region of the bookmark in the load configuration', async () => {
    const expected = pagesOf(vendas);
    const state = encodeReportState({ pagina: expected[2]!.name, regiao: 'Nordeste' });
    await embed('g', await embedToken(s, vendas), vendasUrl, vendas.reportId, { bookmark: { state } });
    await waitForEvent('g', 'loaded');
    const frame = await reportFrame('g');
    expect(await visibleTitle(frame)).toBe('Tendências — Vendas');
    expect(await frame.locator('#regiao-atual').textContent()).toBe('Região: Nordeste');
    const orders = formatos.whole.format(regionFigures(expected[2]!.name, 'Nordeste').orders);
    expect(plain(await frame.locator('section:not([hidden]) [data-kpi=pedidos] strong').textContent())).toBe(
      plain(orders),
    );
  }, 20_000);

  it("opens the load's report in a page bootstrapped without one, with the numbers of the bootstrap's locale", async () => {
    const bootstrap = (id: string, locale: string) =>
      page.evaluate(([id, locale]) => (globalThis as any).iniciar(id, locale), [id, locale] as const);
    const revenue = (frame: Frame) => frame.locator('section:not([hidden]) [data-kpi=receita] strong').textContent();

    await bootstrap('p', 'en-US');
    await bootstrap('q', 'pt-BR');
    // Bootstrapped: Power BI's page is there, with no report, waiting for the configuration.
    await expect.poll(async () => (await reportFrame('p')).url()).toContain('language=en-US');
    expect((await reportFrame('p')).url()).not.toContain('reportId=');

    await embed('p', await embedToken(s, vendas), vendasUrl, vendas.reportId);
    await embed('q', await embedToken(s, vendas), vendasUrl, vendas.reportId);
    await waitForEvent('p', 'loaded');
    await waitForEvent('q', 'loaded');
    expect((await events('p')).some((event) => event.name === 'error')).toBe(false);
    const english = await reportFrame('p');
    expect(english.url()).toContain(`reportId=${vendas.reportId}`);
    expect(await english.locator('html').getAttribute('lang')).toBe('en-US');
    expect(await visibleTitle(english)).toBe('Visão geral — Vendas');
    const figure = regionFigures(pagesOf(vendas)[0]!.name, 'Todas').revenue;
    // The same figure, grouped as each locale writes it: 1,234,567 and 1.234.567.
    expect(plain(await revenue(english))).toBe(
      plain(
        new Intl.NumberFormat('en-US', { style: 'currency', currency: 'BRL', maximumFractionDigits: 0 }).format(figure),
      ),
    );
    expect(plain(await revenue(await reportFrame('q')))).toBe(plain(formatos.money.format(figure)));
    expect(await pages('p')).toHaveLength(pagesOf(vendas).length);
  }, 20_000);
});
