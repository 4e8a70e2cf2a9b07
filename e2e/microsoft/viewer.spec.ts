import type { Page } from '@playwright/test';
import type { PainelBody } from '@paineis/contract/panels';
import { DEMO_USER } from '../../apps/api/src/demo/demo-data.ts';
import { expect, signInAs, test } from '../fixtures.ts';
import { isLoopback, panelOn, REPORT_EMBED, routePowerBi, setUpPanels, VENDAS, VENDAS_PANEL } from './setup.ts';

// The portal configured for Microsoft (see playwright.config.ts, project `microsoft`): the viewer embeds with the
// real powerbi-client, which only embeds Power BI addresses. https://app.powerbi.com/reportEmbed is answered by the
// stand-in's embed host page, as in packages/microsoft-stand-ins/src/embed-host.test.ts.

const FLUXO = 'Fluxo de Caixa Mensal';

const panels: PainelBody[] = [
  VENDAS_PANEL,
  panelOn(FLUXO, { usaRls: false, classificacaoId: 0, rlsConfigurations: [] }),
];
/** Panel ids by name, on the configured server. */
const ids = new Map<string, number>();

// Once per worker (and again after a failure restarts it): Ana, an admin through her Entra app role, reads the
// directory from Graph and creates the two panels, or puts them back as they should be, and links Bruno to both.
test.beforeAll(async ({ browser, playwright }, testInfo) => {
  for (const [name, id] of await setUpPanels(browser, playwright, testInfo.project.use.baseURL!, panels)) {
    ids.set(name, id);
  }
});

let powerBi: { hits: number; bootstraps: number };

test.beforeEach(async ({ context }) => {
  powerBi = await routePowerBi(context);
});

const viewerOf = (page: Page) => ({
  sidebar: page.getByRole('navigation', { name: 'Páginas do relatório' }),
  report: page.frameLocator('.report-frame iframe'),
  loading: page.locator('.report-frame').getByRole('status').filter({ hasText: 'Carregando...' }),
});

test('a user opens an RLS panel through powerbi-client: its pages, page switching, identity and roles', async ({
  page,
}) => {
  const libraryRequests: string[] = [];
  page.on('request', (request) => {
    if (/\/assets\/[^/]*powerbi[^/]*\.js$/.test(request.url())) libraryRequests.push(request.url());
  });
  await signInAs(page, 'Bruno Demonstração');
  // powerbi-client is a chunk of its own, not among the list's scripts: once the list is idle it is fetched, and
  // powerbi.preload() loads Power BI's page hidden, so that opening a report finds both in the browser's cache.
  await expect(page.getByRole('link', { name: `Visualizar painel ${VENDAS}` })).toBeVisible();
  await expect.poll(() => libraryRequests.length).toBe(1);
  await expect.poll(() => powerBi.bootstraps).toBe(1);
  await expect(page.locator('body > iframe[src^="https://app.powerbi.com/reportEmbed"]')).toBeHidden();
  expect(powerBi.hits).toBe(0);
  await page.getByRole('link', { name: `Visualizar painel ${VENDAS}` }).click();
  await expect(page.getByRole('heading', { name: VENDAS })).toBeVisible();
  const { sidebar, report, loading } = viewerOf(page);

  // The real library: its iframe on Power BI's address, and no demo badge.
  await expect(page.locator('.report-frame iframe')).toHaveAttribute('src', new RegExp(`^${REPORT_EMBED}\\?`));
  await expect(loading).toHaveCount(0);
  await expect(sidebar.getByRole('button')).toHaveText(['Visão geral', 'Detalhes', 'Tendências']);
  await expect(sidebar.getByRole('button', { name: 'Visão geral' })).toHaveAttribute('aria-current', 'page');
  await expect(sidebar).not.toContainText('Demonstração');
  await expect(report.locator('section:not([hidden]) h1')).toHaveText(`Visão geral — ${VENDAS}`);
  expect(libraryRequests).toHaveLength(1);

  await sidebar.getByRole('button', { name: 'Detalhes' }).click();
  await expect(report.locator('section:not([hidden]) h1')).toHaveText(`Detalhes — ${VENDAS}`);
  await expect(sidebar.getByRole('button', { name: 'Detalhes' })).toHaveAttribute('aria-current', 'page');
  await expect(report.locator('#identidade-usuario')).toHaveText(`Identidade: ${DEMO_USER.email}`);
  await expect(report.locator('#identidade-papeis')).toHaveText('Papéis: Gerente Regional');
  expect(powerBi.hits).toBe(1);

  // A panel without RLS: no identity in the report.
  await page.getByRole('link', { name: /Voltar/ }).click();
  await page.getByRole('link', { name: `Visualizar painel ${FLUXO}` }).click();
  await expect(report.locator('section:not([hidden]) h1')).toHaveText(`Visão geral — ${FLUXO}`);
  await expect(loading).toHaveCount(0);
  await expect(report.locator('#identidade')).toBeHidden();
  await expect(page.getByText('Este painel utiliza Row Level Security (RLS)')).toHaveCount(0);
  expect(powerBi.hits).toBe(2);
});

test('an expired embed token is renewed in place: the report keeps its page and is not reloaded', async ({
  page,
  consoleErrors,
}) => {
  // The first renewal fails, so the stand-in's token runs out (E2E_EMBED_TOKEN_SECONDS) before the next one. Later
  // renewals wait until the test has seen the expired report, which could otherwise recover too fast to be seen.
  consoleErrors.allow(/status of 503/);
  let tokenCalls = 0;
  let release!: () => void;
  const seenExpired = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/paineis/*/token', async (route) => {
    tokenCalls += 1;
    if (tokenCalls === 1) return route.fulfill({ status: 503, json: { message: 'indisponível' } });
    await seenExpired;
    return route.continue();
  });
  await signInAs(page, 'Bruno Demonstração');
  await page.goto(`/visualizar/${ids.get(VENDAS)}`);
  const { sidebar, report, loading } = viewerOf(page);
  await expect(loading).toHaveCount(0);
  await sidebar.getByRole('button', { name: 'Detalhes' }).click();
  await expect(report.locator('section:not([hidden]) h1')).toHaveText(`Detalhes — ${VENDAS}`);

  const error = report.locator('#erro');
  const lifetime = Number(process.env.E2E_EMBED_TOKEN_SECONDS ?? 15) * 1000;
  await expect(error).toBeVisible({ timeout: lifetime + 10_000 });
  await expect(error).toContainText('O token de acesso expirou');
  // powerbi-client's TokenExpired event: the viewer asks for a new token and hands it to the live report.
  await expect.poll(() => tokenCalls).toBeGreaterThanOrEqual(2);
  release();
  await expect(error).toBeHidden();
  await expect(report.locator('section:not([hidden]) h1')).toHaveText(`Detalhes — ${VENDAS}`);
  await expect(sidebar.getByRole('button', { name: 'Detalhes' })).toHaveAttribute('aria-current', 'page');
  await expect(report.locator('#identidade-usuario')).toHaveText(`Identidade: ${DEMO_USER.email}`);
  await expect(report.locator('#identidade-papeis')).toHaveText('Papéis: Gerente Regional');
  expect(powerBi.hits).toBe(1);
});

test('the embed token is renewed before it expires, so the report never shows it expired', async ({ page }) => {
  const renewals: number[] = [];
  page.on('response', (response) => {
    if (/\/api\/paineis\/\d+\/token$/.test(new URL(response.url()).pathname)) renewals.push(response.status());
  });
  await signInAs(page, 'Bruno Demonstração');
  await page.goto(`/visualizar/${ids.get(VENDAS)}`);
  const { report, loading } = viewerOf(page);
  await expect(loading).toHaveCount(0);
  await expect(report.locator('#identidade-papeis')).toHaveText('Papéis: Gerente Regional');
  // Half-way through each token's life (15 s here); two renewals take the report past the first token's expiry.
  const lifetime = Number(process.env.E2E_EMBED_TOKEN_SECONDS ?? 15) * 1000;
  await expect.poll(() => renewals.length, { timeout: lifetime + 10_000 }).toBeGreaterThanOrEqual(2);
  expect(renewals.slice(0, 2)).toEqual([200, 200]);
  await expect(report.locator('#erro')).toBeHidden();
  await expect(report.locator('#identidade-usuario')).toHaveText(`Identidade: ${DEMO_USER.email}`);
  expect(powerBi.hits).toBe(1);
});

test('an administrator previews the RLS panel as one role: powerbi-client embeds it anew with that identity', async ({
  page,
}) => {
  await signInAs(page, 'Ana Demonstração');
  await page.goto(`/visualizar/${ids.get(VENDAS)}`);
  const { report } = viewerOf(page);
  await expect(report.locator('#identidade-papeis')).toHaveText('Papéis: Diretoria, Gerente Regional');
  await page.getByRole('combobox', { name: 'Visualizar como' }).selectOption('Diretoria');
  await expect(report.locator('#identidade-usuario')).toHaveText('Identidade: demo.admin@contoso.com.br');
  await expect(report.locator('#identidade-papeis')).toHaveText('Papéis: Diretoria');
  await expect(page.locator('.report-frame iframe')).toHaveCount(1);
  expect(powerBi.hits).toBe(2);
});

test('when powerbi-client cannot be loaded, the viewer says so', async ({ page, consoleErrors }) => {
  // The browser's line for the aborted chunk (the viewer itself logs nothing as an error).
  consoleErrors.allow(/^Failed to load resource: net::ERR_FAILED$/);
  let aborted = 0;
  await page.route(
    (url) => isLoopback(url) && /^\/assets\/[^/]*powerbi[^/]*\.js$/.test(url.pathname),
    (route) => {
      aborted += 1;
      return route.abort();
    },
  );
  await signInAs(page, 'Bruno Demonstração');
  await page.goto(`/visualizar/${ids.get(VENDAS)}`);
  await expect(page.getByRole('heading', { name: 'Erro ao carregar relatório' })).toBeVisible();
  await expect(page.getByText('Power BI não está disponível. Verifique se a biblioteca foi carregada.')).toBeVisible();
  expect(aborted).toBeGreaterThanOrEqual(1);
  expect(powerBi.hits).toBe(0);
});

test("a panel in its own language: Power BI's page loads in it, numbers as that locale writes them", async ({
  page,
  browser,
  playwright,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  await setUpPanels(browser, playwright, baseURL, [{ ...panels[1]!, idioma: 'en-US' }]);
  try {
    await signInAs(page, 'Bruno Demonstração');
    const { report } = viewerOf(page);
    const revenue = report.locator('section:not([hidden]) [data-kpi=receita] strong');
    // From the list, the bootstrap already knows the panel's language; by a deep link, the portal's (pt-BR) until the
    // panel answers, and the report is then embedded afresh in English.
    await page.getByRole('link', { name: `Visualizar painel ${FLUXO}` }).click();
    await expect(report.locator('section:not([hidden]) h1')).toHaveText(`Visão geral — ${FLUXO}`);
    await expect(report.locator('html')).toHaveAttribute('lang', 'en-US');
    await expect(revenue).toHaveText(/^R\$\d{1,3}(,\d{3})+$/);
    await page.goto(`/visualizar/${ids.get(FLUXO)}`);
    await expect(report.locator('section:not([hidden]) h1')).toHaveText(`Visão geral — ${FLUXO}`);
    await expect(report.locator('html')).toHaveAttribute('lang', 'en-US');
    await expect(revenue).toHaveText(/^R\$\d{1,3}(,\d{3})+$/);
    await expect(page.locator('.report-frame iframe')).toHaveCount(1);
  } finally {
    // idioma left out of an update keeps the panel's; null gives it the portal's again.
    await setUpPanels(browser, playwright, baseURL, [{ ...panels[1]!, idioma: null }]);
  }
  // Back to the portal's language: pt-BR groups thousands with dots.
  await page.goto(`/visualizar/${ids.get(FLUXO)}`);
  await expect(viewerOf(page).report.locator('html')).toHaveAttribute('lang', 'pt-BR');
  await expect(viewerOf(page).report.locator('section:not([hidden]) [data-kpi=receita] strong')).toHaveText(
    /^R\$\s\d{1,3}(\.\d{3})+$/,
  );
});

test('opening a panel bootstraps Power BI while the portal still waits for the panel and its embed token', async ({
  page,
}) => {
  await signInAs(page, 'Bruno Demonstração');
  await expect(page.getByRole('link', { name: `Visualizar painel ${VENDAS}` })).toBeVisible();
  // The list's preload, once idle.
  await expect.poll(() => powerBi.bootstraps).toBe(1);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/paineis\/\d+(\?.*)?$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('link', { name: `Visualizar painel ${VENDAS}` }).click();
  // The panel's answer (with its token) is held: Power BI's page is asked for meanwhile, with no report yet.
  await expect.poll(() => powerBi.bootstraps).toBe(2);
  expect(powerBi.hits).toBe(0);
  release();
  await expect(viewerOf(page).report.locator('section:not([hidden]) h1')).toHaveText(`Visão geral — ${VENDAS}`);
  expect(powerBi.hits).toBe(1);
});
