import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Classificacao } from '@paineis/contract/classifications';
import type { PainelBody, PainelDados } from '@paineis/contract/panels';
import { server } from '../../../test/server.ts';
import { ADMIN, signIn } from '../../../test/session.ts';
import { renderApp } from '../../../test/render-app.tsx';

const WORKSPACE = '11111111-2222-3333-4444-555555555555';
const REPORT = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';

const classificacao = (id: number, nome: string): Classificacao => ({
  id,
  nome,
  descricao: null,
  ativo: true,
  dataCadastro: '2026-01-01T12:00:00.000Z',
});
// The server answers by name; classification 1 need not come first.
const ACTIVE = [classificacao(2, 'Comercial'), classificacao(1, 'Financeiro'), classificacao(3, 'Operações')];

// Built from local time, so the expected text holds in any time zone.
const CADASTRO = new Date(2026, 10, 21, 10, 30).toISOString();
const ATUALIZACAO = new Date(2026, 11, 2, 8, 5).toISOString();

const dados = (overrides: Partial<PainelDados> = {}): PainelDados => ({
  id: 5,
  nomePainel: 'Vendas Mensais',
  workspaceId: WORKSPACE,
  reportId: REPORT,
  usaRls: true,
  permiteExportacao: true,
  permiteExportarDados: true,
  idioma: null,
  classificacaoId: 2,
  classificacaoNome: 'Comercial',
  ordem: 3,
  dataCadastro: CADASTRO,
  dataAtualizacao: ATUALIZACAO,
  rlsConfigurations: [{ roleName: 'Gerentes', userEmails: ['ana@empresa.com.br'] }],
  ...overrides,
});

/** What the server was asked, captured by the handlers. */
let nextOrderAsked: number[];
let posted: PainelBody[];
let put: { id: string; body: PainelBody }[];

function answer({
  classifications = ACTIVE,
  painel = dados(),
}: { classifications?: Classificacao[]; painel?: PainelDados } = {}) {
  server.use(
    http.get('/api/classificacoes', () => HttpResponse.json(classifications)),
    // Where the forms go after saving or cancelling.
    http.get('/api/paineis/agrupados', () => HttpResponse.json([])),
    http.get('/api/paineis/proxima-ordem/:classificacaoId', ({ params }) => {
      const id = Number(params.classificacaoId);
      nextOrderAsked.push(id);
      return HttpResponse.json({ proximaOrdem: 10 + id });
    }),
    http.post('/api/paineis', async ({ request }) => {
      const body = (await request.json()) as PainelBody;
      posted.push(body);
      return HttpResponse.json({ ...dados(), id: 99, nomePainel: body.nomePainel }, { status: 201 });
    }),
    http.get('/api/paineis/:id/dados', () => HttpResponse.json(painel)),
    http.put('/api/paineis/:id', async ({ request, params }) => {
      const body = (await request.json()) as PainelBody;
      put.push({ id: String(params.id), body });
      return HttpResponse.json({ ...painel, ...body });
    }),
  );
}

beforeEach(() => {
  nextOrderAsked = [];
  posted = [];
  put = [];
  signIn(ADMIN);
});

const field = (label: string) => screen.getByLabelText(label);
const classificationSelect = () => screen.getByRole<HTMLSelectElement>('combobox', { name: 'Classificação' });

async function openNewPanel() {
  const view = renderApp('/cadastro');
  expect(await screen.findByRole('heading', { name: 'Novo Painel' })).toBeInTheDocument();
  await screen.findByRole('option', { name: 'Financeiro' });
  return view;
}

/** Types a valid panel named `nomePainel` (WORKSPACE, REPORT) and presses 'Criar Painel'. */
async function createPanel(user: UserEvent, nomePainel: string) {
  await user.type(field('Nome do painel'), nomePainel);
  await user.type(field('Workspace ID'), WORKSPACE);
  await user.type(field('Report ID'), REPORT);
  await user.click(screen.getByRole('button', { name: 'Criar Painel' }));
}

async function openEditPanel(path = '/editar/5') {
  const view = renderApp(path);
  expect(await screen.findByRole('heading', { name: 'Editar Painel' })).toBeInTheDocument();
  await screen.findByDisplayValue('Vendas Mensais');
  return view;
}

describe('/cadastro: Novo Painel', () => {
  it('shows the form with its labels, options and defaults', async () => {
    answer();
    await openNewPanel();
    expect(field('Nome do painel')).toHaveValue('');
    expect(field('Workspace ID')).toHaveValue('');
    expect(field('Report ID')).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: 'Usa RLS (Row Level Security)' })).not.toBeChecked();
    const options = within(classificationSelect()).getAllByRole('option');
    expect(options.map((o) => [o.textContent, o.getAttribute('value')])).toEqual([
      ['Comercial', '2'],
      ['Financeiro', '1'],
      ['Operações', '3'],
      ['Sem Classificação', '0'],
    ]);
    // docs/requirements.md#panel-forms: classification 1 by default.
    expect(classificationSelect()).toHaveValue('1');
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Criar Painel' })).toBeEnabled();
    // The place at the end of the default classification is asked for at once.
    await waitFor(() => expect(nextOrderAsked).toEqual([1]));
  });

  it('picks the first option when classification 1 is not active', async () => {
    answer({ classifications: [classificacao(4, 'Diretoria'), classificacao(7, 'RH')] });
    renderApp('/cadastro');
    await screen.findByRole('option', { name: 'Diretoria' });
    expect(classificationSelect()).toHaveValue('4');
  });

  it('offers only Sem Classificação when no classification is active', async () => {
    answer({ classifications: [] });
    renderApp('/cadastro');
    expect(await screen.findByRole('heading', { name: 'Novo Painel' })).toBeInTheDocument();
    expect(
      within(classificationSelect())
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Sem Classificação']);
    expect(classificationSelect()).toHaveValue('0');
  });

  it('sends the trimmed values, the classification as a number, the next ordem and no RLS roles, then goes to /', async () => {
    answer();
    const { user, location } = await openNewPanel();
    await user.type(field('Nome do painel'), '  Painel de Metas  ');
    await user.selectOptions(classificationSelect(), 'Operações');
    await user.type(field('Workspace ID'), `  ${WORKSPACE.toUpperCase()} `);
    await user.type(field('Report ID'), ` ${REPORT}  `);
    await user.click(screen.getByRole('checkbox', { name: 'Usa RLS (Row Level Security)' }));
    await user.click(screen.getByRole('button', { name: 'Criar Painel' }));

    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(posted).toEqual([
      {
        nomePainel: 'Painel de Metas',
        workspaceId: WORKSPACE.toUpperCase(),
        reportId: REPORT,
        usaRls: true,
        permiteExportacao: true,
        permiteExportarDados: true,
        idioma: null,
        classificacaoId: 3,
        ordem: 13,
        rlsConfigurations: [],
      },
    ]);
    expect(nextOrderAsked).toContain(3);
  });

  it('creates with the defaults: classification 1, last in it, without RLS', async () => {
    answer();
    const { user, location } = await openNewPanel();
    await createPanel(user, 'Resultado');
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(posted).toEqual([
      {
        nomePainel: 'Resultado',
        workspaceId: WORKSPACE,
        reportId: REPORT,
        usaRls: false,
        permiteExportacao: true,
        permiteExportarDados: true,
        idioma: null,
        classificacaoId: 1,
        ordem: 11,
        rlsConfigurations: [],
      },
    ]);
  });

  it("offers 'Permitir exportação (PDF e PowerPoint)', checked by default, and sends it unchecked", async () => {
    answer();
    const { user, location } = await openNewPanel();
    const exportacao = screen.getByRole('checkbox', { name: 'Permitir exportação (PDF e PowerPoint)' });
    expect(exportacao).toBeChecked();
    await user.click(exportacao);
    await createPanel(user, 'Confidencial');
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(posted[0]).toMatchObject({ nomePainel: 'Confidencial', permiteExportacao: false });
  });

  it("offers 'Permitir exportar dados', checked by default, and sends it unchecked", async () => {
    answer();
    const { user, location } = await openNewPanel();
    const dados = screen.getByRole('checkbox', { name: 'Permitir exportar dados' });
    expect(dados).toBeChecked();
    await user.click(dados);
    await createPanel(user, 'Sigiloso');
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(posted[0]).toMatchObject({ nomePainel: 'Sigiloso', permiteExportacao: true, permiteExportarDados: false });
  });

  it('sends Sem Classificação as 0, last among the panels without one', async () => {
    answer();
    const { user, location } = await openNewPanel();
    await user.selectOptions(classificationSelect(), 'Sem Classificação');
    await createPanel(user, 'Avulso');
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(posted[0]).toMatchObject({ classificacaoId: 0, ordem: 10 });
  });

  it('leaves ordem out when the next one cannot be had, so that the server puts the panel last', async () => {
    answer();
    server.use(
      http.get('/api/paineis/proxima-ordem/:classificacaoId', () =>
        HttpResponse.json({ message: 'Falhou' }, { status: 500 }),
      ),
    );
    const { user, location } = await openNewPanel();
    await createPanel(user, 'Resultado');
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(posted).toHaveLength(1);
    expect(posted[0]).not.toHaveProperty('ordem');
  });

  it('requires name, workspace ID and report ID, and sends nothing while they are missing', async () => {
    answer();
    const { user, location } = await openNewPanel();
    await user.type(field('Nome do painel'), '   ');
    await user.click(screen.getByRole('button', { name: 'Criar Painel' }));

    expect(screen.getByText('Nome do painel é obrigatório.')).toBeInTheDocument();
    expect(screen.getByText('Workspace ID é obrigatório.')).toBeInTheDocument();
    expect(screen.getByText('Report ID é obrigatório.')).toBeInTheDocument();
    expect(field('Nome do painel')).toHaveClass('is-invalid');
    expect(field('Workspace ID')).toHaveClass('is-invalid');
    expect(field('Report ID')).toHaveClass('is-invalid');
    // Said to assistive technology too, not only painted red.
    expect(field('Nome do painel')).toBeInvalid();
    expect(field('Workspace ID')).toBeInvalid();
    expect(field('Report ID')).toBeInvalid();
    expect(field('Nome do painel')).toHaveAccessibleDescription('Nome do painel é obrigatório.');
    // The first field in error gets the focus.
    expect(field('Nome do painel')).toHaveFocus();
    expect(location().pathname).toBe('/cadastro');

    // Messages follow the typing once shown.
    await user.type(field('Nome do painel'), 'Painel');
    expect(screen.queryByText('Nome do painel é obrigatório.')).not.toBeInTheDocument();
    expect(field('Nome do painel')).not.toHaveClass('is-invalid');
    expect(field('Nome do painel')).toHaveAttribute('aria-invalid', 'false');
    expect(posted).toEqual([]);
  });

  it('requires the workspace and report IDs to be GUIDs', async () => {
    answer();
    const { user, location } = await openNewPanel();
    await user.type(field('Nome do painel'), 'Painel');
    await user.type(field('Workspace ID'), 'meu-workspace');
    await user.type(field('Report ID'), `${REPORT}0`);
    await user.click(screen.getByRole('button', { name: 'Criar Painel' }));

    expect(
      screen.getByText('Workspace ID deve ser um GUID, como 00000000-0000-0000-0000-000000000000.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Report ID deve ser um GUID, como 00000000-0000-0000-0000-000000000000.'),
    ).toBeInTheDocument();
    expect(field('Workspace ID')).toHaveFocus();
    expect(screen.queryByText('Nome do painel é obrigatório.')).not.toBeInTheDocument();

    await user.clear(field('Workspace ID'));
    await user.type(field('Workspace ID'), WORKSPACE);
    expect(screen.queryByText(/Workspace ID deve ser um GUID/)).not.toBeInTheDocument();
    expect(posted).toEqual([]);
    expect(location().pathname).toBe('/cadastro');
  });

  it('shows the catalogue message and the server message when creating fails, and stays (requirements: error-catalogue)', async () => {
    answer();
    server.use(
      http.post('/api/paineis', () =>
        HttpResponse.json({ message: 'Classificação (classificacaoId) 1 não existe.' }, { status: 400 }),
      ),
    );
    const { user, location } = await openNewPanel();
    await createPanel(user, 'Painel');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Erro ao criar painel. Tente novamente.');
    expect(alert).toHaveTextContent('Classificação (classificacaoId) 1 não existe.');
    expect(location().pathname).toBe('/cadastro');
    expect(screen.getByRole('button', { name: 'Criar Painel' })).toBeEnabled();
  });

  it('shows only the catalogue message when the server gives none (requirements: error-catalogue)', async () => {
    answer();
    server.use(http.post('/api/paineis', () => new HttpResponse(null, { status: 503 })));
    const { user } = await openNewPanel();
    await createPanel(user, 'Painel');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Erro ao criar painel. Tente novamente.');
  });

  it('disables the submit button and shows a spinner while saving', async () => {
    answer();
    server.use(
      http.post('/api/paineis', async () => {
        await delay(100);
        return HttpResponse.json(dados(), { status: 201 });
      }),
    );
    const { user, location } = await openNewPanel();
    await user.type(field('Nome do painel'), 'Painel');
    await user.type(field('Workspace ID'), WORKSPACE);
    await user.type(field('Report ID'), REPORT);
    const submit = screen.getByRole('button', { name: 'Criar Painel' });
    await user.click(submit);
    await waitFor(() => expect(submit).toBeDisabled());
    expect(submit.querySelector('.spinner-border')).not.toBeNull();
    await waitFor(() => expect(location().pathname).toBe('/'));
  });

  it('Cancelar goes back to / without saving', async () => {
    answer();
    const { user, location } = await openNewPanel();
    await user.type(field('Nome do painel'), 'Rascunho');
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(posted).toEqual([]);
  });
});

describe('/editar/{id}: Editar Painel', () => {
  it('shows a spinner while loading, then the form prefilled', async () => {
    answer();
    server.use(
      http.get('/api/paineis/:id/dados', async () => {
        await delay(50);
        return HttpResponse.json(dados());
      }),
    );
    renderApp('/editar/5');
    expect(await screen.findByRole('status')).toHaveTextContent('Carregando...');
    expect(await screen.findByDisplayValue('Vendas Mensais')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Editar Painel' })).toBeInTheDocument();
    expect(field('Workspace ID')).toHaveValue(WORKSPACE);
    expect(field('Report ID')).toHaveValue(REPORT);
    expect(screen.getByRole('checkbox', { name: 'Usa RLS (Row Level Security)' })).toBeChecked();
    await screen.findByRole('option', { name: 'Financeiro' });
    expect(classificationSelect()).toHaveValue('2');
    expect(screen.getByRole('button', { name: 'Atualizar Painel' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeEnabled();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows the id and the dates in pt-BR', async () => {
    answer();
    await openEditPanel();
    expect(screen.getByText('ID: 5')).toBeInTheDocument();
    expect(screen.getByText('Cadastrado em: 21/11/2026 10:30')).toBeInTheDocument();
    expect(screen.getByText('Atualizado em: 02/12/2026 08:05')).toBeInTheDocument();
  });

  it('leaves out Atualizado em when the panel was never updated', async () => {
    answer({ painel: dados({ dataAtualizacao: null }) });
    await openEditPanel();
    expect(screen.getByText('Cadastrado em: 21/11/2026 10:30')).toBeInTheDocument();
    expect(screen.queryByText(/Atualizado em/)).not.toBeInTheDocument();
  });

  it('sends the changes with the same ordem and without rlsConfigurations, then goes to /', async () => {
    answer();
    const { user, location } = await openEditPanel();
    await user.clear(field('Nome do painel'));
    await user.type(field('Nome do painel'), ' Vendas Anuais ');
    await user.click(screen.getByRole('checkbox', { name: 'Usa RLS (Row Level Security)' }));
    await user.click(screen.getByRole('button', { name: 'Atualizar Painel' }));

    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(put).toEqual([
      {
        id: '5',
        body: {
          nomePainel: 'Vendas Anuais',
          workspaceId: WORKSPACE,
          reportId: REPORT,
          usaRls: false,
          permiteExportacao: true,
          permiteExportarDados: true,
          idioma: null,
          classificacaoId: 2,
          ordem: 3,
        },
      },
    ]);
    expect(put[0]!.body).not.toHaveProperty('rlsConfigurations');
    // Unmoved panels keep their place: nothing to ask.
    expect(nextOrderAsked).toEqual([]);
  });

  it("shows the panel's export setting and sends it changed", async () => {
    answer({ painel: dados({ permiteExportacao: false }) });
    const { user, location } = await openEditPanel();
    const exportacao = screen.getByRole('checkbox', { name: 'Permitir exportação (PDF e PowerPoint)' });
    expect(exportacao).not.toBeChecked();
    await user.click(exportacao);
    await user.click(screen.getByRole('button', { name: 'Atualizar Painel' }));
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(put[0]!.body).toMatchObject({ permiteExportacao: true });
  });

  it('moving to another classification puts the panel last there', async () => {
    answer();
    const { user, location } = await openEditPanel();
    await screen.findByRole('option', { name: 'Operações' });
    await user.selectOptions(classificationSelect(), 'Operações');
    await user.click(screen.getByRole('button', { name: 'Atualizar Painel' }));
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(put[0]!.body).toMatchObject({ classificacaoId: 3, ordem: 13 });
  });

  it('keeps an inactive current classification selectable', async () => {
    answer({ painel: dados({ classificacaoId: 8, classificacaoNome: 'Arquivo' }) });
    const { user, location } = await openEditPanel();
    await screen.findByRole('option', { name: 'Financeiro' });
    expect(classificationSelect()).toHaveValue('8');
    expect(screen.getByRole('option', { name: 'Arquivo' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Atualizar Painel' }));
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(put[0]!.body).toMatchObject({ classificacaoId: 8, ordem: 3 });
  });

  it('validates like the new-panel form and sends nothing while invalid', async () => {
    answer();
    const { user } = await openEditPanel();
    await user.clear(field('Nome do painel'));
    await user.clear(field('Report ID'));
    await user.type(field('Report ID'), 'relatorio');
    await user.click(screen.getByRole('button', { name: 'Atualizar Painel' }));
    expect(screen.getByText('Nome do painel é obrigatório.')).toBeInTheDocument();
    expect(
      screen.getByText('Report ID deve ser um GUID, como 00000000-0000-0000-0000-000000000000.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Workspace ID/, { selector: '.invalid-feedback' })).not.toBeInTheDocument();
    expect(put).toEqual([]);
  });

  it('shows the catalogue message and the server message when updating fails (requirements: error-catalogue)', async () => {
    answer();
    server.use(
      http.put('/api/paineis/:id', () =>
        HttpResponse.json(
          { message: 'ID do workspace (workspaceId) deve ser um GUID, como 00000000-0000-0000-0000-000000000000.' },
          { status: 400 },
        ),
      ),
    );
    const { user, location } = await openEditPanel();
    await user.click(screen.getByRole('button', { name: 'Atualizar Painel' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Erro ao atualizar painel. Tente novamente.');
    expect(alert).toHaveTextContent('ID do workspace (workspaceId) deve ser um GUID');
    expect(location().pathname).toBe('/editar/5');
  });

  it('shows only the catalogue message when the update fails without a server message (requirements: error-catalogue)', async () => {
    answer();
    server.use(http.put('/api/paineis/:id', () => HttpResponse.error()));
    const { user } = await openEditPanel();
    await user.click(screen.getByRole('button', { name: 'Atualizar Painel' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Erro ao atualizar painel. Tente novamente.');
  });

  it('shows Painel não encontrado. with Voltar ao Início when the server answers 404', async () => {
    answer();
    server.use(
      http.get('/api/paineis/:id/dados', () =>
        HttpResponse.json({ message: 'Painel não encontrado' }, { status: 404 }),
      ),
    );
    const { user, location } = renderApp('/editar/77');
    expect(await screen.findByText('Painel não encontrado.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Atualizar Painel' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Voltar ao Início' }));
    await waitFor(() => expect(location().pathname).toBe('/'));
  });

  it('treats an id that cannot exist as not found, without asking the server', async () => {
    answer();
    const asked = vi.fn();
    server.use(
      http.get('/api/paineis/:id/dados', () => {
        asked();
        return HttpResponse.json(dados());
      }),
    );
    renderApp('/editar/abc');
    expect(await screen.findByText('Painel não encontrado.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Voltar ao Início' })).toBeInTheDocument();
    expect(asked).not.toHaveBeenCalled();
  });

  it('alerts Erro ao carregar dados do painel. and goes to / on any other load failure', async () => {
    answer();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    server.use(
      http.get('/api/paineis/:id/dados', () => HttpResponse.json({ message: 'Erro interno' }, { status: 500 })),
    );
    const { location } = renderApp('/editar/5');
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(alert).toHaveBeenCalledTimes(1);
    expect(alert).toHaveBeenCalledWith('Erro ao carregar dados do painel.');
  });

  it('Cancelar goes back to / without saving', async () => {
    answer();
    const { user, location } = await openEditPanel();
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(put).toEqual([]);
  });
});
