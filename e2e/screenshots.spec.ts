import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, signInAs, test } from './fixtures.ts';

// `npm run screenshots` refreshes docs/screenshots from the real app; the normal test run skips this file.
test.skip(!process.env.SCREENSHOTS, 'só com npm run screenshots');

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'screenshots');
const shot = (page: Page, name: string, fullPage = false) =>
  page.screenshot({ path: path.join(dir, `${name}.png`), fullPage, animations: 'disabled' });

test('every screen', async ({ page, consoleErrors }) => {
  // The demo's panel whose report was deleted answers 503 when opened, which the browser logs.
  consoleErrors.allow(/status of 503/);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Entrar com Microsoft' })).toBeVisible();
  await shot(page, 'login');

  await page.getByRole('button', { name: 'Entrar com Microsoft' }).click();
  await expect(page.getByRole('button', { name: /Ana Demonstração/ })).toBeVisible();
  await shot(page, 'stand-in-sign-in');
  await page.getByRole('button', { name: /Ana Demonstração/ }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('link', { name: 'Visualizar painel Vendas por Região' })).toBeVisible();
  await shot(page, 'lista-paineis-admin');

  await page.getByRole('button', { name: 'Usuários do painel Vendas por Região' }).click();
  await expect(page.getByRole('checkbox').first()).toBeVisible();
  await shot(page, 'vincular-usuarios');
  await page.getByRole('button', { name: 'Cancelar' }).click();

  // 'Metas da Equipe Comercial' is open to the group 'Comercial' in the demo.
  await page.getByRole('button', { name: 'Usuários do painel Metas da Equipe Comercial' }).click();
  await page.getByRole('tab', { name: /^Grupos/ }).click();
  await expect(page.getByRole('checkbox', { name: 'Selecionar Comercial', exact: true })).toBeChecked();
  await shot(page, 'vincular-grupos');
  // The demo's public Microsoft 365 group, marked: anyone may join it.
  await page.getByPlaceholder('Buscar grupo...').fill('projeto');
  await expect(page.getByText('Público', { exact: true }).first()).toBeVisible();
  await shot(page, 'grupo-publico');
  await page.getByRole('button', { name: 'Cancelar' }).click();

  await page.getByRole('button', { name: 'Acesso ao painel Metas da Equipe Comercial' }).click();
  const access = page.getByRole('dialog', { name: 'Quem tem acesso - Metas da Equipe Comercial' });
  await access.getByPlaceholder('Filtrar por nome, e-mail ou grupo...').fill('comercial');
  await expect(access.getByRole('row').filter({ hasText: 'Bruno Demonstração' })).toBeVisible();
  await shot(page, 'quem-tem-acesso');
  await access.getByRole('button', { name: 'Fechar' }).last().click();
  await expect(access).toBeHidden();

  await page.getByRole('button', { name: 'RLS do painel Vendas por Região' }).click();
  await expect(page.getByRole('button', { name: 'Salvar Configurações' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Remover papel/ }).first()).toBeVisible();
  await shot(page, 'configuracao-rls');
  // A role Power BI would refuse (a comma in its name): the modal names the problem before anything is saved.
  await page.getByPlaceholder('Nome do papel (ex.: Vendas)').fill('Vendas, Sul');
  await page.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(page.getByLabel('Limites do Power BI')).toBeVisible();
  await shot(page, 'configuracao-rls-limites');
  await page.getByRole('button', { name: 'Cancelar' }).click();

  await page.getByRole('button', { name: 'Excluir painel Funil de Oportunidades' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await shot(page, 'confirmar-exclusao');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();

  await page.getByRole('link', { name: 'Novo Painel' }).click();
  await expect(page.getByRole('heading', { name: 'Novo Painel' })).toBeVisible();
  await shot(page, 'novo-painel');

  await page.goto('/editar/1');
  await expect(page.getByRole('heading', { name: 'Editar Painel' })).toBeVisible();
  await expect(page.getByLabel('Nome do painel')).not.toHaveValue('');
  await shot(page, 'editar-painel');

  await page.goto('/classificacoes');
  await expect(page.getByRole('cell', { name: /^Comercial/ })).toBeVisible();
  await shot(page, 'classificacoes');

  await page.goto('/acessos?pessoa=demo-usuario');
  await expect(page.getByRole('heading', { level: 2, name: 'Bruno Demonstração' })).toBeVisible();
  await page.getByLabel('Por que não pode abrir…').selectOption({ index: 1 });
  await shot(page, 'acessos', true);

  // The Power BI side: the demo's second workspace holds reports that are not panels yet; in 'Financeiro', 'DRE
  // Consolidada' failed its last refresh and 'Orçamento vs Realizado' is refreshing; the report of 'Painel de Testes
  // da Equipe de BI' was deleted.
  await page.goto('/importar');
  await page.getByLabel('Workspace').selectOption({ label: 'Relatórios Financeiros' });
  await page.getByRole('checkbox', { name: 'Despesas Corporativas', exact: true }).check();
  await page.getByRole('checkbox', { name: 'Projeção de Receita', exact: true }).check();
  await expect(page.getByRole('button', { name: 'Importar (2)' })).toBeEnabled();
  await shot(page, 'importar');

  await page.goto('/');
  // The first of one or two: 'Produção Diária', refreshed on a cycle (DEMO_REFRESH_CYCLES), fails now and then too.
  await expect(page.getByText('Falha na atualização').first()).toBeVisible();
  // Down to 'Financeiro', whose rows show the failed refresh and the one in progress.
  await page.mouse.move(640, 500);
  await page.mouse.wheel(0, 640);
  await expect(page.getByRole('heading', { name: 'Financeiro' })).toBeInViewport();
  await page.mouse.move(0, 0);
  await shot(page, 'lista-atualizacoes');

  await page.getByRole('link', { name: 'Visualizar painel DRE Consolidada', exact: true }).click();
  await expect(page.frameLocator('iframe').locator('section:not([hidden]) h1')).toBeVisible();
  await expect(page.locator('.viewer header').getByText(/Atualizado em/)).toBeVisible();
  await shot(page, 'visualizar-atualizado');

  await page.goto('/');
  await page.getByPlaceholder('Buscar painel...').fill('Painel de Testes');
  await page.getByRole('link', { name: 'Visualizar painel Painel de Testes da Equipe de BI', exact: true }).click();
  await expect(page.getByText('Este painel está temporariamente indisponível.')).toBeVisible();
  await shot(page, 'painel-indisponivel');

  await page.goto('/visualizar/8');
  await expect(page.frameLocator('iframe').locator('section:not([hidden]) h1')).toBeVisible();
  await shot(page, 'visualizar-painel');

  await page.goto('/');
  await page.getByRole('link', { name: 'Visualizar painel Vendas por Região' }).click();
  await page.getByRole('combobox', { name: 'Visualizar como' }).selectOption('Gerente Regional');
  await expect(page.frameLocator('iframe').locator('#identidade-papeis')).toHaveText('Papéis: Gerente Regional');
  await shot(page, 'visualizar-como-papel');
  await page.getByRole('combobox', { name: 'Visualizar como' }).selectOption({ index: 0 });

  // A view of the panel, saved by the administrator for everyone who may open it (Bruno sees it below).
  await page.frameLocator('iframe').getByLabel('Região').selectOption('Norte');
  await page.getByRole('button', { name: 'Salvar visão' }).click();
  const saveView = page.getByRole('dialog', { name: 'Salvar visão' });
  await saveView.getByLabel('Nome da visão').fill('Norte — visão da diretoria');
  await saveView.getByLabel('Visão do painel (todos que podem abrir o painel a veem)').check();
  await shot(page, 'salvar-visao-do-painel');
  await saveView.getByRole('button', { name: 'Salvar' }).click();
  await expect(saveView).toBeHidden();

  await page.setViewportSize({ width: 375, height: 780 });
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Visualizar painel Vendas por Região' })).toBeVisible();
  await shot(page, 'lista-paineis-celular');
  await page.getByRole('link', { name: 'Visualizar painel Vendas por Região' }).click();
  await expect(page.frameLocator('iframe').locator('#identidade-usuario')).toBeVisible();
  await shot(page, 'visualizar-celular');

  // Usage and audit. A classification created and deleted again, so that the audit shows an administrator's changes
  // and the demo data stays as it was.
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto('/classificacoes');
  await page.getByRole('textbox', { name: 'Nome' }).fill('Planejamento');
  await page.getByRole('textbox', { name: 'Descrição' }).fill('Orçamento e metas do próximo ano.');
  await page.getByRole('button', { name: 'Criar Classificação' }).click();
  await page.getByRole('button', { name: 'Excluir Planejamento' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByRole('button', { name: 'Excluir Planejamento' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Uso', exact: true }).click();
  const mostViewed = page.getByRole('region', { name: 'Painéis mais vistos' });
  // Views are written within a second of the opening.
  await expect(async () => {
    await page.reload();
    await expect(mostViewed.getByRole('button', { name: 'Vendas por Região' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 10_000 });
  await expect(page.getByRole('application', { name: 'Visualizações e pessoas por dia' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Pessoas sem login no período' }).getByRole('table')).toBeVisible();
  await shot(page, 'uso', true);

  await page.getByRole('link', { name: 'Auditoria', exact: true }).click();
  const created = page.getByRole('row').filter({ hasText: 'Planejamento' }).filter({ hasText: 'Criação' });
  const details = created.getByRole('button', { name: /Detalhes/ });
  await details.click();
  await expect(page.getByRole('columnheader', { name: 'Depois' })).toBeVisible();
  // The pressed button's colours once their transition has ended, without the pointer over it.
  await page.mouse.move(0, 0);
  await expect(details).toHaveCSS('background-color', 'rgb(108, 117, 125)');
  await shot(page, 'auditoria');

  // The demo's A1 capacity: its state, the month's hours and cost, the policy and the history.
  await page.getByRole('link', { name: 'Capacidade', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Capacidade do Power BI' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Estado' }).getByText('A1', { exact: true })).toBeVisible();
  await expect(page.getByRole('application', { name: 'Horas ativa por dia' })).toBeVisible();
  await shot(page, 'capacidade', true);

  // Subscriptions: the administrator's own (with recipients) sent now, then every subscription, a new one, the outbox.
  await page.goto('/assinaturas');
  const comercial = page.getByRole('listitem', { name: 'Metas da Equipe Comercial' });
  await comercial.getByRole('button', { name: /^Enviar agora/ }).click();
  await expect
    .poll(
      async () => {
        await page.reload();
        return (await page.getByRole('listitem', { name: 'Metas da Equipe Comercial' }).textContent()) ?? '';
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toMatch(/Último envio\s*\d{2}\/\d{2}\/\d{4}/);
  await page.goto('/assinaturas/todas');
  await expect(page.getByRole('heading', { level: 1, name: 'Assinaturas' })).toBeVisible();
  await expect(page.getByText('Vendas por Região').first()).toBeVisible();
  await shot(page, 'assinaturas-todas');
  await page.getByRole('button', { name: 'Nova assinatura' }).click();
  await expect(page.getByRole('dialog', { name: 'Nova assinatura para pessoas e grupos' })).toBeVisible();
  await shot(page, 'nova-assinatura');
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: 'Caixa de saída (demonstração)' }).click();
  await page
    .getByRole('button', { name: /^Metas da Equipe Comercial — / })
    .first()
    .click();
  await expect(page.frameLocator('iframe[title^="Mensagem:"]').getByText(/^Olá, /)).toBeVisible();
  await shot(page, 'caixa-de-saida', true);

  await page.getByRole('button', { name: 'Ana Demonstração' }).click();
  await page.getByRole('button', { name: 'Sair' }).click();
  await signInAs(page, 'Bruno Demonstração');
  await expect(page.getByRole('link', { name: 'Visualizar painel Vendas por Região' })).toBeVisible();
  await shot(page, 'lista-paineis-usuario');

  await page.getByRole('link', { name: 'Visualizar painel Vendas por Região' }).click();
  await expect(page.frameLocator('iframe').locator('#identidade-usuario')).toBeVisible();
  await shot(page, 'visualizar-painel-usuario');

  // The personal features: a saved view (the slicer on 'Sul', another page), its menu, an export under way; then favourites and
  // recents on the list. What is saved here is removed again at the end.
  const report = page.frameLocator('iframe');
  await report.getByLabel('Região').selectOption('Sul');
  await page
    .getByRole('navigation', { name: 'Páginas do relatório' })
    .getByRole('button', { name: 'Detalhes' })
    .click();
  await page.getByRole('button', { name: 'Salvar visão' }).click();
  await page.getByRole('dialog', { name: 'Salvar visão' }).getByLabel('Nome da visão').fill('Sul — detalhes');
  await page.getByRole('dialog', { name: 'Salvar visão' }).getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByRole('dialog', { name: 'Salvar visão' })).toBeHidden();
  await page.getByRole('button', { name: 'Visões' }).click();
  await expect(page.getByRole('group', { name: 'Sul — detalhes' })).toBeVisible();
  await shot(page, 'visoes-salvas');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Exportar', exact: true }).click();
  await page.getByRole('menuitem', { name: 'PDF' }).click();
  await expect(page.getByText(/^Exportando… \d+%$/)).toBeVisible();
  await shot(page, 'exportando');
  await expect(page.getByText(/^Exportando…/)).toHaveCount(0, { timeout: 20_000 });

  await page.getByRole('button', { name: 'Exportar dados', exact: true }).click();
  const dataExport = page.getByRole('dialog', { name: 'Exportar dados' });
  await dataExport.getByLabel(/^Vendas por mês/).check();
  await dataExport.getByLabel(/^Dados subjacentes/).check();
  await shot(page, 'exportar-dados');
  await page.keyboard.press('Escape');
  await expect(dataExport).toBeHidden();

  await page.getByRole('button', { name: 'Assinar', exact: true }).click();
  const subscribeDialog = page.getByRole('dialog', { name: 'Assinar por e-mail' });
  await expect(subscribeDialog).toBeVisible();
  // The kind sent after each refresh, limited to one message every 6 hours (docs/requirements.md#subscriptions-after-refresh).
  await subscribeDialog.getByLabel('Frequência').selectOption('apos-atualizacao');
  await subscribeDialog.getByLabel('Enviar no máximo uma vez a cada').check();
  await subscribeDialog.getByLabel('Intervalo mínimo entre envios, em horas').fill('6');
  await shot(page, 'assinar');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Visões' }).click();
  await page.getByRole('group', { name: 'Sul — detalhes' }).getByRole('button', { name: 'Excluir' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();

  await page.goto('/');
  for (const name of ['Vendas por Região', 'Ranking de Vendedores']) {
    await page
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: `Visualizar painel ${name}`, exact: true }) })
      .first()
      .getByRole('button', { name: 'Favoritar' })
      .click();
  }
  await expect(page.getByRole('region', { name: 'Favoritos' }).getByRole('link', { name: /^Visualizar/ })).toHaveCount(
    2,
  );
  await expect(page.getByRole('region', { name: 'Recentes' })).toBeVisible();
  await shot(page, 'favoritos-recentes');
  await page.goto('/assinaturas');
  await expect(page.getByRole('heading', { level: 1, name: 'Minhas assinaturas' })).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Vendas por Região' })).toBeVisible();
  await shot(page, 'minhas-assinaturas');
  await page.goto('/');
  for (let i = 0; i < 2; i++) {
    await page
      .getByRole('region', { name: 'Favoritos' })
      .getByRole('button', { name: 'Remover dos favoritos' })
      .first()
      .click();
  }
  await expect(page.getByRole('region', { name: 'Favoritos' })).toHaveCount(0);
});
