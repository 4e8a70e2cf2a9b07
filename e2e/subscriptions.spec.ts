import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { Assinaturas } from '@paineis/contract/subscriptions';
import { extractText, getDocumentProxy } from 'unpdf';
import { expect, signInAs, test } from './fixtures.ts';

// E-mail subscriptions on the demo (docs/requirements.md#subscriptions): the Graph stand-in receives what the portal
// sends, and administrators read it on 'Caixa de saída (demonstração)'.
const ADMIN = 'Ana Demonstração';
const USER = 'Bruno Demonstração';
const USER_EMAIL = 'demo.usuario@contoso.com.br';
/** An RLS panel the demo user may open, with the role 'Sul', and that no demo subscription names. */
const PANEL = 'Inadimplência por Região';

async function apiHeaders(page: Page, username: string) {
  const login = await page.request.post('/api/auth/login', { data: { username, password: 'demo' } });
  const { token } = (await login.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

/** What a journey created is removed, whatever happened. */
async function removeSubscriptionsOf(page: Page, panel: string) {
  const headers = await apiHeaders(page, 'demo.usuario');
  const { assinaturas } = (await (await page.request.get('/api/assinaturas', { headers })).json()) as Assinaturas;
  for (const a of assinaturas.filter((each) => each.nomePainel === panel)) {
    await page.request.delete(`/api/assinaturas/${a.id}`, { headers });
  }
}

test.afterEach(async ({ page }) => removeSubscriptionsOf(page, PANEL));

test('a person subscribes from the viewer, sends it now from /assinaturas, and the message, with their own identity in the PDF, reaches the demo outbox', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signInAs(page, USER);
  await page.getByPlaceholder('Buscar painel...').fill(PANEL);
  await page.getByRole('link', { name: `Visualizar painel ${PANEL}`, exact: true }).click();

  await page.getByRole('button', { name: 'Assinar', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Assinar por e-mail' });
  await dialog.getByLabel('Frequência').selectOption({ label: 'Diária' });
  await dialog.getByLabel('Hora').fill('06:30');
  await dialog.getByRole('button', { name: 'Assinar', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Assinatura criada.')).toBeVisible();

  await page.getByRole('link', { name: 'Ver minhas assinaturas' }).click();
  await expect(page).toHaveURL(/\/assinaturas$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Minhas assinaturas' })).toBeVisible();
  const item = page.getByRole('listitem', { name: PANEL });
  await expect(item).toContainText(/Diária às 06:30/);
  await expect(item).toContainText('Ativa');

  await item.getByRole('button', { name: `Enviar agora a assinatura de ${PANEL}` }).click();
  await expect(page.getByText('Envio solicitado. O e-mail chega em alguns minutos.')).toBeVisible();
  // Delivered: the list says when.
  await expect
    .poll(
      async () => {
        await page.reload();
        return (await page.getByRole('listitem', { name: PANEL }).textContent()) ?? '';
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toMatch(/Último envio\s*\d{2}\/\d{2}\/\d{4}/);

  // The administrator reads it in the demo outbox.
  const adminContext = await browser.newContext({ acceptDownloads: true });
  const admin = await adminContext.newPage();
  try {
    await signInAs(admin, ADMIN);
    await admin.getByRole('link', { name: 'Assinaturas', exact: true }).click();
    await expect(admin.getByRole('heading', { level: 1, name: 'Assinaturas' })).toBeVisible();
    await admin.getByRole('link', { name: 'Caixa de saída (demonstração)' }).click();
    await expect(admin.getByRole('heading', { level: 1, name: 'Caixa de saída (demonstração)' })).toBeVisible();
    const row = admin.getByRole('row').filter({ hasText: USER_EMAIL }).filter({ hasText: PANEL }).first();
    await row.getByRole('button', { name: new RegExp(`^${PANEL} — \\d{2}/\\d{2}/\\d{4}$`) }).click();
    const body = admin.frameLocator('iframe[title^="Mensagem:"]');
    await expect(body.getByText(/Olá, Bruno Demonstração\./)).toBeVisible();
    await expect(body.getByRole('link', { name: 'Abrir o painel' })).toHaveAttribute('href', /\/visualizar\/\d+$/);

    const download = admin.waitForEvent('download');
    await admin.getByRole('button', { name: new RegExp(`^Baixar ${PANEL}\\.pdf`) }).click();
    const file = await readFile(await (await download).path());
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(file)), { mergePages: true });
    // Rendered with the recipient's own effective identity, never the administrator's nor anyone else's.
    expect(text).toContain(`Identidade: ${USER_EMAIL}`);
    expect(text).toMatch(/Papéis: [^\n]*\bSul\b/);
  } finally {
    await adminContext.close();
  }
});
