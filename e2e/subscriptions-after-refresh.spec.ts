import { readFile } from 'node:fs/promises';
import type { APIRequestContext } from '@playwright/test';
import type { Assinaturas, CaixaDeSaida, MensagemDemonstracao } from '@paineis/contract/subscriptions';
import { extractText, getDocumentProxy } from 'unpdf';
import { expect, signInAs, test } from './fixtures.ts';

// A subscription sent after each refresh of the data (docs/requirements.md#subscriptions-after-refresh), on the demo:
// the stand-in's dataset of 'Metas da Equipe Comercial' completes a refresh every 3 minutes, and the message reaches
// 'Caixa de saída (demonstração)' after the next one.
const ADMIN = 'Ana Demonstração';
const USER = 'Bruno Demonstração';
const USER_EMAIL = 'demo.usuario@contoso.com.br';
const PANEL = 'Metas da Equipe Comercial';
const SUBJECT = `${PANEL} — `;
/** The demo's refresh cycle of this panel's dataset (DEMO_REFRESH_CYCLES): aligned on the epoch, 20 s long. */
const CYCLE_MS = 3 * 60_000;
const REFRESH_MS = 20_000;
/** The deliveries poll (SUBSCRIPTION_POLL_SECONDS, 30 by default). */
const POLL_MS = 30_000;

/** The end of the last refresh of the cycle that ended at or before `at` (ms). */
const refreshEndAtOrBefore = (at: number) => Math.floor((at - REFRESH_MS) / CYCLE_MS) * CYCLE_MS + REFRESH_MS;

async function headersOf(request: APIRequestContext, username: string) {
  const login = await request.post('/api/auth/login', { data: { username, password: 'demo' } });
  const { token } = (await login.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

async function subscriptionsOf(request: APIRequestContext) {
  const headers = await headersOf(request, 'demo.usuario');
  const { assinaturas } = (await (await request.get('/api/assinaturas', { headers })).json()) as Assinaturas;
  return { headers, mine: assinaturas.filter((a) => a.nomePainel === PANEL) };
}

/** This journey's messages, oldest first: the demo outbox also holds those of 'Produção Diária' (a seeded subscription, alerts). */
async function messagesOf(request: APIRequestContext, headers: Record<string, string>) {
  const { mensagens } = (await (
    await request.get('/api/demonstracao/caixa-de-saida', { headers })
  ).json()) as CaixaDeSaida;
  return mensagens
    .filter((m) => m.assunto.startsWith(SUBJECT) && m.para.some((to) => to.includes(USER_EMAIL)))
    .toSorted((a, b) => Date.parse(a.enviadaEm) - Date.parse(b.enviadaEm));
}

/** The subscription the journey made is removed, whatever happened, so that it sends nothing to later journeys. */
test.afterEach(async ({ request }) => {
  const { headers, mine } = await subscriptionsOf(request);
  for (const a of mine) await request.delete(`/api/assinaturas/${a.id}`, { headers });
});

test("a person subscribes 'Após cada atualização dos dados' and the message reaches the outbox after the stand-in's next refresh, once", async ({
  page,
  browser,
  request,
}) => {
  // The stand-in refreshes every 3 minutes: up to one cycle to wait, then the reading (up to a minute in the demo), the
  // deliveries poll and the rendering, then two more polls to see no second message for that refresh.
  test.setTimeout(390_000);
  await signInAs(page, USER);
  await page.getByPlaceholder('Buscar painel...').fill(PANEL);
  await page.getByRole('link', { name: `Visualizar painel ${PANEL}`, exact: true }).click();

  await page.getByRole('button', { name: 'Assinar', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Assinar por e-mail' });
  await expect(dialog.getByLabel('Hora', { exact: true })).toBeVisible();
  await dialog.getByLabel('Frequência').selectOption({ label: 'Após cada atualização dos dados' });
  // No hour: the data says when.
  await expect(dialog.getByLabel('Hora', { exact: true })).toBeHidden();
  await expect(dialog.getByRole('checkbox', { name: 'Enviar no máximo uma vez a cada' })).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Assinar', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Assinatura criada.')).toBeVisible();

  await page.getByRole('link', { name: 'Ver minhas assinaturas' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Minhas assinaturas' })).toBeVisible();
  const item = page.getByRole('listitem', { name: PANEL });
  await expect(item).toContainText('Quando os dados forem atualizados');
  await expect(item).not.toContainText('no máximo');
  await expect(item).toContainText('após a próxima atualização');
  await expect(item).toContainText('Ativa');

  const { mine } = await subscriptionsOf(request);
  expect(mine).toHaveLength(1);
  const [subscription] = mine;
  expect(subscription).toMatchObject({ frequencia: 'apos-atualizacao', hora: null, intervaloHoras: null });
  const createdAt = Date.parse(subscription!.criadaEm);

  // The administrator's outbox, read until the message comes.
  const adminHeaders = await headersOf(request, 'demo.admin');
  let first: MensagemDemonstracao | undefined;
  await expect
    .poll(
      async () => {
        first = (await messagesOf(request, adminHeaders))[0];
        return first !== undefined;
      },
      { message: `a mensagem de ${PANEL} na caixa de saída`, timeout: CYCLE_MS + 120_000, intervals: [2_000] },
    )
    .toBe(true);
  const sentAt = Date.parse(first!.enviadaEm);
  const refreshEnd = refreshEndAtOrBefore(sentAt);
  const delay = (sentAt - refreshEnd) / 1000;
  // In the run's output too (the list reporter prints a test's stdout).
  process.stdout.write(
    `Atraso do fim da atualização (${new Date(refreshEnd).toISOString()}) à mensagem: ${delay.toFixed(1)} s\n`,
  );
  test.info().annotations.push({
    type: 'atraso',
    description: `${delay.toFixed(1)} s do fim da atualização (${new Date(refreshEnd).toISOString()}) à mensagem (${first!.enviadaEm})`,
  });
  // For a refresh that ended after the subscription was made, and named in the subject, in the subscription's zone.
  expect(sentAt).toBeGreaterThan(createdAt);
  expect(refreshEnd).toBeGreaterThanOrEqual(createdAt);
  const moment = (at: number) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: subscription!.fusoHorario,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(new Date(at))
        .map((p) => [p.type, p.value]),
    );
    return `${parts.day}/${parts.month}/${parts.year} às ${parts.hour}:${parts.minute}`;
  };
  expect(first!.assunto).toBe(`${SUBJECT}${moment(refreshEnd)}`);
  expect(first!.anexos).toEqual([expect.objectContaining({ tipo: 'application/pdf', nome: `${PANEL}.pdf` })]);

  // The administrator reads it in 'Caixa de saída (demonstração)'.
  const adminContext = await browser.newContext({ acceptDownloads: true });
  const admin = await adminContext.newPage();
  try {
    await signInAs(admin, ADMIN);
    await admin.goto('/caixa-de-saida');
    await expect(admin.getByRole('heading', { level: 1, name: 'Caixa de saída (demonstração)' })).toBeVisible();
    const row = admin.getByRole('row').filter({ hasText: USER_EMAIL }).filter({ hasText: first!.assunto });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: first!.assunto, exact: true }).click();
    const body = admin.frameLocator('iframe[title^="Mensagem:"]');
    await expect(body.getByText(/Olá, Bruno Demonstração\./)).toBeVisible();
    await expect(body.getByText(`Os dados foram atualizados em ${moment(refreshEnd)}`, { exact: false })).toBeVisible();
    await expect(body.getByText('após cada atualização dos dados', { exact: false })).toBeVisible();

    const download = admin.waitForEvent('download');
    await admin.getByRole('button', { name: new RegExp(`^Baixar ${PANEL}\\.pdf`) }).click();
    const file = await readFile(await (await download).path());
    expect(file.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(file)), { mergePages: true });
    expect(text).toContain(`Identidade: ${USER_EMAIL}`);
  } finally {
    await adminContext.close();
  }

  // Once per refresh: two more deliveries polls and readings later, that refresh has still one message, and any
  // later one is for a later refresh.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, sentAt + 2 * POLL_MS + 5_000 - Date.now())));
  const all = await messagesOf(request, adminHeaders);
  expect(all.filter((m) => m.assunto === first!.assunto)).toHaveLength(1);
  expect(new Set(all.map((m) => m.assunto)).size).toBe(all.length);
  for (const m of all) expect(Date.parse(m.enviadaEm)).toBeGreaterThanOrEqual(sentAt);
});
