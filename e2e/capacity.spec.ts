import type { Page } from '@playwright/test';
import type { Capacidade } from '@paineis/contract/capacity';
import { expect, signInAs, test } from './fixtures.ts';

// The Power BI capacity on the demo server (docs/decisions/024-capacity-cost.md): its stand-in Azure resumes in 10 s.
// An administrator pauses it at /capacidade; a person then opens a panel, reads that Power BI is starting, and the
// report loads once the capacity runs. The journey shares the server with the others: the capacity is left running.

const ADMIN = 'Ana Demonstração';
const USER = 'Bruno Demonstração';
const PANEL = 'Vendas por Região';

async function adminHeaders(page: Page) {
  const login = await page.request.post('/api/auth/login', { data: { username: 'demo.admin', password: 'demo' } });
  const { token } = (await login.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

async function capacityState(page: Page) {
  const answer = await page.request.get('/api/capacidade', { headers: await adminHeaders(page) });
  return ((await answer.json()) as Capacidade).estado;
}

test.afterAll(async ({ browser }) => {
  // Should the journey stop half-way, the next ones still find a running capacity.
  const page = await browser.newPage();
  try {
    const headers = await adminHeaders(page);
    await expect.poll(() => capacityState(page), { timeout: 20_000 }).not.toMatch(/pausando|retomando|escalando/);
    if ((await capacityState(page)) === 'pausada') await page.request.post('/api/capacidade/retomar', { headers });
    await expect.poll(() => capacityState(page), { timeout: 30_000 }).toBe('ativa');
  } finally {
    await page.close();
  }
});

test('an administrator pauses the capacity; a person opens a panel, reads that Power BI is starting, and it loads', async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(90_000);
  // The browser's own line for the 503 the opening answers while the capacity resumes.
  consoleErrors.allow(/status of 503/);
  await page.setViewportSize({ width: 1280, height: 860 });

  await signInAs(page, ADMIN);
  await page.getByRole('link', { name: 'Capacidade', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Capacidade do Power BI' })).toBeVisible();
  // The state card (the history below names states too).
  const state = page.locator('.card', { has: page.locator('.card-header', { hasText: /^Estado$/ }) });
  await expect(state.getByText('Ativa', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Pausar', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Pausar a capacidade' });
  await confirm.getByRole('button', { name: 'Pausar', exact: true }).click();
  await expect(confirm).toBeHidden();
  // Live: the state follows Azure's, from pausing to paused.
  await expect(state.getByText('Pausada', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Retomar', exact: true })).toBeEnabled();

  await page.getByRole('button', { name: ADMIN }).click();
  await page.getByRole('button', { name: 'Sair' }).click();
  await signInAs(page, USER);
  await page.getByRole('link', { name: `Visualizar painel ${PANEL}`, exact: true }).click();
  await expect(page.getByText(/^Iniciando o Power BI… isso leva cerca de \d+ segundos$/)).toBeVisible();
  // The viewer waits as told and embeds once the capacity runs: the report's page is drawn.
  await expect(page.frameLocator('.report-frame iframe').locator('section:not([hidden]) h1')).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText(/^Iniciando o Power BI/)).toBeHidden();
  expect(await capacityState(page)).toBe('ativa');

  // The history says who woke it, and why.
  const history = await page.request.get('/api/capacidade/historico', { headers: await adminHeaders(page) });
  const changes = (await history.json()) as { motivo: string; estado: string }[];
  expect(changes.slice(0, 4).map((c) => `${c.motivo} ${c.estado}`)).toEqual(
    expect.arrayContaining(['abertura retomando', 'administrador pausando']),
  );
});
