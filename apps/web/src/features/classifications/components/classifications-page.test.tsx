import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { describe, expect, it } from 'vitest';
import type { ClassificacaoAdmin } from '@paineis/contract/classifications';
import { queryKeys } from '../../../lib/query-keys.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { signIn, USER } from '../../../test/session.ts';

const FINANCEIRO: ClassificacaoAdmin = {
  id: 1,
  nome: 'Financeiro',
  descricao: 'Relatórios de custos e receitas',
  ativo: true,
  dataCadastro: '2024-03-01T12:00:00.000Z',
  quantidadePaineis: 3,
};
const OPERACOES: ClassificacaoAdmin = {
  id: 2,
  nome: 'Operações',
  descricao: null,
  ativo: false,
  dataCadastro: '2024-03-02T12:00:00.000Z',
  quantidadePaineis: 1,
};
const RH: ClassificacaoAdmin = {
  id: 3,
  nome: 'Recursos Humanos',
  descricao: '',
  ativo: true,
  dataCadastro: '2024-03-03T12:00:00.000Z',
  quantidadePaineis: 0,
};

/** Serves GET /classificacoes/admin from a list the test (or a mutation handler) changes; counts the loads. */
function serveList(initial: ClassificacaoAdmin[]) {
  const state = { list: [...initial], loads: 0 };
  server.use(
    http.get('/api/classificacoes/admin', () => {
      state.loads += 1;
      return HttpResponse.json(state.list);
    }),
  );
  return state;
}

function openPage() {
  signIn();
  return renderApp('/classificacoes');
}

const rowOf = (nome: string) => screen.getByText(nome, { selector: 'td div' }).closest('tr')!;
const nameInput = () => screen.getByRole('textbox', { name: 'Nome' });
const descriptionInput = () => screen.getByRole('textbox', { name: 'Descrição' });
const failure = (status: number, body: JsonBodyType = {}) => HttpResponse.json(body, { status });

describe('/classificacoes: the list', () => {
  it('shows a spinner while loading, then the table with its texts, badges, panel counts and the count in the title', async () => {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/classificacoes/admin', async () => {
        await gate;
        return HttpResponse.json([FINANCEIRO, OPERACOES, RH]);
      }),
    );
    openPage();
    await screen.findByRole('navigation');
    expect(screen.getByRole('status')).toHaveTextContent('Carregando...');
    release();

    expect(await screen.findByRole('heading', { level: 1, name: 'Gerenciar Classificações 3' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Nome',
      'Descrição',
      'Status',
      'Ações',
    ]);

    const financeiro = within(rowOf('Financeiro'));
    expect(financeiro.getByText('Relatórios de custos e receitas')).toBeInTheDocument();
    expect(financeiro.getByText('3 painéis')).toBeInTheDocument();
    expect(financeiro.getByText('Ativo')).toHaveClass('bg-success');
    expect(financeiro.getByRole('button', { name: 'Editar Financeiro' })).toBeInTheDocument();
    expect(financeiro.getByRole('button', { name: 'Excluir Financeiro' })).toBeInTheDocument();

    const operacoes = within(rowOf('Operações'));
    expect(operacoes.getByText('Sem descrição')).toBeInTheDocument();
    expect(operacoes.getByText('1 painel')).toBeInTheDocument();
    expect(operacoes.getByText('Inativo')).toHaveClass('bg-secondary');

    const rh = within(rowOf('Recursos Humanos'));
    expect(rh.getByText('Sem descrição')).toBeInTheDocument();
    expect(rh.getByText('Nenhum painel')).toBeInTheDocument();

    expect(screen.getByRole('heading', { name: 'Nova Classificação' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Voltar' })).toHaveAttribute('href', '/');
  });

  it('shows the empty state; Criar Primeira Classificação takes the user to the form', async () => {
    serveList([]);
    const { user } = openPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Gerenciar Classificações 0' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Criar Primeira Classificação' }));
    expect(nameInput()).toHaveFocus();
  });

  it('sends a non-admin to /', async () => {
    server.use(
      http.get('/api/paineis/agrupados', () => HttpResponse.json([])),
      http.get('/api/paineis', () => HttpResponse.json([])),
      http.get('/api/classificacoes', () => HttpResponse.json([])),
    );
    signIn(USER);
    const { location } = renderApp('/classificacoes');
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(screen.queryByText('Gerenciar Classificações')).not.toBeInTheDocument();
  });

  it("shows the server's load error, then the fallback, and recovers with Tentar novamente", async () => {
    let answer: 'server' | 'fallback' | 'ok' = 'server';
    server.use(
      http.get('/api/classificacoes/admin', () => {
        if (answer === 'server') return failure(503, { message: 'Banco de dados indisponível.' });
        if (answer === 'fallback') return failure(500);
        return HttpResponse.json([FINANCEIRO]);
      }),
    );
    const { user } = openPage();
    expect(await screen.findByText('Banco de dados indisponível.')).toBeInTheDocument();

    answer = 'fallback';
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Erro ao carregar classificações')).toBeInTheDocument();

    answer = 'ok';
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Gerenciar Classificações 1' })).toBeInTheDocument();
    expect(rowOf('Financeiro')).toBeInTheDocument();
    expect(screen.queryByText('Erro ao carregar classificações')).not.toBeInTheDocument();
  });
});

describe('/classificacoes: creating', () => {
  it("requires a name: 'Nome é obrigatório' when empty after trimming, and the submit button is disabled", async () => {
    serveList([FINANCEIRO]);
    const { user } = openPage();
    await screen.findByText('Financeiro', { selector: 'td div' });
    const submit = screen.getByRole('button', { name: 'Criar Classificação' });
    // Untouched: disabled, but no message yet.
    expect(submit).toBeDisabled();
    expect(screen.queryByText('Nome é obrigatório')).not.toBeInTheDocument();

    await user.type(nameInput(), '   ');
    expect(screen.getByText('Nome é obrigatório')).toBeVisible();
    expect(nameInput()).toHaveAttribute('aria-invalid', 'true');
    expect(nameInput()).toHaveAccessibleDescription('Nome é obrigatório');
    expect(submit).toBeDisabled();

    await user.type(nameInput(), 'Vendas');
    expect(screen.queryByText('Nome é obrigatório')).not.toBeInTheDocument();
    expect(submit).toBeEnabled();

    await user.clear(nameInput());
    expect(screen.getByText('Nome é obrigatório')).toBeInTheDocument();
    expect(submit).toBeDisabled();
  });

  it('posts the trimmed name and description, clears the form, reloads the list and refreshes panels', async () => {
    const state = serveList([FINANCEIRO]);
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/classificacoes', async ({ request }) => {
        const body = (await request.json()) as { nome: string; descricao: string | null };
        bodies.push(body);
        const created = { ...RH, id: 9, nome: body.nome, descricao: body.descricao };
        state.list = [FINANCEIRO, created];
        return HttpResponse.json(created, { status: 201 });
      }),
    );
    const { user, queryClient } = openPage();
    await screen.findByText('Financeiro', { selector: 'td div' });
    queryClient.setQueryData(queryKeys.panels, []);
    queryClient.setQueryData(queryKeys.classifications, []);

    await user.type(nameInput(), '  Comercial  ');
    await user.type(descriptionInput(), '  Metas e vendas  ');
    await user.click(screen.getByRole('button', { name: 'Criar Classificação' }));

    expect(await screen.findByText('Comercial', { selector: 'td div' })).toBeInTheDocument();
    expect(bodies).toEqual([{ nome: 'Comercial', descricao: 'Metas e vendas' }]);
    expect(state.loads).toBe(2);
    expect(screen.getByRole('heading', { level: 1, name: 'Gerenciar Classificações 2' })).toBeInTheDocument();
    expect(nameInput()).toHaveValue('');
    expect(descriptionInput()).toHaveValue('');
    expect(screen.getByRole('heading', { name: 'Nova Classificação' })).toBeInTheDocument();
    expect(screen.queryByText('Nome é obrigatório')).not.toBeInTheDocument();
    expect(queryClient.getQueryState(queryKeys.panels)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(queryKeys.classifications)?.isInvalidated).toBe(true);
  });

  it('sends null for a description that is empty after trimming', async () => {
    serveList([]);
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/classificacoes', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ ...RH, id: 9, nome: 'Logística' }, { status: 201 });
      }),
    );
    const { user } = openPage();
    await screen.findByRole('button', { name: 'Criar Primeira Classificação' });
    await user.type(nameInput(), 'Logística');
    await user.type(descriptionInput(), '    ');
    await user.click(screen.getByRole('button', { name: 'Criar Classificação' }));
    await waitFor(() => expect(bodies).toEqual([{ nome: 'Logística', descricao: null }]));
  });

  it("shows the server's message for a duplicate name (409) and keeps what was typed", async () => {
    serveList([FINANCEIRO]);
    server.use(
      http.post('/api/classificacoes', () =>
        failure(409, { message: "Já existe uma classificação com o nome 'financeiro'." }),
      ),
    );
    const { user } = openPage();
    await screen.findByText('Financeiro', { selector: 'td div' });
    await user.type(nameInput(), 'financeiro');
    await user.click(screen.getByRole('button', { name: 'Criar Classificação' }));
    expect(await screen.findByText("Já existe uma classificação com o nome 'financeiro'.")).toBeInTheDocument();
    expect(nameInput()).toHaveValue('financeiro');
  });

  it("shows 'Erro ao salvar classificação' when the server gives no message", async () => {
    serveList([FINANCEIRO]);
    server.use(http.post('/api/classificacoes', () => failure(500)));
    const { user } = openPage();
    await screen.findByText('Financeiro', { selector: 'td div' });
    await user.type(nameInput(), 'Comercial');
    await user.click(screen.getByRole('button', { name: 'Criar Classificação' }));
    expect(await screen.findByText('Erro ao salvar classificação')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Criar Classificação' })).toBeEnabled();
  });
});

describe('/classificacoes: editing', () => {
  it('prefills the form, puts the trimmed fields with ativo toggled, then returns to create mode and reloads', async () => {
    const state = serveList([FINANCEIRO, OPERACOES]);
    const puts: { url: string; body: unknown }[] = [];
    server.use(
      http.put('/api/classificacoes/:id', async ({ request }) => {
        const body = (await request.json()) as { nome: string; descricao: string | null; ativo: boolean };
        puts.push({ url: new URL(request.url).pathname, body });
        const updated = { ...FINANCEIRO, ...body };
        state.list = [updated, OPERACOES];
        return HttpResponse.json(updated);
      }),
    );
    const { user, queryClient } = openPage();
    await user.click(await screen.findByRole('button', { name: 'Editar Financeiro' }));
    queryClient.setQueryData(queryKeys.panels, []);

    expect(screen.getByRole('heading', { name: 'Editar Classificação' })).toBeInTheDocument();
    expect(nameInput()).toHaveValue('Financeiro');
    expect(nameInput()).toHaveFocus();
    expect(descriptionInput()).toHaveValue('Relatórios de custos e receitas');
    const ativo = screen.getByRole('checkbox', { name: 'Ativo' });
    expect(ativo).toBeChecked();
    expect(rowOf('Financeiro')).toHaveClass('table-active');

    await user.clear(nameInput());
    expect(screen.getByText('Nome é obrigatório')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Atualizar Classificação' })).toBeDisabled();
    await user.type(nameInput(), ' Finanças ');
    await user.clear(descriptionInput());
    await user.type(descriptionInput(), 'Custos ');
    await user.click(ativo);
    await user.click(screen.getByRole('button', { name: 'Atualizar Classificação' }));

    expect(await screen.findByRole('heading', { name: 'Nova Classificação' })).toBeInTheDocument();
    expect(puts).toEqual([
      { url: '/api/classificacoes/1', body: { nome: 'Finanças', descricao: 'Custos', ativo: false } },
    ]);
    expect(state.loads).toBe(2);
    expect(within(rowOf('Finanças')).getByText('Inativo')).toBeInTheDocument();
    expect(nameInput()).toHaveValue('');
    expect(screen.queryByRole('checkbox', { name: 'Ativo' })).not.toBeInTheDocument();
    expect(queryClient.getQueryState(queryKeys.panels)?.isInvalidated).toBe(true);
  });

  it('edits an inactive classification with no description and can activate it', async () => {
    serveList([FINANCEIRO, OPERACOES]);
    const bodies: unknown[] = [];
    server.use(
      http.put('/api/classificacoes/2', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ ...OPERACOES, ativo: true });
      }),
    );
    const { user } = openPage();
    await user.click(await screen.findByRole('button', { name: 'Editar Operações' }));
    expect(descriptionInput()).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: 'Ativo' })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Ativo' }));
    await user.click(screen.getByRole('button', { name: 'Atualizar Classificação' }));
    await waitFor(() => expect(bodies).toEqual([{ nome: 'Operações', descricao: null, ativo: true }]));
  });

  it('Cancelar leaves edit mode without sending anything', async () => {
    serveList([FINANCEIRO]);
    let puts = 0;
    server.use(
      http.put('/api/classificacoes/:id', () => {
        puts += 1;
        return HttpResponse.json(FINANCEIRO);
      }),
    );
    const { user } = openPage();
    await user.click(await screen.findByRole('button', { name: 'Editar Financeiro' }));
    await user.type(nameInput(), ' alterado');
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));

    expect(screen.getByRole('heading', { name: 'Nova Classificação' })).toBeInTheDocument();
    expect(nameInput()).toHaveValue('');
    expect(screen.queryByRole('button', { name: 'Cancelar' })).not.toBeInTheDocument();
    expect(rowOf('Financeiro')).not.toHaveClass('table-active');
    expect(puts).toBe(0);
  });

  it("shows the server's message when an update fails, and stays in edit mode", async () => {
    serveList([FINANCEIRO, OPERACOES]);
    server.use(
      http.put('/api/classificacoes/1', () =>
        failure(409, { message: "Já existe uma classificação com o nome 'Operações'." }),
      ),
    );
    const { user } = openPage();
    await user.click(await screen.findByRole('button', { name: 'Editar Financeiro' }));
    await user.clear(nameInput());
    await user.type(nameInput(), 'Operações');
    await user.click(screen.getByRole('button', { name: 'Atualizar Classificação' }));
    expect(await screen.findByText("Já existe uma classificação com o nome 'Operações'.")).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Editar Classificação' })).toBeInTheDocument();
  });
});

describe('/classificacoes: deleting', () => {
  it('asks, naming the classification, then deletes and reloads the list', async () => {
    const state = serveList([FINANCEIRO, OPERACOES]);
    const deleted: string[] = [];
    server.use(
      http.delete('/api/classificacoes/:id', ({ request }) => {
        deleted.push(new URL(request.url).pathname);
        state.list = [OPERACOES];
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user, queryClient } = openPage();
    await user.click(await screen.findByRole('button', { name: 'Excluir Financeiro' }));
    queryClient.setQueryData(queryKeys.panels, []);

    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Excluir Classificação')).toBeInTheDocument();
    expect(dialog).toHaveTextContent(
      'Tem certeza que deseja excluir a classificação "Financeiro"? Os 3 painéis dela ficarão em "Sem Classificação". Esta ação não pode ser desfeita.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deleted).toEqual(['/api/classificacoes/1']);
    expect(state.loads).toBe(2);
    expect(screen.queryByText('Financeiro', { selector: 'td div' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Gerenciar Classificações 1' })).toBeInTheDocument();
    expect(queryClient.getQueryState(queryKeys.panels)?.isInvalidated).toBe(true);
  });

  it('words the question for one panel and for none', async () => {
    serveList([OPERACOES, RH]);
    const { user } = openPage();
    await user.click(await screen.findByRole('button', { name: 'Excluir Operações' }));
    expect(screen.getByRole('dialog')).toHaveTextContent(
      'Tem certeza que deseja excluir a classificação "Operações"? O painel dela ficará em "Sem Classificação". Esta ação não pode ser desfeita.',
    );
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Excluir Recursos Humanos' }));
    expect(screen.getByRole('dialog')).toHaveTextContent(
      'Tem certeza que deseja excluir a classificação "Recursos Humanos"? Esta ação não pode ser desfeita.',
    );
  });

  it('Cancelar sends nothing', async () => {
    const state = serveList([FINANCEIRO]);
    let deletes = 0;
    server.use(
      http.delete('/api/classificacoes/:id', () => {
        deletes += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = openPage();
    await user.click(await screen.findByRole('button', { name: 'Excluir Financeiro' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deletes).toBe(0);
    expect(state.loads).toBe(1);
    expect(rowOf('Financeiro')).toBeInTheDocument();
  });

  it('leaves edit mode when the classification being edited is deleted', async () => {
    const state = serveList([FINANCEIRO, OPERACOES]);
    server.use(
      http.delete('/api/classificacoes/1', () => {
        state.list = [OPERACOES];
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = openPage();
    await user.click(await screen.findByRole('button', { name: 'Editar Financeiro' }));
    await user.click(screen.getByRole('button', { name: 'Excluir Financeiro' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByRole('heading', { name: 'Nova Classificação' })).toBeInTheDocument();
  });

  it("shows the server's message, or 'Erro ao excluir classificação', when deleting fails", async () => {
    serveList([FINANCEIRO]);
    let withMessage = true;
    server.use(
      http.delete('/api/classificacoes/1', () =>
        withMessage ? failure(403, { message: 'Acesso restrito a administradores.' }) : failure(500),
      ),
    );
    const { user } = openPage();
    await user.click(await screen.findByRole('button', { name: 'Excluir Financeiro' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Acesso restrito a administradores.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(rowOf('Financeiro')).toBeInTheDocument();

    withMessage = false;
    await user.click(screen.getByRole('button', { name: 'Excluir Financeiro' }));
    expect(screen.queryByText('Acesso restrito a administradores.')).not.toBeInTheDocument();
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Erro ao excluir classificação')).toBeInTheDocument();
  });
});
