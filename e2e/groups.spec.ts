import type { Page } from '@playwright/test';
import type { AcessoPessoa } from '@paineis/contract/groups';
import type { Painel } from '@paineis/contract/panels';
import { expect, signInAs, test } from './fixtures.ts';

// Access through Entra groups (docs/decisions/018-access-by-group.md), on the demo: Bruno Demonstração is in
// 'Comercial - Sul', which is nested in 'Comercial'.
const ADMIN = 'Ana Demonstração';
const USER = 'Bruno Demonstração';
const USER_ID = 'demo-usuario';
const NESTED_REASON = 'Grupo: Comercial (Comercial → Comercial - Sul)';
const NOT_LINKED = 'Sem vínculo com o painel, direto ou por grupo.';

const signOut = async (page: Page, person: string) => {
  await page.getByRole('button', { name: person }).click();
  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/login$/);
};

async function apiAs(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: async <T>(url: string) => {
      const response = await page.request.get(url, { headers });
      expect(response.status(), url).toBe(200);
      return (await response.json()) as T;
    },
  };
}

test('an administrator links a group to a panel, sees why its member may open it, and the member opens it', async ({
  page,
}) => {
  await signInAs(page, ADMIN);
  const api = await apiAs(page);
  // A panel without RLS, in an active classification, that Bruno may not open.
  const [panels, active, bruno] = await Promise.all([
    api.get<Painel[]>('/api/paineis'),
    api.get<{ id: number }[]>('/api/classificacoes'),
    api.get<AcessoPessoa>(`/api/usuarios365/${USER_ID}/acesso`),
  ]);
  const refused = new Set(bruno.paineis.filter((p) => p.recusa === NOT_LINKED).map((p) => p.painelId));
  const shown = new Set(active.map((c) => c.id));
  const target = panels.find((p) => !p.usaRls && refused.has(p.id) && shown.has(p.classificacaoId))!;
  expect(target, 'um painel sem RLS que o Bruno não abre').toBeTruthy();
  const name = target.nomePainel;
  const groupsBefore = await api.get<{ id: string }[]>(`/api/paineis/${target.id}/grupos`);

  try {
    await page.getByRole('button', { name: `Usuários do painel ${name}`, exact: true }).click();
    const links = page.getByRole('dialog', { name: 'Vincular Usuários ao Painel' });
    await links.getByRole('tab', { name: /^Grupos/ }).click();
    await links.getByPlaceholder('Buscar grupo...').fill('comercial');
    await links.getByRole('checkbox', { name: 'Selecionar Comercial', exact: true }).check();
    await expect(links.getByRole('tab', { name: `Grupos (${groupsBefore.length + 1})` })).toBeVisible();
    await links.getByRole('button', { name: /^Vincular \(\d+\)$/ }).click();
    await expect(links).toBeHidden();

    await page.getByRole('button', { name: `Acesso ao painel ${name}`, exact: true }).click();
    const who = page.getByRole('dialog', { name: `Quem tem acesso - ${name}` });
    await who.getByPlaceholder('Filtrar por nome, e-mail ou grupo...').fill('bruno demonstr');
    await expect(who.getByText(/^1 de [\d.]+ pessoas$/)).toBeVisible();
    const row = who.getByRole('row').filter({ hasText: USER });
    await expect(row).toContainText('demo.usuario@contoso.com.br');
    await expect(row).toContainText(NESTED_REASON);
    await expect(row).not.toContainText('Vínculo direto');
    await who.getByRole('button', { name: 'Fechar' }).last().click();
    await expect(who).toBeHidden();

    await signOut(page, ADMIN);
    await signInAs(page, USER);
    await page.getByRole('link', { name: `Visualizar painel ${name}`, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.frameLocator('.report-frame iframe').locator('section:not([hidden]) h1')).toBeVisible();
  } finally {
    // The other journeys expect the demo as it was (the admin's session may have ended: a new one, by password).
    const login = await page.request.post('/api/auth/login', { data: { username: 'demo.admin', password: 'demo' } });
    const { token } = (await login.json()) as { token: string };
    const restored = await page.request.post(`/api/paineis/${target.id}/grupos`, {
      headers: { authorization: `Bearer ${token}` },
      data: groupsBefore.map((g) => g.id),
    });
    expect(restored.status()).toBe(200);
  }
});

test('/acessos explains a person: the panels they open and why, their RLS roles, and why not the others', async ({
  page,
}) => {
  await signInAs(page, ADMIN);
  await page.getByRole('link', { name: 'Acessos', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Acessos' })).toBeVisible();
  await expect(page.getByText('Escolha uma pessoa para ver os painéis que ela pode abrir e por quê.')).toBeVisible();

  await page.getByRole('combobox', { name: 'Buscar pessoa' }).fill('bruno demo');
  await page.getByRole('option', { name: new RegExp(USER) }).click();
  await expect(page).toHaveURL(new RegExp(`/acessos\\?pessoa=${USER_ID}$`));
  await expect(page.getByRole('heading', { level: 2, name: USER })).toBeVisible();

  const opens = page.getByRole('region', { name: /^Painéis que pode abrir \(\d+\)$/ });
  const metas = opens
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: 'Metas da Equipe Comercial', exact: true }) });
  await expect(metas).toContainText('Vínculo direto');
  await expect(metas).toContainText(NESTED_REASON);
  await expect(metas).toContainText('Gerente Regional: E-mail no papel');

  const refused = page.getByRole('region', { name: /^Painéis que não pode abrir \(\d+\)$/ });
  const why = refused.getByLabel('Por que não pode abrir…');
  const firstRefused = (await why.locator('option').nth(1).textContent())!;
  await why.selectOption({ label: firstRefused });
  await expect(refused.getByText(`${firstRefused}:`)).toBeVisible();
  await expect(refused).toContainText(NOT_LINKED);

  // The address keeps the choice: opened again, it explains the same person.
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: USER })).toBeVisible();
});
