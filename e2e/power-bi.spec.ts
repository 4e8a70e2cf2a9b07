import type { Page } from '@playwright/test';
import type { ResultadoImportacao } from '@paineis/contract/power-bi';
import { expect, signInAs, test } from './fixtures.ts';

// The Power BI side seen from the portal (docs/requirements.md#power-bi), on the demo: its second workspace holds
// reports that are not panels yet, 'DRE Consolidada' failed its last refresh, and the report of 'Painel de Testes da
// Equipe de BI' was deleted in Power BI.
const ADMIN = 'Ana Demonstração';
const USER = 'Bruno Demonstração';
const WORKSPACE = 'Relatórios Financeiros';
const BROKEN = 'Painel de Testes da Equipe de BI';
const FAILED = 'DRE Consolidada';
/** Panel rows of the list (the list is windowed: rows near the top). */
const ROW = '.list-group-item:has(.panel-row-name)';
const UPDATED = /Atualizado (agora|há \d+ (min|h)|em \d{2}\/\d{2}( |\/)\S+)/;

/** The admin's API, by password: for what a journey sets up or undoes around what the person does. */
async function adminApi(page: Page) {
  const login = await page.request.post('/api/auth/login', { data: { username: 'demo.admin', password: 'demo' } });
  const { token } = (await login.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

/** The background rounds run at start: the answers are there once the first round has read Power BI. */
async function untilRead(page: Page, url: string) {
  const headers = await adminApi(page);
  await expect
    .poll(async () => Object.keys((await (await page.request.get(url, { headers })).json()) as object).length, {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
}

test('an administrator imports a report from a workspace at /importar, and it becomes a panel of the list', async ({
  page,
}) => {
  await signInAs(page, ADMIN);
  await page.getByRole('link', { name: 'Importar do Power BI' }).click();
  await expect(page).toHaveURL(/\/importar$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Importar do Power BI' })).toBeVisible();

  await page.getByLabel('Workspace').selectOption({ label: WORKSPACE });
  const report = page.getByRole('checkbox', { name: 'Despesas Corporativas', exact: true });
  await expect(report).toBeEnabled();
  await report.check();
  await page.getByLabel('Nome do painel para Despesas Corporativas').fill('Despesas da Empresa');
  await page.getByLabel('Classificação').selectOption({ label: 'Financeiro' });
  let created: number[] = [];
  try {
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/paineis/importar'));
    await page.getByRole('button', { name: 'Importar (1)' }).click();
    const result = (await (await answer).json()) as ResultadoImportacao;
    created = result.criados.map((c) => c.painelId);
    await expect(page.getByText('1 painel criado')).toBeVisible();
    // Registered now: shown, and disabled, among the workspace's reports.
    await expect(report).toBeDisabled();

    await page.getByRole('link', { name: 'Início' }).click();
    await page.getByPlaceholder('Buscar painel...').fill('Despesas da Empresa');
    await expect(page.getByRole('link', { name: 'Visualizar painel Despesas da Empresa', exact: true })).toBeVisible();
  } finally {
    const headers = await adminApi(page);
    for (const id of created) await page.request.delete(`/api/paineis/${id}`, { headers });
  }
});

test('rows and the viewer say when the data was refreshed; only administrators read that a refresh failed', async ({
  page,
}) => {
  await untilRead(page, '/api/paineis/atualizacoes');
  await signInAs(page, USER);
  const rows = page.locator(ROW);
  await expect(rows.filter({ hasText: UPDATED }).first()).toBeVisible();
  await expect(page.getByText('Falha na atualização')).toHaveCount(0);

  const name = (await rows
    .filter({ hasText: UPDATED })
    .first()
    .locator('.panel-row-name > span.fw-medium')
    .textContent())!.trim();
  await page.getByRole('link', { name: `Visualizar painel ${name}`, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.locator('.viewer header').getByText(UPDATED).first()).toBeVisible();

  await page.getByRole('button', { name: USER }).click();
  await page.getByRole('button', { name: 'Sair' }).click();
  await signInAs(page, ADMIN);
  await page.getByPlaceholder('Buscar painel...').fill(FAILED);
  const failed = page.locator(ROW).filter({ hasText: FAILED });
  await expect(failed.getByText('Falha na atualização')).toBeVisible();
  await expect(failed.getByText('Falha na atualização')).toHaveAttribute('title', /gateway/);
  await expect(failed).toContainText(UPDATED);
});

test('a panel whose report was deleted in Power BI shows Indisponível to administrators, and opening it says so plainly', async ({
  page,
  consoleErrors,
}) => {
  // The browser's own line for the 503 the opening answers.
  consoleErrors.allow(/status of 503/);
  await untilRead(page, '/api/paineis/saude');
  await signInAs(page, ADMIN);
  await page.getByPlaceholder('Buscar painel...').fill(BROKEN);
  const row = page.locator(ROW).filter({ hasText: BROKEN });
  await expect(row.getByText('Indisponível')).toBeVisible();
  await expect(row.getByText('Indisponível')).toHaveAttribute('title', 'Relatório não encontrado no Power BI');

  await row.getByRole('link', { name: `Visualizar painel ${BROKEN}`, exact: true }).click();
  await expect(page.getByText('Este painel está temporariamente indisponível.')).toBeVisible();
  await expect(page.frameLocator('.report-frame iframe').locator('body')).toHaveCount(0);
});
