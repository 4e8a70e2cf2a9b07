import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Classificacao } from '@paineis/contract/classifications';
import type { ImportarBody, RelatorioPowerBi, ResultadoImportacao } from '@paineis/contract/power-bi';
import { grupoPaineis } from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { signIn, USER } from '../../../test/session.ts';
import { IMPORT_ERROR } from './import-page.tsx';

const COMERCIAL = '0a0a0a0a-0000-4000-8000-0000000000c1';
const FINANCEIRO = '0a0a0a0a-0000-4000-8000-0000000000c2';

const relatorio = (n: number, nome: string, painelId: number | null = null): RelatorioPowerBi => ({
  reportId: `0b0b0b0b-0000-4000-8000-0000000000${n}`,
  nome,
  datasetId: `0c0c0c0c-0000-4000-8000-0000000000${n}`,
  workspaceId: COMERCIAL,
  painelId,
});
const carteira = relatorio(61, 'Carteira de Clientes');
const metas = relatorio(62, 'Metas Comerciais');
const vendas = relatorio(63, 'Vendas', 7);

const CLASSIFICACOES: Classificacao[] = [
  { id: 3, nome: 'Comercial', descricao: null, ativo: true, dataCadastro: '2024-03-01T12:00:00.000Z' },
  { id: 4, nome: 'Financeiro', descricao: null, ativo: true, dataCadastro: '2024-03-01T12:00:00.000Z' },
];

/** The catalogue: two workspaces, Comercial's three reports (Vendas already a panel); counts the report loads. */
function serveCatalogue() {
  const state = { reportLoads: 0, reports: [carteira, metas, vendas] };
  server.use(
    http.get('/api/powerbi/workspaces', () =>
      HttpResponse.json([
        { id: COMERCIAL, nome: 'Área Comercial' },
        { id: FINANCEIRO, nome: 'Financeiro' },
      ]),
    ),
    http.get(`/api/powerbi/workspaces/${COMERCIAL}/relatorios`, () => {
      state.reportLoads += 1;
      return HttpResponse.json(state.reports);
    }),
    http.get(`/api/powerbi/workspaces/${FINANCEIRO}/relatorios`, () => HttpResponse.json([])),
    http.get('/api/classificacoes', () => HttpResponse.json(CLASSIFICACOES)),
  );
  return state;
}

async function openPage() {
  signIn();
  const view = renderApp('/importar');
  expect(await screen.findByRole('heading', { level: 1, name: 'Importar do Power BI' })).toBeInTheDocument();
  return view;
}

const reports = () => screen.getByRole('group', { name: 'Relatórios' });
const importButton = () => screen.getByRole('button', { name: /^Importar \(/ });

describe('/importar: Importar do Power BI', () => {
  it("is reached from the admin's panel list through 'Importar do Power BI'", async () => {
    serveCatalogue();
    server.use(http.get('/api/paineis/agrupados', () => HttpResponse.json([grupoPaineis()])));
    signIn();
    const { user, location } = renderApp('/');
    await user.click(await screen.findByRole('link', { name: 'Importar do Power BI' }));
    expect(location().pathname).toBe('/importar');
    expect(await screen.findByRole('heading', { level: 1, name: 'Importar do Power BI' })).toBeInTheDocument();
  });

  it('is not offered to other users, and the route sends them to the list', async () => {
    server.use(http.get('/api/paineis/agrupados', () => HttpResponse.json([grupoPaineis()])));
    signIn(USER);
    const { location } = renderApp('/importar');
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Painéis Power BI' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Importar do Power BI' })).not.toBeInTheDocument();
  });

  it('picks a workspace, ticks reports, renames one, chooses the classification, imports and sums up', async () => {
    const catalogue = serveCatalogue();
    const sent: ImportarBody[] = [];
    const result: ResultadoImportacao = {
      criados: [
        { painelId: 21, nomePainel: 'Carteira de Clientes', workspaceId: COMERCIAL, reportId: carteira.reportId },
        { painelId: 22, nomePainel: 'Metas do Mês', workspaceId: COMERCIAL, reportId: metas.reportId },
      ],
      ignorados: [],
    };
    server.use(
      http.post('/api/paineis/importar', async ({ request }) => {
        sent.push((await request.json()) as ImportarBody);
        // Now both are panels.
        catalogue.reports = [relatorio(61, 'Carteira de Clientes', 21), relatorio(62, 'Metas Comerciais', 22), vendas];
        return HttpResponse.json(result, { status: 201 });
      }),
    );
    const { user } = await openPage();
    expect(screen.queryByRole('group', { name: 'Relatórios' })).not.toBeInTheDocument();
    expect(importButton()).toBeDisabled();

    await user.selectOptions(await screen.findByRole('combobox', { name: 'Workspace' }), 'Área Comercial');
    const carteiraBox = await within(reports()).findByRole('checkbox', { name: 'Carteira de Clientes' });
    // The registered report is there, not offered.
    const vendasBox = within(reports()).getByRole('checkbox', { name: 'Vendas' });
    expect(vendasBox).toBeDisabled();
    expect(vendasBox).toHaveAccessibleDescription(/Já cadastrado/);
    expect(within(reports()).getByRole('link', { name: 'Ver painel' })).toHaveAttribute('href', '/visualizar/7');

    await user.click(within(reports()).getByRole('checkbox', { name: 'Metas Comerciais' }));
    await user.click(carteiraBox);
    expect(importButton()).toHaveTextContent('Importar (2)');
    const name = screen.getByRole('textbox', { name: 'Nome do painel para Metas Comerciais' });
    expect(name).toHaveValue('Metas Comerciais');
    await user.clear(name);
    await user.type(name, 'Metas do Mês');

    const classification = screen.getByRole('combobox', { name: 'Classificação' });
    expect(
      within(classification)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Comercial', 'Financeiro', 'Sem Classificação']);
    await user.selectOptions(classification, 'Financeiro');
    await user.click(importButton());

    // In the list's order; a name left as the report's is not sent.
    expect(sent).toEqual([
      {
        classificacaoId: 4,
        relatorios: [
          { workspaceId: COMERCIAL, reportId: carteira.reportId },
          { workspaceId: COMERCIAL, reportId: metas.reportId, nomePainel: 'Metas do Mês' },
        ],
      },
    ]);
    const summary = await screen.findByRole('alert', { name: 'Resultado da importação' });
    expect(summary).toHaveFocus();
    expect(summary).toHaveTextContent('2 painéis criados');
    expect(within(summary).getByRole('link', { name: 'Metas do Mês' })).toHaveAttribute('href', '/visualizar/22');
    expect(within(summary).getByRole('link', { name: 'Carteira de Clientes' })).toHaveAttribute(
      'href',
      '/visualizar/21',
    );
    expect(summary).not.toHaveTextContent('ignorado');

    // The reports list is asked again: the new panels show as registered, and nothing stays ticked.
    await waitFor(() => expect(within(reports()).getByRole('checkbox', { name: 'Metas Comerciais' })).toBeDisabled());
    expect(catalogue.reportLoads).toBe(2);
    expect(importButton()).toHaveTextContent('Importar (0)');
    expect(importButton()).toBeDisabled();
  });

  it('sums up the reports skipped, with the reason, and into Sem Classificação', async () => {
    serveCatalogue();
    const sent: ImportarBody[] = [];
    server.use(
      http.post('/api/paineis/importar', async ({ request }) => {
        sent.push((await request.json()) as ImportarBody);
        return HttpResponse.json(
          {
            criados: [],
            ignorados: [
              {
                workspaceId: COMERCIAL,
                reportId: metas.reportId,
                nome: 'Metas Comerciais',
                painelId: 30,
                motivo: "Já cadastrado como o painel 'Metas'.",
              },
            ],
          } satisfies ResultadoImportacao,
          { status: 201 },
        );
      }),
    );
    const { user } = await openPage();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Workspace' }), 'Área Comercial');
    await user.click(await within(reports()).findByRole('checkbox', { name: 'Metas Comerciais' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Classificação' }), 'Sem Classificação');
    await user.click(importButton());
    expect(sent[0]?.classificacaoId).toBe(0);
    const summary = await screen.findByRole('alert', { name: 'Resultado da importação' });
    expect(summary).toHaveTextContent('0 painéis criados');
    expect(summary).toHaveTextContent('1 ignorado');
    expect(summary).toHaveTextContent("Metas Comerciais: Já cadastrado como o painel 'Metas'.");
  });

  it("shows the server's refusal as an alert, keeps the choices, and a workspace without reports says so", async () => {
    serveCatalogue();
    const message = 'Relatórios não encontrados no Power BI ou sem acesso do portal: x. Nenhum painel foi importado.';
    server.use(http.post('/api/paineis/importar', () => HttpResponse.json({ message }, { status: 404 })));
    const { user } = await openPage();
    const workspace = await screen.findByRole('combobox', { name: 'Workspace' });
    await user.selectOptions(workspace, 'Área Comercial');
    await user.click(await within(reports()).findByRole('checkbox', { name: 'Carteira de Clientes' }));
    await user.click(importButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(within(reports()).getByRole('checkbox', { name: 'Carteira de Clientes' })).toBeChecked();
    expect(IMPORT_ERROR).toBe('Erro ao importar os relatórios. Tente novamente.');

    // Another workspace starts with nothing ticked.
    await user.selectOptions(workspace, 'Financeiro');
    expect(await within(reports()).findByText('Nenhum relatório neste workspace.')).toBeInTheDocument();
    expect(importButton()).toHaveTextContent('Importar (0)');
  });

  it("says why the workspaces did not load, with 'Tentar novamente'", async () => {
    let calls = 0;
    server.use(
      http.get('/api/classificacoes', () => HttpResponse.json(CLASSIFICACOES)),
      http.get('/api/powerbi/workspaces', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ message: 'O Power BI não está configurado neste servidor.' }, { status: 503 })
          : HttpResponse.json([{ id: COMERCIAL, nome: 'Área Comercial' }]);
      }),
    );
    const { user } = await openPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('O Power BI não está configurado neste servidor.');
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('combobox', { name: 'Workspace' })).toBeInTheDocument();
  });
});
