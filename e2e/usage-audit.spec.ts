import type { Page } from '@playwright/test';
import { expect, signInAs, test } from './fixtures.ts';

interface PanelUsage {
  painelId: number;
  nomePainel: string;
  visualizacoes: number;
}

/** A panel's views in the last 30 days, as '/uso' counts them, asked for with the signed-in person's session. */
const viewsOf = (page: Page, nomePainel: string) =>
  page.evaluate(async (nome) => {
    const answer = await fetch('/api/uso/paineis?dias=30', {
      headers: { Authorization: `Bearer ${localStorage.getItem('token')}` },
    });
    if (!answer.ok) throw new Error(`GET /api/uso/paineis: ${answer.status}`);
    const { paineis } = (await answer.json()) as { paineis: PanelUsage[] };
    return paineis.find((p) => p.nomePainel === nome)!;
  }, nomePainel);

const signOut = async (page: Page, person: string) => {
  await page.getByRole('button', { name: person }).click();
  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/login$/);
};

test("an administrator's opening and change show in 'Uso' and 'Auditoria'; a user sees neither", async ({ page }) => {
  // Other journeys share this server: a name of this run's own.
  const classification = `Auditoria E2E ${Date.now().toString(36)}`;
  await signInAs(page, 'Ana Demonstração');
  // The demo comes with 90 days of views (and other journeys open panels too): what this one adds is counted from here.
  const before = await viewsOf(page, 'Vendas por Região');
  expect(before.visualizacoes, 'a demo com 90 dias de uso').toBeGreaterThan(0);

  // An opening of a panel, recorded by the server (and its load times, reported by the viewer).
  const timesReported = page.waitForResponse(
    (response) => response.request().method() === 'POST' && /\/api\/paineis\/\d+\/visualizacoes\//.test(response.url()),
    { timeout: 15_000 },
  );
  await page.getByRole('link', { name: 'Visualizar painel Vendas por Região' }).click();
  await expect(page.frameLocator('iframe').locator('#identidade-usuario')).toBeVisible();
  await timesReported;

  // A change: a classification created.
  await page.getByRole('link', { name: 'Classificações', exact: true }).click();
  await page.getByRole('textbox', { name: 'Nome' }).fill(classification);
  await page.getByRole('button', { name: 'Criar Classificação' }).click();
  await expect(page.getByRole('button', { name: `Editar ${classification}` })).toBeVisible();

  // The opening counted (views are written within a second).
  await expect
    .poll(async () => (await viewsOf(page, 'Vendas por Região')).visualizacoes)
    .toBeGreaterThan(before.visualizacoes);

  // 'Uso': the panel among the most viewed, and who opened it.
  await page.getByRole('link', { name: 'Uso', exact: true }).click();
  await expect(page).toHaveURL(/\/uso$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Uso dos Painéis' })).toBeVisible();
  await expect(page.getByRole('radio', { name: '30 dias' })).toBeChecked();
  const mostViewed = page.getByRole('region', { name: 'Painéis mais vistos' });
  const panel = mostViewed.getByRole('button', { name: 'Vendas por Região' });
  await expect(async () => {
    await page.reload();
    await expect(panel).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 10_000 });
  await expect(page.getByRole('application', { name: 'Visualizações e pessoas por dia' })).toBeVisible();

  await panel.click();
  const detail = page.getByRole('dialog', { name: 'Aberturas de Vendas por Região' });
  await expect(detail).toBeVisible();
  // Newest first: this journey's opening heads the demo's.
  await expect(detail.getByRole('row').nth(1)).toContainText('Ana Demonstração');
  await detail.getByRole('button', { name: 'Fechar' }).last().click();
  await expect(detail).toBeHidden();

  // The period drives every part: 7 days asks again.
  const sevenDays = page.waitForResponse((response) => response.url().includes('/api/uso/paineis?dias=7'));
  await page.getByText('7 dias', { exact: true }).click();
  await sevenDays;
  await expect(page.getByRole('radio', { name: '7 dias' })).toBeChecked();
  await expect(panel).toBeVisible();

  // 'Auditoria': the creation, with its name under 'Depois'.
  await page.getByRole('link', { name: 'Auditoria', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Auditoria' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Objeto' }).selectOption({ label: 'Classificação' });
  await page.getByRole('combobox', { name: 'Ação' }).selectOption({ label: 'Criação' });
  const row = page.getByRole('row').filter({ hasText: classification });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('demo.admin@contoso.com.br');
  await expect(row).not.toContainText('demonstração');
  // The demo's history under it, marked as such in place of an address.
  await expect(page.getByRole('row').filter({ hasText: 'Logística' })).toContainText('demonstração');
  await expect(row).toContainText('Criação');
  const details = row.getByRole('button', { name: /Detalhes/ });
  await expect(details).toHaveAttribute('aria-expanded', 'false');
  await details.click();
  await expect(details).toHaveAttribute('aria-expanded', 'true');
  const changes = page.locator(`[id="${await details.getAttribute('aria-controls')}"]`);
  await expect(changes.getByRole('columnheader')).toHaveText(['Campo', 'Antes', 'Depois']);
  const nome = changes.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'nome', exact: true }) });
  await expect(nome.getByRole('cell')).toHaveText(['—', classification]);

  // An ordinary user: no links, and the addresses lead home.
  await signOut(page, 'Ana Demonstração');
  await signInAs(page, 'Bruno Demonstração');
  await expect(page.getByRole('link', { name: 'Início' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Uso', exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Auditoria', exact: true })).toHaveCount(0);
  await page.goto('/uso');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Painéis Power BI' })).toBeVisible();
  await page.goto('/auditoria');
  await expect(page).toHaveURL(/\/$/);
});
