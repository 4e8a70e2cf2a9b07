import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { pagesOf } from '@paineis/microsoft-stand-ins/power-bi-common';
import { DEMO_USER } from '../../apps/api/src/demo/demo-data.ts';
import { expect, signInAs, test } from '../fixtures.ts';
import { expectPrintAndFullScreen } from '../viewer-actions.ts';
import { demoReport, REPORT_EMBED, routePowerBi, setUpPanels, VENDAS, VENDAS_PANEL } from './setup.ts';

// The personal features on the portal configured for Microsoft (project `microsoft`): saved views captured and applied through the
// real powerbi-client's bookmarksManager, a shared view's link refused to a person without access, and an export of
// the RLS panel carrying the person's identity. https://app.powerbi.com/reportEmbed is answered by the stand-in's
// embed host page, as in viewer.spec.ts; Power BI's REST API (embed tokens, export jobs) is the stand-in's.

// One of the people the stand-in's sign-in page offers; never linked to the panel here.
const NO_ACCESS = 'Daniel Fernandes Teixeira';

const report = demoReport(VENDAS);
const PAGES = Object.fromEntries(pagesOf(report).map((page) => [page.displayName, page.name]));

let panelId = 0;

// Ana, an admin through her Entra app role, reads the directory from Graph and creates the panel (or puts it back as
// it should be, with export allowed), linked to Bruno only.
test.beforeAll(async ({ browser, playwright }, testInfo) => {
  const ids = await setUpPanels(browser, playwright, testInfo.project.use.baseURL!, [
    { ...VENDAS_PANEL, permiteExportacao: true },
  ]);
  panelId = ids.get(VENDAS)!;
});

test.beforeEach(async ({ context }) => {
  await routePowerBi(context);
});

const viewerOf = (page: Page) => {
  const report = page.frameLocator('.report-frame iframe');
  return {
    sidebar: page.getByRole('navigation', { name: 'Páginas do relatório' }),
    report,
    title: report.locator('section:not([hidden]) h1'),
    region: report.locator('#regiao-atual'),
  };
};

test("through powerbi-client: '?pagina=' opens that page, 'Imprimir' prints the report and 'Tela cheia' fills the screen", async ({
  page,
}) => {
  await signInAs(page, 'Bruno Demonstração');
  // The address of a page, opened directly: powerbi-client embeds the report on it.
  await page.goto(`/visualizar/${panelId}?pagina=${PAGES['Tendências']}`);
  const { sidebar, title } = viewerOf(page);
  await expect(page.locator('.report-frame iframe')).toHaveAttribute('src', new RegExp(`^${REPORT_EMBED}\\?`));
  await expect(title).toHaveText(`Tendências — ${VENDAS}`);
  await expect(sidebar.getByRole('button', { name: 'Tendências' })).toHaveAttribute('aria-current', 'page');
  // Another page chosen in the portal: the address follows.
  await sidebar.getByRole('button', { name: 'Detalhes' }).click();
  await expect(title).toHaveText(`Detalhes — ${VENDAS}`);
  await expect(page).toHaveURL(new RegExp(`\\?pagina=${PAGES['Detalhes']}$`));

  // report.print() posts /report/print to the embed page; report.fullscreen() asks the browser for full screen.
  await expectPrintAndFullScreen(page);
});

test("a saved view through powerbi-client's bookmarks: slicer and page restored; its link refused to a person without access", async ({
  page,
  browser,
}, testInfo) => {
  const name = 'Sul — detalhes (Power BI)';
  await signInAs(page, 'Bruno Demonstração');
  await page.goto(`/visualizar/${panelId}`);
  const { sidebar, report, title, region } = viewerOf(page);
  // The real library: its iframe on Power BI's address.
  await expect(page.locator('.report-frame iframe')).toHaveAttribute('src', new RegExp(`^${REPORT_EMBED}\\?`));
  await expect(title).toHaveText(`Visão geral — ${VENDAS}`);

  await report.getByLabel('Região').selectOption('Sul');
  await expect(region).toHaveText('Região: Sul');
  await sidebar.getByRole('button', { name: 'Detalhes' }).click();
  await expect(title).toHaveText(`Detalhes — ${VENDAS}`);
  await expect(page).toHaveURL(new RegExp(`\\?pagina=${PAGES['Detalhes']}$`));

  await page.getByRole('button', { name: 'Salvar visão' }).click();
  const save = page.getByRole('dialog', { name: 'Salvar visão' });
  await save.getByLabel('Nome da visão').fill(name);
  await save.getByRole('button', { name: 'Salvar' }).click();
  await expect(save).toBeHidden();

  await page.goto(`/visualizar/${panelId}`);
  await expect(title).toHaveText(`Visão geral — ${VENDAS}`);
  await expect(region).toHaveText('Região: Todas');

  await page.getByRole('button', { name: 'Visões' }).click();
  await page.getByRole('group', { name }).getByRole('button', { name }).click();
  await expect(region).toHaveText('Região: Sul');
  await expect(title).toHaveText(`Detalhes — ${VENDAS}`);
  await expect(sidebar.getByRole('button', { name: 'Detalhes' })).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveURL(/[?&]visao=[0-9a-f-]{36}/);
  const shared = `/visualizar/${panelId}?visao=${new URL(page.url()).searchParams.get('visao')}`;

  // Opened by link afresh: the view is applied on the newly embedded report.
  await page.goto(shared);
  await expect(region).toHaveText('Região: Sul');
  await expect(title).toHaveText(`Detalhes — ${VENDAS}`);

  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL! });
  try {
    await routePowerBi(context);
    const outsider = await context.newPage();
    await signInAs(outsider, NO_ACCESS);
    await outsider.goto(shared);
    await expect(outsider.getByRole('heading', { name: 'Painel não encontrado' })).toBeVisible();
    await expect(outsider.locator('iframe')).toHaveCount(0);
  } finally {
    await context.close();
  }

  await page.getByRole('button', { name: 'Visões' }).click();
  await page.getByRole('group', { name }).getByRole('button', { name: 'Excluir' }).click();
  const confirm = page.getByRole('dialog', { name: 'Excluir visão' });
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(confirm).toBeHidden();
  await page.getByRole('button', { name: 'Visões' }).click();
  await expect(page.getByText('Nenhuma visão salva.')).toBeVisible();
});

test("a panel view ('Visão do painel') saved by an administrator: a person applies it from 'Visões' and by its link, through powerbi-client", async ({
  page,
  browser,
}, testInfo) => {
  const name = 'Norte — tendências (do painel)';
  // Ana, an administrator, saves the report's state as a view of the panel.
  await signInAs(page, 'Ana Demonstração');
  await page.goto(`/visualizar/${panelId}`);
  const admin = viewerOf(page);
  await expect(admin.title).toHaveText(`Visão geral — ${VENDAS}`);
  await admin.report.getByLabel('Região').selectOption('Norte');
  await expect(admin.region).toHaveText('Região: Norte');
  await admin.sidebar.getByRole('button', { name: 'Tendências' }).click();
  await expect(admin.title).toHaveText(`Tendências — ${VENDAS}`);
  await page.getByRole('button', { name: 'Salvar visão' }).click();
  const save = page.getByRole('dialog', { name: 'Salvar visão' });
  await save.getByLabel('Nome da visão').fill(name);
  await save.getByLabel('Visão do painel (todos que podem abrir o painel a veem)').check();
  await save.getByRole('button', { name: 'Salvar' }).click();
  await expect(save).toBeHidden();

  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL! });
  try {
    await routePowerBi(context);
    const bruno = await context.newPage();
    await signInAs(bruno, 'Bruno Demonstração');
    await bruno.goto(`/visualizar/${panelId}`);
    const { title, region, sidebar } = viewerOf(bruno);
    await expect(title).toHaveText(`Visão geral — ${VENDAS}`);
    await expect(region).toHaveText('Região: Todas');

    // Under 'Visões do painel', read-only: applied on Bruno's own embed.
    await bruno.getByRole('button', { name: 'Visões' }).click();
    await expect(bruno.getByRole('heading', { name: 'Visões do painel' })).toBeVisible();
    const item = bruno.getByRole('group', { name });
    await expect(item.getByRole('button', { name: 'Excluir' })).toHaveCount(0);
    await item.getByRole('button', { name }).click();
    await expect(region).toHaveText('Região: Norte');
    await expect(title).toHaveText(`Tendências — ${VENDAS}`);
    await expect(sidebar.getByRole('button', { name: 'Tendências' })).toHaveAttribute('aria-current', 'page');
    const visao = new URL(bruno.url()).searchParams.get('visao');
    expect(visao).toMatch(/^[0-9a-f-]{36}$/);

    // Its link, opened afresh.
    await bruno.goto(`/visualizar/${panelId}?visao=${visao}`);
    await expect(region).toHaveText('Região: Norte');
    await expect(title).toHaveText(`Tendências — ${VENDAS}`);
  } finally {
    await context.close();
  }

  // Ana removes it.
  await page.getByRole('button', { name: 'Visões' }).click();
  await page.getByRole('group', { name }).getByRole('button', { name: 'Excluir' }).click();
  const confirm = page.getByRole('dialog', { name: 'Excluir visão' });
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(confirm).toBeHidden();
  await page.getByRole('button', { name: 'Visões' }).click();
  await expect(page.getByRole('group', { name })).toHaveCount(0);
});

test("an export of the RLS panel carries the person's identity and roles, and the report's slicer", async ({
  page,
}) => {
  await signInAs(page, 'Bruno Demonstração');
  await page.goto(`/visualizar/${panelId}`);
  const { report, title, region } = viewerOf(page);
  await expect(title).toHaveText(`Visão geral — ${VENDAS}`);
  await report.getByLabel('Região').selectOption('Sul');
  await expect(region).toHaveText('Região: Sul');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar', exact: true }).click();
  await page.getByRole('menuitem', { name: 'PDF' }).click();
  await expect(page.getByText(/^Exportando… \d+%$/)).toBeVisible();
  const pdf = await download;
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
  const bytes = await readFile(await pdf.path());
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  expect(text).toContain(`Identidade: ${DEMO_USER.email}`);
  expect(text).toContain('Papéis: Gerente Regional');
  expect(text).toContain('Região: Sul');
  expect(text).toContain(`Página: Visão geral (${PAGES['Visão geral']})`);
});
