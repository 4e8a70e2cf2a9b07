import { readFile } from 'node:fs/promises';
import {
  request,
  type APIRequestContext,
  type Browser,
  type Download,
  type Locator,
  type Page,
  type TestInfo,
} from '@playwright/test';
import JSZip from 'jszip';
import { extractText, getDocumentProxy } from 'unpdf';
import type { Painel } from '@paineis/contract/panels';
import type { VisaoSalva } from '@paineis/contract/personal';
import type { UsuarioVinculado } from '@paineis/contract/users';
import { pagesOf } from '@paineis/microsoft-stand-ins/power-bi-common';
import { DEMO_USER } from '../apps/api/src/demo/demo-data.ts';
import { demoReports } from '../apps/api/src/demo/demo-directory.ts';
import { expect, signInAs, test } from './fixtures.ts';
import { expectPrintAndFullScreen } from './viewer-actions.ts';

// The personal features on the demo server: favourites, recents, links to a page, saved views, full screen, print and export.
// The journeys share the server with the others (workers: 1): what they change in the demo data they put back,
// in the journey itself and, should it stop half-way, in afterAll.

const VENDAS = 'Vendas por Região';
const SAZONALIDADE = 'Sazonalidade de Vendas';
const DEVOLUCOES = 'Devoluções e Trocas';
const CARTEIRA = 'Carteira de Clientes';
const RANKING = 'Ranking de Vendedores';
// In the demo data Bruno and Ana may open Vendas por Região; Daniel, one of the people the sign-in page offers,
// may not (the journey checks that on his list before relying on it).
const NO_ACCESS = 'Daniel Fernandes Teixeira';

/** The demo report's page names (ReportSection…), as the stand-in Power BI names them. */
function pageNamesOf(name: string): Record<string, string> {
  const report = demoReports().find((each) => each.name === name);
  if (!report) throw new Error(`o relatório '${name}' não está entre os da demonstração`);
  return Object.fromEntries(pagesOf(report).map((page) => [page.displayName, page.name]));
}
const VENDAS_PAGES = pageNamesOf(VENDAS);

const signOut = async (page: Page, person: string) => {
  await page.getByRole('button', { name: person }).click();
  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/login$/);
};

/** Another person, in a browser context of their own, signed in on '/'. */
async function openAs(browser: Browser, testInfo: TestInfo, person: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL! });
  const page = await context.newPage();
  await signInAs(page, person);
  return page;
}

/** An API client with the session a page signed in with. */
async function apiOf(page: Page, testInfo: TestInfo): Promise<APIRequestContext> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  return request.newContext({
    baseURL: testInfo.project.use.baseURL!,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
}

async function ok<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

const viewerOf = (page: Page) => ({
  sidebar: page.getByRole('navigation', { name: 'Páginas do relatório' }),
  report: page.frameLocator('.report-frame iframe'),
  title: page.frameLocator('.report-frame iframe').locator('section:not([hidden]) h1'),
  region: page.frameLocator('.report-frame iframe').locator('#regiao-atual'),
});

/** The panel's row among the classifications (not its copy under 'Favoritos'), found through the search. */
async function findRow(page: Page, name: string) {
  await page.getByRole('searchbox', { name: 'Buscar painel' }).fill(name);
  return page
    .getByRole('region')
    .filter({ hasNot: page.getByRole('heading', { name: 'Favoritos', exact: true }) })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: `Visualizar painel ${name}`, exact: true }) });
}

const clearSearch = (page: Page) => page.getByRole('searchbox', { name: 'Buscar painel' }).fill('');

/** The group names of '/' in screen order, 'Recentes' aside. */
const groupNames = async (page: Page) =>
  (await page.getByRole('heading', { level: 2 }).allTextContents()).filter((name) => name !== 'Recentes');

/** Panel names in screen order, read from the rows' Visualizar links. */
const panelNamesIn = (scope: Locator) =>
  scope
    .getByRole('link', { name: /^Visualizar painel / })
    .evaluateAll((links) => links.map((link) => link.getAttribute('aria-label')!.replace('Visualizar painel ', '')));

async function pdfText(download: Download): Promise<string> {
  const bytes = await readFile(await download.path());
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text;
}

// What the journeys change, as it was, to put back whatever a failed journey left.
let panelsBefore: Painel[] = [];
const linksBefore = new Map<number, string[]>();

test.beforeAll(async ({ browser }, testInfo) => {
  const admin = await openAs(browser, testInfo, 'Ana Demonstração');
  const api = await apiOf(admin, testInfo);
  try {
    const all = await ok<Painel[]>(await api.get('/api/paineis'));
    panelsBefore = all.filter((panel) => [VENDAS, SAZONALIDADE, DEVOLUCOES].includes(panel.nomePainel));
    expect(panelsBefore).toHaveLength(3);
    for (const panel of panelsBefore) {
      const linked = await ok<UsuarioVinculado[]>(await api.get(`/api/paineis/${panel.id}/usuarios`));
      linksBefore.set(
        panel.id,
        linked.map((user) => user.id),
      );
    }
  } finally {
    await api.dispose();
    await admin.context().close();
  }
});

test.afterAll(async ({ browser }, testInfo) => {
  const admin = await openAs(browser, testInfo, 'Ana Demonstração');
  const user = await openAs(browser, testInfo, 'Bruno Demonstração');
  const adminApi = await apiOf(admin, testInfo);
  const userApi = await apiOf(user, testInfo);
  try {
    for (const panel of panelsBefore) {
      const { nomePainel, workspaceId, reportId, usaRls, permiteExportacao, classificacaoId, ordem } = panel;
      await ok(
        await adminApi.put(`/api/paineis/${panel.id}`, {
          data: { nomePainel, workspaceId, reportId, usaRls, permiteExportacao, classificacaoId, ordem },
        }),
      );
      await ok(await adminApi.post(`/api/paineis/${panel.id}/usuarios`, { data: linksBefore.get(panel.id) }));
      expect((await userApi.delete(`/api/favoritos/${panel.id}`)).status()).toBe(204);
      for (const visao of await ok<VisaoSalva[]>(await userApi.get(`/api/paineis/${panel.id}/visoes`))) {
        expect((await userApi.delete(`/api/paineis/${panel.id}/visoes/${visao.id}`)).status()).toBe(204);
      }
    }
  } finally {
    await adminApi.dispose();
    await userApi.dispose();
    await admin.context().close();
    await user.context().close();
  }
});

test("favourites: a user's starred panels on top of '/', through reloads, a rename and a lost access", async ({
  page,
  browser,
}, testInfo) => {
  await signInAs(page, 'Bruno Demonstração');
  // Nothing starred yet: no 'Favoritos' group.
  await expect(page.getByRole('link', { name: `Visualizar painel ${VENDAS}` })).toBeVisible();
  expect(await groupNames(page)).not.toContain('Favoritos');

  for (const name of [DEVOLUCOES, SAZONALIDADE]) {
    const star = (await findRow(page, name)).getByRole('button', { name: 'Favoritar' });
    await star.click();
    await expect((await findRow(page, name)).getByRole('button', { name: 'Remover dos favoritos' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  }
  await clearSearch(page);
  const favourites = page.getByRole('region', { name: 'Favoritos' });
  // On top of every classification, in the list's order (not the order starred), and still in their own.
  await expect(favourites.getByRole('link', { name: /^Visualizar painel / })).toHaveCount(2);
  expect(await panelNamesIn(favourites)).toEqual([SAZONALIDADE, DEVOLUCOES]);
  await expect(favourites.getByRole('link', { name: `Visualizar painel ${SAZONALIDADE}` })).toBeVisible();
  await expect(favourites.getByRole('link', { name: `Visualizar painel ${DEVOLUCOES}` })).toBeVisible();
  expect((await groupNames(page))[0]).toBe('Favoritos');
  await expect(
    page.getByRole('region', { name: 'Comercial' }).getByRole('link', { name: `Visualizar painel ${SAZONALIDADE}` }),
  ).toBeVisible();

  // Kept by the server: a reload and a new session show them.
  await page.reload();
  await expect(favourites.getByRole('link', { name: `Visualizar painel ${SAZONALIDADE}` })).toBeVisible();
  await signOut(page, 'Bruno Demonstração');
  await signInAs(page, 'Bruno Demonstração');
  await expect(favourites.getByRole('link', { name: `Visualizar painel ${SAZONALIDADE}` })).toBeVisible();
  await expect(favourites.getByRole('link', { name: `Visualizar painel ${DEVOLUCOES}` })).toBeVisible();
  expect((await groupNames(page))[0]).toBe('Favoritos');

  // An administrator renames the panel: it stays a favourite, under its new name.
  const renamed = `${SAZONALIDADE} (revisado)`;
  const admin = await openAs(browser, testInfo, 'Ana Demonstração');
  try {
    await (await findRow(admin, SAZONALIDADE)).getByRole('link', { name: `Editar painel ${SAZONALIDADE}` }).click();
    await admin.getByLabel('Nome do painel').fill(renamed);
    await admin.getByRole('button', { name: 'Atualizar Painel' }).click();
    await expect(admin).toHaveURL(/\/$/);
    await page.reload();
    await expect(favourites.getByRole('link', { name: `Visualizar painel ${renamed}`, exact: true })).toBeVisible();
    await expect(favourites.getByRole('link', { name: `Visualizar painel ${SAZONALIDADE}`, exact: true })).toHaveCount(
      0,
    );

    // The administrator unlinks the user from it: it drops out of 'Favoritos' (and of the list).
    await (await findRow(admin, renamed)).getByRole('button', { name: `Usuários do painel ${renamed}` }).click();
    const users = admin.getByRole('dialog', { name: 'Vincular Usuários ao Painel' });
    await users.getByPlaceholder('Buscar usuário...').fill('bruno demonstr');
    await users.getByRole('checkbox', { name: 'Selecionar Bruno Demonstração' }).uncheck();
    await users.getByRole('button', { name: /^(Vincular \(\d+\)|Desvincular Todos)$/ }).click();
    await expect(users).toBeHidden();
    await page.reload();
    await expect(favourites.getByRole('link', { name: `Visualizar painel ${DEVOLUCOES}` })).toBeVisible();
    await expect(favourites.getByRole('link')).toHaveCount(1);
    await expect(page.getByRole('link', { name: `Visualizar painel ${renamed}` })).toHaveCount(0);

    // Unstarring the last one removes the group.
    await favourites.getByRole('button', { name: 'Remover dos favoritos' }).click();
    await expect(favourites).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('link', { name: `Visualizar painel ${DEVOLUCOES}` })).toBeVisible();
    expect(await groupNames(page)).not.toContain('Favoritos');

    // Put back: the link and the name (afterAll checks nothing else is left).
    await (await findRow(admin, renamed)).getByRole('button', { name: `Usuários do painel ${renamed}` }).click();
    await users.getByPlaceholder('Buscar usuário...').fill('bruno demonstr');
    await users.getByRole('checkbox', { name: 'Selecionar Bruno Demonstração' }).check();
    await users.getByRole('button', { name: /^Vincular \(\d+\)$/ }).click();
    await expect(users).toBeHidden();
    await (await findRow(admin, renamed)).getByRole('link', { name: `Editar painel ${renamed}` }).click();
    await admin.getByLabel('Nome do painel').fill(SAZONALIDADE);
    await admin.getByRole('button', { name: 'Atualizar Painel' }).click();
    await expect(admin).toHaveURL(/\/$/);
  } finally {
    await admin.context().close();
  }
});

test("recents: the panels a user opened, newest first, as links on '/'", async ({ page }) => {
  await signInAs(page, 'Bruno Demonstração');
  const ids: number[] = [];
  for (const name of [CARTEIRA, RANKING]) {
    await (await findRow(page, name)).getByRole('link', { name: `Visualizar painel ${name}` }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(viewerOf(page).title).toHaveText(`Visão geral — ${name}`);
    ids.push(Number(/\/visualizar\/(\d+)/.exec(page.url())![1]));
    await page.getByRole('link', { name: /Voltar/ }).click();
    await expect(page).toHaveURL(/\/$/);
  }
  const recents = page.getByRole('region', { name: 'Recentes' });
  await expect(recents.getByRole('link').first()).toHaveText(RANKING);
  await expect(recents.getByRole('link').nth(1)).toHaveText(CARTEIRA);

  // At once: the viewer keeps no answer of an earlier opening, so this one is asked for, and recorded, too.
  await recents.getByRole('link', { name: CARTEIRA }).click();
  await expect(page).toHaveURL(new RegExp(`/visualizar/${ids[0]}(\\?|$)`));
  await expect(page.getByRole('heading', { level: 1, name: CARTEIRA })).toBeVisible();
  await page.getByRole('link', { name: /Voltar/ }).click();
  // Opened again: first now.
  await expect(recents.getByRole('link').first()).toHaveText(CARTEIRA);
  await expect(recents.getByRole('link').nth(1)).toHaveText(RANKING);
});

test("a link to a report page: '?pagina=' in the address opens that page, and 'Copiar link' copies it", async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInAs(page, 'Bruno Demonstração');
  await page.getByRole('link', { name: `Visualizar painel ${VENDAS}` }).click();
  const { sidebar, title } = viewerOf(page);
  await expect(title).toHaveText(`Visão geral — ${VENDAS}`);

  await sidebar.getByRole('button', { name: 'Tendências' }).click();
  await expect(title).toHaveText(`Tendências — ${VENDAS}`);
  await expect(page).toHaveURL(new RegExp(`\\?pagina=${VENDAS_PAGES['Tendências']}$`));
  const link = page.url();

  // The address, opened anew, opens on that page.
  const other = await context.newPage();
  await other.goto(link);
  await expect(viewerOf(other).title).toHaveText(`Tendências — ${VENDAS}`);
  await expect(viewerOf(other).sidebar.getByRole('button', { name: 'Tendências' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await other.close();

  await page.getByRole('button', { name: 'Copiar link' }).click();
  await expect(page.getByText('Link copiado')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
});

test('saved views: slicer and page saved, applied, renamed, shared by link with those who may open the panel, deleted', async ({
  page,
  browser,
  consoleErrors,
}, testInfo) => {
  // A name long enough that the menu, placed as it opened on 'Carregando...', would hang past the window's edge.
  const name = 'Sul — detalhes da região no trimestre';
  const renamed = 'Sul — detalhes do mês';
  await signInAs(page, 'Bruno Demonstração');
  await page.getByRole('link', { name: `Visualizar painel ${VENDAS}` }).click();
  const { sidebar, report, title, region } = viewerOf(page);
  await expect(region).toHaveText('Região: Todas');

  // The slicer inside the report, then another page.
  await report.getByLabel('Região').selectOption('Sul');
  await expect(region).toHaveText('Região: Sul');
  await sidebar.getByRole('button', { name: 'Detalhes' }).click();
  await expect(title).toHaveText(`Detalhes — ${VENDAS}`);

  await page.getByRole('button', { name: 'Salvar visão' }).click();
  const save = page.getByRole('dialog', { name: 'Salvar visão' });
  await save.getByLabel('Nome da visão').fill(name);
  await save.getByRole('button', { name: 'Salvar' }).click();
  await expect(save).toBeHidden();

  // Opened again without parameters: the report as it opens by default.
  const panelPath = new URL(page.url()).pathname;
  await page.goto(panelPath);
  await expect(title).toHaveText(`Visão geral — ${VENDAS}`);
  await expect(region).toHaveText('Região: Todas');

  // Applied from 'Visões': slicer and page come back, and the view is in the address.
  await page.getByRole('button', { name: 'Visões' }).click();
  // The list arrives after the menu opened, wider than 'Carregando...': the menu is placed again, whole in the window.
  await expect(page.getByRole('group', { name }).getByRole('button', { name: 'Excluir' })).toBeInViewport({ ratio: 1 });
  await page.getByRole('group', { name }).getByRole('button', { name }).click();
  await expect(region).toHaveText('Região: Sul');
  await expect(title).toHaveText(`Detalhes — ${VENDAS}`);
  await expect(sidebar.getByRole('button', { name: 'Detalhes' })).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveURL(/[?&]visao=[0-9a-f-]{36}/);
  const visaoId = new URL(page.url()).searchParams.get('visao')!;

  await page.getByRole('button', { name: 'Visões' }).click();
  await page.getByRole('group', { name }).getByRole('button', { name: 'Renomear' }).click();
  const rename = page.getByRole('dialog', { name: 'Renomear visão' });
  await expect(rename.getByLabel('Nome da visão')).toHaveValue(name);
  await rename.getByLabel('Nome da visão').fill(renamed);
  await rename.getByRole('button', { name: 'Renomear' }).click();
  await expect(rename).toBeHidden();
  await page.getByRole('button', { name: 'Visões' }).click();
  await expect(page.getByRole('group', { name: renamed })).toBeVisible();
  await expect(page.getByRole('group', { name, exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // The shared link (the view alone, no page): another person who may open the panel sees the same slicer and page,
  // through their own embed (an administrator's identity).
  const shared = `${panelPath}?visao=${visaoId}`;
  const admin = await openAs(browser, testInfo, 'Ana Demonstração');
  try {
    await admin.goto(shared);
    await expect(viewerOf(admin).region).toHaveText('Região: Sul');
    await expect(viewerOf(admin).title).toHaveText(`Detalhes — ${VENDAS}`);
    await expect(viewerOf(admin).report.locator('#identidade-usuario')).toHaveText(
      'Identidade: demo.admin@contoso.com.br',
    );
    // Not hers: nothing to rename or delete in her 'Visões'.
    await admin.getByRole('button', { name: 'Visões' }).click();
    await expect(admin.getByText('Nenhuma visão salva.')).toBeVisible();
  } finally {
    await admin.context().close();
  }

  // A person who may not open the panel: the link leads to the usual 'Painel não encontrado'.
  const outsider = await openAs(browser, testInfo, NO_ACCESS);
  try {
    await expect(outsider.getByRole('heading', { name: 'Painéis Power BI' })).toBeVisible();
    await expect(outsider.getByRole('link', { name: /^Visualizar painel / }).first()).toBeVisible();
    await expect(outsider.getByRole('link', { name: `Visualizar painel ${VENDAS}` })).toHaveCount(0);
    await outsider.goto(shared);
    await expect(outsider.getByRole('heading', { name: 'Painel não encontrado' })).toBeVisible();
    await expect(outsider.locator('iframe')).toHaveCount(0);
  } finally {
    await outsider.context().close();
  }

  // Deleted: gone from 'Visões', and its link opens the panel with a warning instead.
  await page.getByRole('button', { name: 'Visões' }).click();
  await page.getByRole('group', { name: renamed }).getByRole('button', { name: 'Excluir' }).click();
  const confirm = page.getByRole('dialog', { name: 'Excluir visão' });
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(confirm).toBeHidden();
  await expect(page).not.toHaveURL(/visao=/);
  await page.getByRole('button', { name: 'Visões' }).click();
  await expect(page.getByText('Nenhuma visão salva.')).toBeVisible();
  // The browser's line for the deleted view's 404, which the viewer turns into its warning.
  consoleErrors.allow(/status of 404/);
  await page.goto(shared);
  await expect(page.getByText('A visão compartilhada não foi encontrada.')).toBeVisible();
  await expect(region).toHaveText('Região: Todas');
});

test("a panel view ('Visão do painel'): saved by an administrator, applied by a person from 'Visões' and by its link, deleted", async ({
  page,
  browser,
}, testInfo) => {
  const name = 'Norte — tendências (painel)';
  const admin = await openAs(browser, testInfo, 'Ana Demonstração');
  try {
    await admin.getByRole('link', { name: `Visualizar painel ${VENDAS}` }).click();
    const ofAdmin = viewerOf(admin);
    await expect(ofAdmin.region).toHaveText('Região: Todas');
    await ofAdmin.report.getByLabel('Região').selectOption('Norte');
    await expect(ofAdmin.region).toHaveText('Região: Norte');
    await ofAdmin.sidebar.getByRole('button', { name: 'Tendências' }).click();
    await expect(ofAdmin.title).toHaveText(`Tendências — ${VENDAS}`);
    await admin.getByRole('button', { name: 'Salvar visão' }).click();
    const save = admin.getByRole('dialog', { name: 'Salvar visão' });
    await save.getByLabel('Nome da visão').fill(name);
    await save.getByLabel('Visão do painel (todos que podem abrir o painel a veem)').check();
    await save.getByRole('button', { name: 'Salvar' }).click();
    await expect(save).toBeHidden();

    await signInAs(page, 'Bruno Demonstração');
    await page.getByRole('link', { name: `Visualizar painel ${VENDAS}` }).click();
    const { region, title } = viewerOf(page);
    await expect(region).toHaveText('Região: Todas');
    await page.getByRole('button', { name: 'Visões' }).click();
    await expect(page.getByRole('heading', { name: 'Visões do painel' })).toBeVisible();
    const item = page.getByRole('group', { name });
    await expect(item.getByRole('button', { name: 'Renomear' })).toHaveCount(0);
    await item.getByRole('button', { name }).click();
    await expect(region).toHaveText('Região: Norte');
    await expect(title).toHaveText(`Tendências — ${VENDAS}`);
    const link = `${new URL(page.url()).pathname}?visao=${new URL(page.url()).searchParams.get('visao')}`;
    await page.goto(link);
    await expect(region).toHaveText('Região: Norte');

    await admin.getByRole('button', { name: 'Visões' }).click();
    await admin.getByRole('group', { name }).getByRole('button', { name: 'Excluir' }).click();
    const confirm = admin.getByRole('dialog', { name: 'Excluir visão' });
    await confirm.getByRole('button', { name: 'Excluir' }).click();
    await expect(confirm).toBeHidden();
    await page.getByRole('button', { name: 'Visões' }).click();
    await expect(page.getByRole('group', { name })).toHaveCount(0);
  } finally {
    await admin.context().close();
  }
});

test("'Imprimir' prints the report, and 'Tela cheia' puts the report's frame in full screen", async ({ page }) => {
  await signInAs(page, 'Bruno Demonstração');
  await page.getByRole('link', { name: `Visualizar painel ${VENDAS}` }).click();
  await expect(viewerOf(page).title).toHaveText(`Visão geral — ${VENDAS}`);
  await expectPrintAndFullScreen(page);
});

test('export: a PDF of the report as the user sees it (their RLS identity, the slicer, the page), a PowerPoint, and none when an administrator turns export off', async ({
  page,
  browser,
}, testInfo) => {
  await signInAs(page, 'Bruno Demonstração');
  await page.getByRole('link', { name: `Visualizar painel ${VENDAS}` }).click();
  const { sidebar, report, title, region } = viewerOf(page);
  await report.getByLabel('Região').selectOption('Sul');
  await expect(region).toHaveText('Região: Sul');
  await sidebar.getByRole('button', { name: 'Detalhes' }).click();
  await expect(title).toHaveText(`Detalhes — ${VENDAS}`);

  const pdfDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar', exact: true }).click();
  await page.getByRole('menuitem', { name: 'PDF' }).click();
  await expect(page.getByText(/^Exportando… \d+%$/)).toBeVisible();
  const pdf = await pdfDownload;
  await expect(page.getByText(/^Exportando…/)).toHaveCount(0);
  expect(pdf.suggestedFilename()).toMatch(/^Vendas por Regi.*\.pdf$/);
  const text = await pdfText(pdf);
  expect(text).toContain(`Identidade: ${DEMO_USER.email}`);
  expect(text).toContain('Papéis: Gerente Regional');
  expect(text).toContain('Região: Sul');
  expect(text).toContain(`Página: Detalhes (${VENDAS_PAGES['Detalhes']})`);

  const pptxDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar', exact: true }).click();
  await page.getByRole('menuitem', { name: 'PowerPoint' }).click();
  const pptx = await pptxDownload;
  expect(pptx.suggestedFilename()).toMatch(/^Vendas por Regi.*\.pptx$/);
  const zip = await JSZip.loadAsync(await readFile(await pptx.path()));
  const slides = Object.keys(zip.files).filter((file) => /^ppt\/slides\/slide\d+\.xml$/.test(file));
  expect(slides.length).toBeGreaterThanOrEqual(1);
  const slide = await zip.file(slides[0]!)!.async('string');
  expect(slide).toContain('Região: Sul');
  expect(slide).toContain(`Identidade: ${DEMO_USER.email}`);

  // An administrator turns export off for the panel: the user's viewer offers none; on again, it is back.
  const admin = await openAs(browser, testInfo, 'Ana Demonstração');
  const setExport = async (allowed: boolean) => {
    await (await findRow(admin, VENDAS)).getByRole('link', { name: `Editar painel ${VENDAS}` }).click();
    await admin.getByLabel('Permitir exportação (PDF e PowerPoint)').setChecked(allowed);
    await admin.getByRole('button', { name: 'Atualizar Painel' }).click();
    await expect(admin).toHaveURL(/\/$/);
  };
  try {
    await setExport(false);
    await page.reload();
    await expect(title).toHaveText(`Detalhes — ${VENDAS}`);
    await expect(page.getByRole('button', { name: 'Imprimir' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Exportar', exact: true })).toHaveCount(0);

    await setExport(true);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Exportar', exact: true })).toBeVisible();
  } finally {
    await admin.context().close();
  }
});
