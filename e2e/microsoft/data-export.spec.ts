import { readFile } from 'node:fs/promises';
import type { Browser, Page, PlaywrightWorkerArgs } from '@playwright/test';
import { EXPORTACAO_DADOS_DESATIVADA, type UsoPaineis } from '@paineis/contract/usage';
import { rlsRegion } from '@paineis/microsoft-stand-ins/report-state';
import { DEMO_USER } from '../../apps/api/src/demo/demo-data.ts';
import { demoDirectory } from '../../apps/api/src/demo/demo-directory.ts';
import { expect, signInAs, test } from '../fixtures.ts';
import { asAdmin, ok, routePowerBi, setUpPanels, VENDAS, VENDAS_PANEL } from './setup.ts';

// 'Exportar dados' (docs/requirements.md#viewer-data-export) on the portal configured for Microsoft: the real
// powerbi-client's visual.exportData against the stand-in's embed host page, whose rows follow the embed token's
// RLS identity ('Diretoria' sees every row, any other identity one region by a hash of its username).

/** A second person the stand-in's sign-in page offers, 'Gerente Regional' here as Bruno, on a region of her own. */
const GABRIELA = demoDirectory().find((person) => person.displayName === 'Gabriela Rocha Machado')!;
const REGIONAL = 'Gerente Regional';
const PAGE = 'Visão geral';
const VISUAL = 'Vendas por mês';
const FILE = `${VENDAS} - ${PAGE} - ${VISUAL}.csv`;
const HEADER = 'Mês,Região,Vendedor,Pedidos,Unidades,Receita,Custo';

/** The RLS panel with Gabriela in Bruno's role, and exporting data allowed (or not). */
const panelWith = (permiteExportarDados: boolean) => ({
  ...VENDAS_PANEL,
  permiteExportarDados,
  rlsConfigurations: VENDAS_PANEL.rlsConfigurations!.map((config) =>
    config.roleName === REGIONAL ? { ...config, userEmails: [...config.userEmails, GABRIELA.mail!] } : config,
  ),
});

let panelId = 0;

/** Puts the panel as `permiteExportarDados` says, Gabriela in Bruno's role and both linked to it. */
async function configurePanel(
  browser: Browser,
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string,
  permiteExportarDados: boolean,
) {
  const ids = await setUpPanels(browser, playwright, baseURL, [panelWith(permiteExportarDados)]);
  panelId = ids.get(VENDAS)!;
  await asAdmin(browser, playwright, baseURL, async (api) => {
    await ok(await api.post(`/api/paineis/${panelId}/usuarios`, { data: [DEMO_USER.id, GABRIELA.id] }));
  });
}

const exportsOf = (browser: Browser, playwright: PlaywrightWorkerArgs['playwright'], baseURL: string) =>
  asAdmin(browser, playwright, baseURL, async (api) => {
    const uso = await ok<UsoPaineis>(await api.get('/api/uso/paineis?dias=30'));
    return uso.paineis.find((panel) => panel.painelId === panelId)?.exportacoesDados ?? 0;
  });

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  await configurePanel(browser, playwright, testInfo.project.use.baseURL!, true);
});

// The panel as the other journeys expect it: Bruno alone in its roles and links, exporting data allowed.
test.afterAll(async ({ browser, playwright }, testInfo) => {
  await setUpPanels(browser, playwright, testInfo.project.use.baseURL!, [
    { ...VENDAS_PANEL, permiteExportarDados: true },
  ]);
});

test.beforeEach(async ({ context }) => {
  await routePowerBi(context);
});

/** Opens the RLS panel as it is shown to `page`'s person and waits for the report. */
async function openPanel(page: Page) {
  await page.goto(`/visualizar/${panelId}`);
  const report = page.frameLocator('.report-frame iframe');
  await expect(report.locator('section:not([hidden]) h1')).toHaveText(`${PAGE} — ${VENDAS}`);
  await expect(page.locator('.report-frame').getByRole('status').filter({ hasText: 'Carregando...' })).toHaveCount(0);
  return report;
}

/** 'Exportar dados' → the visual → 'Dados subjacentes' → 'Exportar': the downloaded file's name and text. */
async function exportUnderlying(page: Page): Promise<{ name: string; text: string }> {
  await page.getByRole('button', { name: 'Exportar dados' }).click();
  const dialog = page.getByRole('dialog', { name: 'Exportar dados' });
  await dialog
    .getByRole('group', { name: 'Visual' })
    .getByRole('radio', { name: new RegExp(`^${VISUAL}`) })
    .check();
  await dialog.getByRole('radio', { name: /^Dados subjacentes/ }).check();
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Exportar', exact: true }).click();
  const file = await download;
  await expect(dialog).toBeHidden();
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

/** The CSV's lines, without the BOM nor the trailing line break, and the 'Região' column of its rows. */
function csvOf(text: string) {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean);
  return { header: lines[0], regions: lines.slice(1).map((line) => line.split(',')[1]) };
}

test("two people export the RLS panel's underlying data: one CSV each, only their own region's rows, and /uso counts both", async ({
  page,
  browser,
  playwright,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  // Each person's region, by the stand-in's rule on the identity the portal embeds with (their UPN and role).
  const brunoRegion = rlsRegion({ username: DEMO_USER.email, roles: [REGIONAL] });
  const gabrielaRegion = rlsRegion({ username: GABRIELA.userPrincipalName, roles: [REGIONAL] });
  expect(brunoRegion).not.toBeNull();
  expect(gabrielaRegion).not.toBeNull();
  expect(gabrielaRegion, 'the two people must see different regions').not.toBe(brunoRegion);
  const before = await exportsOf(browser, playwright, baseURL);

  await signInAs(page, 'Bruno Demonstração');
  const report = await openPanel(page);
  await expect(report.locator('#identidade-usuario')).toHaveText(`Identidade: ${DEMO_USER.email}`);
  const bruno = await exportUnderlying(page);

  const other = await browser.newContext({ baseURL });
  let gabriela: { name: string; text: string };
  try {
    await routePowerBi(other);
    const otherPage = await other.newPage();
    await signInAs(otherPage, GABRIELA.displayName);
    const otherReport = await openPanel(otherPage);
    await expect(otherReport.locator('#identidade-usuario')).toHaveText(`Identidade: ${GABRIELA.userPrincipalName}`);
    gabriela = await exportUnderlying(otherPage);
  } finally {
    await other.close();
  }

  for (const [file, region] of [
    [bruno, brunoRegion],
    [gabriela, gabrielaRegion],
  ] as const) {
    expect(file.name).toBe(FILE);
    expect(file.text.startsWith('\uFEFF')).toBe(true);
    const { header, regions } = csvOf(file.text);
    expect(header).toBe(HEADER);
    expect(regions.length).toBeGreaterThan(0);
    expect(new Set(regions)).toEqual(new Set([region]));
  }

  // Both exports recorded before the files were saved: the administrator's /uso counts them for the panel.
  await expect.poll(() => exportsOf(browser, playwright, baseURL), { timeout: 20_000 }).toBe(before + 2);
});

test("a panel that does not allow exporting data: no 'Exportar dados', and the server refuses to record one", async ({
  page,
  browser,
  playwright,
}, testInfo) => {
  const baseURL = testInfo.project.use.baseURL!;
  await configurePanel(browser, playwright, baseURL, false);
  try {
    const before = await exportsOf(browser, playwright, baseURL);
    await signInAs(page, 'Bruno Demonstração');
    await openPanel(page);
    await expect(page.getByRole('button', { name: 'Visões' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Exportar dados' })).toHaveCount(0);

    const token = await page.evaluate(() => localStorage.getItem('token'));
    const refused = await page.request.post(`/api/paineis/${panelId}/exportacoes-dados`, {
      headers: { authorization: `Bearer ${token}` },
      data: { pagina: PAGE, visual: 'graficoVendasMes', tituloVisual: VISUAL, tipo: 'subjacentes', linhas: 1 },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(EXPORTACAO_DADOS_DESATIVADA);
    expect(await exportsOf(browser, playwright, baseURL)).toBe(before);
  } finally {
    await configurePanel(browser, playwright, baseURL, true);
  }
  // Allowed again: the button is back for the same person.
  await openPanel(page);
  await expect(page.getByRole('button', { name: 'Exportar dados' })).toBeVisible();
});
