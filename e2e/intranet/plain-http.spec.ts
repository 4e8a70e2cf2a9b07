import { expect, test } from '../fixtures.ts';
import { expectNotBlank, upgrades, watchNetwork } from './network.ts';

// The portal on a plain-HTTP intranet name: Chromium maps paineis.intranet to 127.0.0.1 (playwright.config.ts, project
// `intranet`) and opens http://paineis.intranet:<port> of the demo server. With HSTS or the CSP's
// upgrade-insecure-requests over plain HTTP the browser would fetch every asset over https and show a blank page.

test('on http://paineis.intranet a person signs in with Microsoft, sees the panels and opens a report', async ({
  page,
  baseURL,
}, testInfo) => {
  const origin = new URL(baseURL!).origin;
  expect(origin).toMatch(/^http:\/\/paineis\.intranet:\d+$/);
  const network = watchNetwork(page);

  await page.goto('/');
  await expect(page).toHaveURL(`${origin}/login`);
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();

  // The Microsoft sign-in returns to the name the browser used, over http.
  const authorize = page.waitForRequest((request) => request.url().includes('/oauth2/v2.0/authorize'));
  await page.getByRole('button', { name: 'Entrar com Microsoft' }).click();
  const authorizeUrl = new URL((await authorize).url());
  expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${origin}/api/auth/microsoft-callback`);
  await page.getByRole('button', { name: /Ana Demonstração/ }).click();
  await page.waitForURL(`${origin}/`);
  await expect(page.getByRole('button', { name: 'Ana Demonstração' })).toBeVisible();

  await expect(page.getByRole('heading', { name: 'Painéis Power BI' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Visualizar painel / }).first()).toBeVisible();
  expect(await page.getByRole('link', { name: /^Visualizar painel / }).count()).toBeGreaterThan(1);
  await expectNotBlank(page, testInfo, 'intranet-http.png');

  await page.getByRole('link', { name: 'Visualizar painel Vendas por Região' }).click();
  await expect(page).toHaveURL((url) => url.origin === origin && /^\/visualizar\/\d+$/.test(url.pathname));
  await expect(page.getByRole('heading', { name: 'Vendas por Região' })).toBeVisible();
  await expect(page.frameLocator('iframe').locator('section:not([hidden]) h1')).toHaveText(
    'Visão geral — Vendas por Região',
  );
  const pages = page.getByRole('navigation', { name: 'Páginas do relatório' });
  await expect(pages.getByRole('button')).toHaveText(['Visão geral', 'Detalhes', 'Tendências']);
  await expectNotBlank(page, testInfo, 'intranet-http-relatorio.png');

  const answers = await network.answers();
  const fromPortal = answers.filter((answer) => answer.url.startsWith(`${origin}/`));
  // The page, its script and stylesheet, the API's answers and the sign-in's redirects all came from the portal.
  expect(fromPortal.length).toBeGreaterThan(5);
  expect(
    answers.filter((answer) => answer.hsts.length > 0 || upgrades(answer)).map((answer) => answer.url),
    'respostas com HSTS ou upgrade-insecure-requests por HTTP',
  ).toEqual([]);
  expect(network.failed, 'pedidos que falharam').toEqual([]);
});
