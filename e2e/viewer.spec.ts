import { expect, signInAs, test } from './fixtures.ts';

// The demo viewer: the same viewer code, embedding the stand-in Power BI report page (marked 'Demonstração').
test('a user opens an RLS panel: visible pages only, the first selected, their identity and roles in the report', async ({
  page,
}) => {
  await signInAs(page, 'Bruno Demonstração');
  await page.getByRole('link', { name: 'Visualizar painel Vendas por Região' }).click();
  await expect(page.getByRole('heading', { name: 'Vendas por Região' })).toBeVisible();
  await expect(page.getByText('Este painel utiliza Row Level Security (RLS)')).toBeVisible();

  const report = page.frameLocator('iframe');
  await expect(report.locator('section:not([hidden]) h1')).toHaveText('Visão geral — Vendas por Região');
  await expect(report.locator('#identidade-usuario')).toHaveText('Identidade: demo.usuario@contoso.com.br');
  await expect(report.locator('#identidade-papeis')).toHaveText('Papéis: Gerente Regional');

  const sidebar = page.getByRole('navigation', { name: 'Páginas do relatório' });
  await expect(sidebar).toContainText('Demonstração');
  // Three visible pages; the hidden one is not listed.
  await expect(sidebar.getByRole('button')).toHaveText(['Visão geral', 'Detalhes', 'Tendências']);
  await expect(sidebar.getByRole('button', { name: 'Visão geral' })).toHaveAttribute('aria-current', 'page');
  const width = await sidebar.evaluate((el) => el.getBoundingClientRect().width);
  expect(Math.round(width)).toBe(220);

  await sidebar.getByRole('button', { name: 'Detalhes' }).click();
  await expect(report.locator('section:not([hidden]) h1')).toHaveText('Detalhes — Vendas por Região');
  await expect(sidebar.getByRole('button', { name: 'Detalhes' })).toHaveAttribute('aria-current', 'page');

  await page.getByRole('link', { name: /Voltar/ }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('an administrator previews an RLS panel with all its roles, and a panel without RLS has no identity', async ({
  page,
}) => {
  await signInAs(page, 'Ana Demonstração');
  await page.getByRole('link', { name: 'Visualizar painel Vendas por Região' }).click();
  const report = page.frameLocator('iframe');
  await expect(report.locator('#identidade-usuario')).toHaveText('Identidade: demo.admin@contoso.com.br');
  await expect(report.locator('#identidade-papeis')).toHaveText(/Papéis: .*Diretoria.*Gerente Regional.*Vendedor/);

  await page.goto('/');
  await page.getByRole('link', { name: 'Visualizar painel Fluxo de Caixa Mensal' }).click();
  await expect(report.locator('section:not([hidden]) h1')).toHaveText(/— Fluxo de Caixa Mensal$/);
  await expect(report.locator('#identidade-usuario')).toBeHidden();
  await expect(page.getByText('Este painel utiliza Row Level Security (RLS)')).toHaveCount(0);
});

test('an administrator previews an RLS panel as one role, then with all roles again, without leaving the viewer', async ({
  page,
}) => {
  await signInAs(page, 'Ana Demonstração');
  await page.getByRole('link', { name: 'Visualizar painel Vendas por Região' }).click();
  const report = page.frameLocator('iframe');
  const role = page.getByRole('combobox', { name: 'Visualizar como' });
  await expect(role).toHaveValue('');
  await expect(report.locator('#identidade-papeis')).toHaveText('Papéis: Diretoria, Gerente Regional, Vendedor');

  await role.selectOption('Vendedor');
  // The role in the address, beside the page shown (`?pagina=`) once the report has said which it is, in either order.
  await expect(page).toHaveURL(
    /\/visualizar\/\d+\?((pagina=ReportSection[0-9a-f]+&)?papel=Vendedor|papel=Vendedor&pagina=ReportSection[0-9a-f]+)$/,
  );
  await expect(report.locator('#identidade-usuario')).toHaveText('Identidade: demo.admin@contoso.com.br');
  await expect(report.locator('#identidade-papeis')).toHaveText('Papéis: Vendedor');

  // The choice survives a reload: it is in the address.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Visualizar como' })).toHaveValue('Vendedor');
  await expect(report.locator('#identidade-papeis')).toHaveText('Papéis: Vendedor');

  await page.getByRole('combobox', { name: 'Visualizar como' }).selectOption({ label: 'Todos os papéis' });
  await expect(report.locator('#identidade-papeis')).toHaveText('Papéis: Diretoria, Gerente Regional, Vendedor');
});

test('a user is offered no role choice', async ({ page }) => {
  await signInAs(page, 'Bruno Demonstração');
  await page.getByRole('link', { name: 'Visualizar painel Vendas por Região' }).click();
  await expect(page.frameLocator('iframe').locator('#identidade-papeis')).toHaveText('Papéis: Gerente Regional');
  await expect(page.getByRole('combobox', { name: 'Visualizar como' })).toHaveCount(0);
});

test('on a phone the page list becomes a row above the report, which keeps the full width', async ({ page }) => {
  await signInAs(page, 'Bruno Demonstração');
  await page.setViewportSize({ width: 375, height: 780 });
  await page.getByRole('link', { name: 'Visualizar painel Vendas por Região' }).click();
  await expect(page.getByRole('heading', { name: 'Vendas por Região' })).toBeVisible();
  const sidebar = page.getByRole('navigation', { name: 'Páginas do relatório' });
  await expect(sidebar.getByRole('button')).toHaveText(['Visão geral', 'Detalhes', 'Tendências']);
  const pages = (await sidebar.boundingBox())!;
  const report = (await page.locator('.report-frame iframe').boundingBox())!;
  expect(report.y).toBeGreaterThanOrEqual(pages.y + pages.height - 1);
  expect(report.width).toBeGreaterThanOrEqual(370);
  await sidebar.getByRole('button', { name: 'Tendências' }).click();
  await expect(page.frameLocator('iframe').locator('section:not([hidden]) h1')).toHaveText(
    'Tendências — Vendas por Região',
  );
});
