import type { APIRequestContext, Page } from '@playwright/test';
import { expect, signInAs, test } from './fixtures.ts';

/**
 * Text people type is shown as text: markup in a panel name, a classification's name and description and an
 * RLS role name appears literally on every screen that shows it (and in the demo report's identity), and
 * never runs.
 */
const PAYLOAD = '<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>';
/** A role name holds at most 50 characters (Power BI's limit): the payload's first element. */
const ROLE = '<img src=x onerror="window.__xss=1">';
const PANEL = `Painel ${PAYLOAD}`;
const CLASSIFICATION = `Classe ${PAYLOAD}`;

interface Created {
  token: string;
  panelId?: number;
  classificationId?: number;
}

async function api<T>(request: APIRequestContext, token: string, method: string, url: string, data?: unknown) {
  const res = await request.fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBeLessThan(300);
  return (res.status() === 204 ? undefined : await res.json()) as T;
}

/** Nothing of the payload ran, in the page or in any frame, and none of its elements exists. */
async function expectInert(page: Page) {
  for (const frame of page.frames()) {
    expect(await frame.evaluate(() => (window as { __xss?: unknown }).__xss), frame.url()).toBeUndefined();
    expect(await frame.locator('img[src="x"], script:text("__xss")').count(), frame.url()).toBe(0);
  }
}

test('markup in a panel name, a classification and an RLS role is shown as text and never runs', async ({
  page,
  request,
}) => {
  await signInAs(page, 'Ana Demonstração');
  const created: Created = { token: (await page.evaluate(() => localStorage.getItem('token')))! };
  expect(created.token).toBeTruthy();
  try {
    // Through the API, as the administrator: a classification, and a panel in it on a report the demo can show.
    const { token } = created;
    const panels = await api<Array<{ nomePainel: string; workspaceId: string; reportId: string }>>(
      request,
      token,
      'GET',
      '/api/paineis',
    );
    const report = panels.find((p) => p.nomePainel === 'Vendas por Região')!;
    const classification = await api<{ id: number; nome: string; descricao: string }>(
      request,
      token,
      'POST',
      '/api/classificacoes',
      { nome: CLASSIFICATION, descricao: PAYLOAD },
    );
    created.classificationId = classification.id;
    expect(classification).toMatchObject({ nome: CLASSIFICATION, descricao: PAYLOAD });
    const panel = await api<{ id: number; nomePainel: string }>(request, token, 'POST', '/api/paineis', {
      nomePainel: PANEL,
      workspaceId: report.workspaceId,
      reportId: report.reportId,
      usaRls: true,
      classificacaoId: classification.id,
      rlsConfigurations: [{ roleName: ROLE, userEmails: ['demo.admin@contoso.com.br'] }],
    });
    created.panelId = panel.id;
    expect(panel.nomePainel).toBe(PANEL);

    // The list: the panel's name, its classification's name and description.
    await page.reload();
    const viewLink = page.getByRole('link', { name: `Visualizar painel ${PANEL}`, exact: true });
    await expect(viewLink).toBeVisible();
    await expect(page.getByText(PANEL, { exact: true })).toBeVisible();
    await expect(page.getByText(CLASSIFICATION, { exact: true }).first()).toBeVisible();
    await expect(page.getByText(PAYLOAD, { exact: true }).first()).toBeVisible();
    await expectInert(page);

    // The RLS modal: its title and the role.
    await page.getByRole('button', { name: `RLS do painel ${PANEL}`, exact: true }).click();
    const rls = page.getByRole('dialog', { name: `Configuração RLS - ${PANEL}` });
    await expect(rls).toBeVisible();
    await expect(rls.getByText(ROLE, { exact: true }).first()).toBeVisible();
    await expect(rls.getByText('demo.admin@contoso.com.br')).toBeVisible();
    await expectInert(page);
    await rls.getByRole('button', { name: 'Cancelar' }).click();
    await expect(rls).toBeHidden();

    // The classifications screen.
    await page.getByRole('link', { name: 'Classificações' }).click();
    await expect(page.getByRole('heading', { name: /Gerenciar Classificações/ })).toBeVisible();
    await expect(page.getByRole('cell', { name: `${CLASSIFICATION} 1 painel`, exact: true })).toBeVisible();
    await expect(page.getByRole('cell', { name: PAYLOAD, exact: true })).toBeVisible();
    await expectInert(page);

    // The viewer: its header, the role chooser and the identity the demo report shows.
    await page.getByRole('link', { name: 'Início' }).click();
    await page.getByRole('link', { name: `Visualizar painel ${PANEL}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/visualizar/${panel.id}$`));
    await expect(page.getByRole('heading', { name: PANEL, exact: true })).toBeVisible();
    const chooser = page.getByRole('combobox', { name: 'Visualizar como' });
    await expect(chooser.locator('option', { hasText: ROLE })).toHaveCount(1);
    const reportFrame = page.frameLocator('iframe');
    await expect(reportFrame.locator('#identidade-papeis')).toHaveText(`Papéis: ${ROLE}`);
    await chooser.selectOption(ROLE);
    await expect(reportFrame.locator('#identidade-papeis')).toHaveText(`Papéis: ${ROLE}`);
    await expectInert(page);
  } finally {
    if (created.panelId) await api(request, created.token, 'DELETE', `/api/paineis/${created.panelId}`);
    if (created.classificationId) {
      await api(request, created.token, 'DELETE', `/api/classificacoes/${created.classificationId}`);
    }
  }
});
