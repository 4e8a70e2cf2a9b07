import { expect, signInAs, test } from './fixtures.ts';

test('a person signs in with Microsoft, sees the portal, and signs out', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();

  await signInAs(page, 'Bruno Demonstração');
  // The token left the address bar at once.
  expect(new URL(page.url()).search).toBe('');
  await expect(page.getByRole('link', { name: 'Início' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Classificações' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Bruno Demonstração' }).click();
  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  // The revoked session is gone for good: the list is not reachable any more.
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
});

test('a cancelled Microsoft sign-in shows the required message (requirements: screen-login)', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Entrar com Microsoft' }).click();
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByText('Erro ao processar login Microsoft')).toBeVisible();
});

test('an administrator sees the admin navigation', async ({ page }) => {
  await signInAs(page, 'Ana Demonstração');
  await expect(page.getByRole('link', { name: 'Classificações' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Novo Painel' })).toBeVisible();
});
