import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { GrupoPaineis, Painel, PainelBody, PainelDados, ReorderItem } from '@paineis/contract/panels';
import { Root } from '../../../app/root.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { painel as basePainel } from '../../../test/data-generators.ts';
import { server } from '../../../test/server.ts';
import { ADMIN, signIn, USER } from '../../../test/session.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { keyboardDrag, stubRowRects } from '../../../test/drag-and-drop.ts';
import { DELETE_CONFIRMATION, DELETE_ERROR } from '../hooks/use-delete-confirmation.ts';
import { MOVE_ERROR, REORDER_ERROR } from '../hooks/use-panel-reorder.ts';
import {
  DRAG_OFF_WHILE_SEARCHING,
  DRAG_TIP,
  LOAD_ERROR,
  PanelListPage,
  type PanelListPageProps,
} from './panel-list-page.tsx';

const painel = (id: number, nomePainel: string, grupo: [number, string], ordem: number, usaRls = false): Painel =>
  basePainel({ id, nomePainel, usaRls, classificacaoId: grupo[0], classificacaoNome: grupo[1], ordem });

const VENDAS: [number, string] = [1, 'Vendas'];
const GESTAO: [number, string] = [2, 'Gestão'];
const SEM: [number, string] = [0, 'Sem Classificação'];

/** What an admin gets: an empty classification too, and 'Sem Classificação' last. */
function adminGroups(): GrupoPaineis[] {
  return [
    {
      id: 1,
      nome: 'Vendas',
      descricao: 'Indicadores comerciais',
      ativo: true,
      quantidadePaineis: 3,
      paineis: [
        painel(11, 'Vendas Mensais', VENDAS, 1, true),
        painel(12, 'Metas', VENDAS, 2),
        painel(13, 'Comissões', VENDAS, 3),
      ],
    },
    {
      id: 2,
      nome: 'Gestão',
      descricao: null,
      ativo: true,
      quantidadePaineis: 1,
      paineis: [painel(21, 'Orçamento', GESTAO, 1)],
    },
    { id: 3, nome: 'Financeiro', descricao: 'Contas e custos', ativo: true, quantidadePaineis: 0, paineis: [] },
    {
      id: 0,
      nome: 'Sem Classificação',
      descricao: null,
      ativo: true,
      quantidadePaineis: 1,
      paineis: [painel(31, 'Legado', SEM, 1)],
    },
  ];
}

/** The grouped list from a little in-memory server, so reloads show what the server holds now. */
function serveGroups(initial: GrupoPaineis[] = adminGroups()) {
  const state = { groups: initial, gets: 0 };
  server.use(
    http.get('/api/paineis/agrupados', () => {
      state.gets += 1;
      return HttpResponse.json(state.groups);
    }),
  );
  return state;
}

const serverMessage = (message: string, status: number) => HttpResponse.json({ message }, { status });

/** The panel names of one classification, in the order shown. */
function namesIn(groupName: string): string[] {
  const list = screen.getByRole('list', { name: groupName });
  return within(list)
    .getAllByRole('link', { name: /^Visualizar painel / })
    .map((link) => (link.getAttribute('aria-label') ?? link.textContent ?? '').replace('Visualizar painel ', ''));
}

/** An admin's list, laid out for dnd-kit's keyboard sensor, once `heading` shows: where each drag test starts. */
async function renderListForDrag(heading = 'Vendas', groups = adminGroups()) {
  signIn(ADMIN);
  serveGroups(groups);
  stubRowRects();
  const { user } = renderApp('/');
  await screen.findByRole('heading', { name: heading });
  return user;
}

function captureReorder(status = 204) {
  const bodies: ReorderItem[][] = [];
  server.use(
    http.post('/api/paineis/reorder', async ({ request }) => {
      bodies.push((await request.json()) as ReorderItem[]);
      return status === 204 ? new HttpResponse(null, { status }) : serverMessage('Falha ao reordenar', status);
    }),
  );
  return bodies;
}

function dados(p: Painel): PainelDados {
  return { ...p, rlsConfigurations: [{ roleName: 'Gerente', userEmails: ['ana@empresa.com.br'] }] };
}

/** GET /paineis/{id}/dados and PUT /paineis/{id}, the PUT bodies captured by panel id. */
function servePanelUpdates(putResponse?: () => Response) {
  const all = adminGroups().flatMap((g) => g.paineis);
  const puts = new Map<number, PainelBody>();
  const getDados = vi.fn();
  server.use(
    http.get('/api/paineis/:id/dados', ({ params }) => {
      const p = all.find((x) => x.id === Number(params.id));
      getDados(Number(params.id));
      return p ? HttpResponse.json(dados(p)) : serverMessage('Painel não encontrado.', 404);
    }),
    http.put('/api/paineis/:id', async ({ params, request }) => {
      const id = Number(params.id);
      const body = (await request.json()) as PainelBody;
      puts.set(id, body);
      if (putResponse) return putResponse();
      const p = all.find((x) => x.id === id)!;
      return HttpResponse.json({ ...p, classificacaoId: body.classificacaoId ?? 0, ordem: body.ordem ?? p.ordem });
    }),
  );
  return { puts, getDados };
}

describe("'/' panel list: what it shows", () => {
  it("shows 'Painéis Power BI', each classification with its count and description, and each panel", async () => {
    signIn(ADMIN);
    serveGroups();
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Painéis Power BI' })).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Vendas' });

    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual(['Vendas', 'Gestão', 'Financeiro', 'Sem Classificação']);

    const vendas = screen.getByRole('region', { name: 'Vendas' });
    expect(within(vendas).getByText('3 painéis')).toBeInTheDocument();
    expect(within(vendas).getByText('Indicadores comerciais')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Gestão' })).getByText('1 painel')).toBeInTheDocument();
    const financeiro = screen.getByRole('region', { name: 'Financeiro' });
    expect(within(financeiro).getByText('0 painéis')).toBeInTheDocument();
    expect(within(financeiro).getByText('Contas e custos')).toBeInTheDocument();
    expect(within(financeiro).getByText(/Nenhum painel nesta classificação/)).toBeInTheDocument();

    expect(namesIn('Vendas')).toEqual(['Vendas Mensais', 'Metas', 'Comissões']);
    expect(namesIn('Sem Classificação')).toEqual(['Legado']);

    // The RLS badge only on the panel that uses RLS.
    const rows = within(screen.getByRole('list', { name: 'Vendas' })).getAllByRole('listitem');
    expect(within(rows[0]!).getByText('RLS', { selector: '.badge' })).toBeInTheDocument();
    expect(within(rows[1]!).queryByText('RLS', { selector: '.badge' })).not.toBeInTheDocument();
  });

  it('links Visualizar to /visualizar/{id} and, for admins, Editar to /editar/{id}', async () => {
    signIn(ADMIN);
    serveGroups();
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Visualizar painel Metas' })).toHaveAttribute(
      'href',
      '/visualizar/12',
    );
    expect(screen.getByRole('link', { name: 'Visualizar painel Legado' })).toHaveAttribute('href', '/visualizar/31');
    expect(screen.getByRole('link', { name: 'Editar painel Metas' })).toHaveAttribute('href', '/editar/12');
    expect(screen.getByRole('link', { name: 'Editar painel Legado' })).toHaveAttribute('href', '/editar/31');
  });

  it('gives admins the drag handles, panel actions, the tip and the classification buttons', async () => {
    signIn(ADMIN);
    serveGroups();
    renderApp('/');
    await screen.findByRole('heading', { name: 'Vendas' });
    expect(screen.getAllByRole('button', { name: /^Arrastar para reordenar / })).toHaveLength(5);
    expect(screen.getByRole('button', { name: 'Arrastar para reordenar Metas' })).toBeInTheDocument();
    for (const action of ['Usuários do painel', 'RLS do painel', 'Acesso ao painel', 'Excluir painel']) {
      expect(screen.getByRole('button', { name: `${action} Metas` })).toBeInTheDocument();
    }
    // 'Acesso' between 'RLS' and 'Excluir'.
    const metas = screen.getByRole('button', { name: 'Acesso ao painel Metas' }).closest('li')!;
    expect(
      within(metas)
        .getAllByRole('button')
        .map((b) => b.textContent)
        .filter(Boolean),
    ).toEqual(['Usuários', 'RLS', 'Acesso', 'Excluir']);
    expect(screen.getByText(DRAG_TIP)).toBeInTheDocument();
    expect(DRAG_TIP).toBe('Dica: arraste os painéis para reordená-los. A ordem é salva automaticamente.');
    expect(screen.getByRole('button', { name: 'Gerenciar Classificações' })).toBeInTheDocument();
    for (const nome of ['Vendas', 'Gestão', 'Financeiro']) {
      expect(screen.getByRole('button', { name: `Editar classificação ${nome}` })).toHaveTextContent(/^Editar/);
      expect(screen.getByRole('button', { name: `Excluir classificação ${nome}` })).toHaveTextContent(/^Excluir/);
    }
    // 'Sem Classificação' is not a real classification.
    const sem = screen.getByRole('region', { name: 'Sem Classificação' });
    expect(within(sem).queryByRole('button', { name: /classificação/ })).not.toBeInTheDocument();
  });

  it('gives other users only the list and Visualizar', async () => {
    signIn(USER);
    serveGroups([adminGroups()[0]!, adminGroups()[3]!]);
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Visualizar painel Metas' })).toHaveAttribute(
      'href',
      '/visualizar/12',
    );
    expect(screen.getByText('3 painéis')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Arrastar/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Editar/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Editar|Excluir|Usuários|RLS|Acesso)/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Gerenciar Classificações' })).not.toBeInTheDocument();
    expect(screen.queryByText(DRAG_TIP)).not.toBeInTheDocument();
    // The RLS badge is for everyone.
    expect(screen.getByText('RLS', { selector: '.badge' })).toBeInTheDocument();
  });

  it("shows 'Nenhum painel disponível.' when there is nothing to list", async () => {
    signIn(USER);
    serveGroups([]);
    renderApp('/');
    expect(await screen.findByText('Nenhum painel disponível.')).toBeInTheDocument();
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  });

  it("shows a spinner with the hidden 'Carregando...' while the list loads", async () => {
    signIn(USER);
    let answer: (() => void) | undefined;
    server.use(
      http.get('/api/paineis/agrupados', async () => {
        await new Promise<void>((resolve) => (answer = resolve));
        return HttpResponse.json(adminGroups());
      }),
    );
    renderApp('/');
    await screen.findByRole('navigation');
    expect(screen.getByRole('status')).toHaveTextContent('Carregando...');
    await waitFor(() => expect(answer).toBeDefined());
    answer!();
    expect(await screen.findByRole('heading', { name: 'Vendas' })).toBeInTheDocument();
    expect(screen.queryByText('Carregando...')).not.toBeInTheDocument();
  });
});

describe("'/' load failure (requirements: error-catalogue)", () => {
  it("shows the server's message and tries again on 'Tentar novamente'", async () => {
    signIn(USER);
    server.use(http.get('/api/paineis/agrupados', () => serverMessage('Banco de dados indisponível.', 503)));
    const { user } = renderApp('/');
    expect(await screen.findByText('Banco de dados indisponível.')).toBeInTheDocument();
    serveGroups();
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('heading', { name: 'Vendas' })).toBeInTheDocument();
    expect(screen.queryByText('Banco de dados indisponível.')).not.toBeInTheDocument();
  });

  it(`falls back to '${LOAD_ERROR}'`, async () => {
    signIn(USER);
    server.use(http.get('/api/paineis/agrupados', () => new HttpResponse('falhou', { status: 500 })));
    renderApp('/');
    expect(await screen.findByText('Erro ao carregar dados')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tentar novamente' })).toBeInTheDocument();
  });
});

describe("'/' navigation", () => {
  it("'Gerenciar Classificações' and a classification's Editar go to /classificacoes", async () => {
    signIn(ADMIN);
    serveGroups();
    server.use(http.get('/api/classificacoes/admin', () => HttpResponse.json([])));
    const { user, location, unmount } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Gerenciar Classificações' }));
    expect(location().pathname).toBe('/classificacoes');
    unmount();

    const second = renderApp('/');
    await second.user.click(await screen.findByRole('button', { name: 'Editar classificação Gestão' }));
    expect(second.location().pathname).toBe('/classificacoes');
  });

  it('Usuários, RLS and Acesso hand the panel to the page owner (which opens the modals)', async () => {
    signIn(ADMIN);
    serveGroups();
    const props: PanelListPageProps = {
      isAdmin: true,
      onManageUsers: vi.fn(),
      onManageRls: vi.fn(),
      onShowAccess: vi.fn(),
      onDeleteClassification: vi.fn(() => Promise.resolve()),
    };
    const router = createMemoryRouter([
      { element: <Root />, children: [{ path: '/', element: <PanelListPage {...props} /> }] },
    ]);
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await user.click(await screen.findByRole('button', { name: 'Usuários do painel Metas' }));
    expect(props.onManageUsers).toHaveBeenCalledWith(adminGroups()[0]!.paineis[1]);
    await user.click(screen.getByRole('button', { name: 'RLS do painel Vendas Mensais' }));
    expect(props.onManageRls).toHaveBeenCalledWith(adminGroups()[0]!.paineis[0]);
    await user.click(screen.getByRole('button', { name: 'Acesso ao painel Metas' }));
    expect(props.onShowAccess).toHaveBeenCalledWith(adminGroups()[0]!.paineis[1]);
  });
});

describe("'/' delete flow (requirements: delete-flow): confirm, delete, reload", () => {
  it('asks exactly the required question, deletes the panel and reloads the list (requirements: screen-panel-list)', async () => {
    signIn(ADMIN);
    const state = serveGroups();
    const deleted = vi.fn();
    server.use(
      http.delete('/api/paineis/:id', ({ params }) => {
        deleted(params.id);
        state.groups = state.groups.map((g) => ({
          ...g,
          paineis: g.paineis.filter((p) => p.id !== Number(params.id)),
        }));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Excluir painel Metas' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(DELETE_CONFIRMATION)).toBeInTheDocument();
    expect(DELETE_CONFIRMATION).toBe(
      'Tem certeza que deseja excluir este painel/classificação? Esta ação não pode ser desfeita.',
    );
    const getsBefore = state.gets;
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: 'Visualizar painel Metas' })).not.toBeInTheDocument(),
    );
    expect(deleted).toHaveBeenCalledExactlyOnceWith('12');
    expect(state.gets).toBe(getsBefore + 1);
    expect(namesIn('Vendas')).toEqual(['Vendas Mensais', 'Comissões']);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('sends nothing when cancelled', async () => {
    signIn(ADMIN);
    serveGroups();
    const deleted = vi.fn();
    server.use(
      http.delete('/api/paineis/:id', () => {
        deleted();
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Excluir painel Metas' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deleted).not.toHaveBeenCalled();
    expect(namesIn('Vendas')).toEqual(['Vendas Mensais', 'Metas', 'Comissões']);
  });

  it("shows the server's message when deleting fails, and reloads the list when the panel was already gone", async () => {
    signIn(ADMIN);
    const state = serveGroups();
    server.use(
      http.delete('/api/paineis/:id', () => {
        // Another admin deleted it first.
        state.groups = state.groups.map((g) => ({ ...g, paineis: g.paineis.filter((p) => p.id !== 12) }));
        return serverMessage('Painel não encontrado.', 404);
      }),
    );
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Excluir painel Metas' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Painel não encontrado.')).toBeInTheDocument();
    await waitFor(() => expect(namesIn('Vendas')).toEqual(['Vendas Mensais', 'Comissões']));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it(`falls back to '${DELETE_ERROR}'`, async () => {
    signIn(ADMIN);
    serveGroups();
    server.use(http.delete('/api/paineis/:id', () => new HttpResponse(null, { status: 500 })));
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Excluir painel Metas' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Erro ao excluir item')).toBeInTheDocument();
    expect(namesIn('Vendas')).toEqual(['Vendas Mensais', 'Metas', 'Comissões']);
  });

  it('deletes a classification with the same question, and its panels reload under Sem Classificação', async () => {
    signIn(ADMIN);
    const state = serveGroups();
    const deleted = vi.fn();
    server.use(
      http.delete('/api/classificacoes/:id', ({ params }) => {
        deleted(params.id);
        // As the server does: the classification goes, its panels fall under 'Sem Classificação'.
        const moved = state.groups.find((g) => g.id === 2)!.paineis.map((p) => ({ ...p, classificacaoId: 0 }));
        state.groups = state.groups
          .filter((g) => g.id !== 2)
          .map((g) => (g.id === 0 ? { ...g, paineis: [...g.paineis, ...moved], quantidadePaineis: 2 } : g));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Excluir classificação Gestão' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(DELETE_CONFIRMATION)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Gestão' })).not.toBeInTheDocument());
    expect(deleted).toHaveBeenCalledExactlyOnceWith('2');
    expect(namesIn('Sem Classificação')).toEqual(['Legado', 'Orçamento']);
  });

  it("shows the server's message when deleting a classification fails", async () => {
    signIn(ADMIN);
    serveGroups();
    server.use(http.delete('/api/classificacoes/:id', () => serverMessage('Classificação não encontrada.', 404)));
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Excluir classificação Vendas' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Classificação não encontrada.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Vendas' })).toBeInTheDocument();
  });
});

describe("'/' search", () => {
  it('filters panels by name as you type, ignoring case and accents, and hides groups with no match', async () => {
    signIn(ADMIN);
    serveGroups();
    const { user } = renderApp('/');
    const search = await screen.findByRole('searchbox', { name: 'Buscar painel' });
    expect(search).toHaveAttribute('placeholder', 'Buscar painel...');

    await user.type(search, 'COMISSOES');
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Gestão' })).not.toBeInTheDocument());
    expect(namesIn('Vendas')).toEqual(['Comissões']);
    // The count says how many of the classification's panels match.
    expect(within(screen.getByRole('region', { name: 'Vendas' })).getByText('1 de 3 painéis')).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Vendas']);

    await user.clear(search);
    await user.type(search, 'orçam');
    await waitFor(() =>
      expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Gestão']),
    );

    await user.clear(search);
    await user.type(search, 'orcamento');
    expect(await screen.findByRole('link', { name: 'Visualizar painel Orçamento' })).toBeInTheDocument();

    await user.clear(search);
    await user.type(search, 'xyz');
    expect(await screen.findByText('Nenhum painel encontrado.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();

    await user.clear(search);
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(4));
  });

  it('turns dragging off while searching, and says so', async () => {
    const reorders = captureReorder();
    const user = await renderListForDrag();
    await user.type(await screen.findByRole('searchbox', { name: 'Buscar painel' }), 'm');
    expect(await screen.findByText(DRAG_OFF_WHILE_SEARCHING)).toBeInTheDocument();
    expect(screen.queryByText(DRAG_TIP)).not.toBeInTheDocument();
    const handle = screen.getByRole('button', { name: 'Arrastar para reordenar Metas' });
    expect(handle).toHaveAttribute('aria-disabled', 'true');

    await keyboardDrag(user, 'Vendas Mensais', '{ArrowDown}');
    expect(reorders).toEqual([]);
    expect(namesIn('Vendas')).toEqual(['Vendas Mensais', 'Metas', 'Comissões']);
  });
});

describe("'/' reorder by drag (requirements: drag-reorder), with the keyboard", () => {
  it('reorders within a classification, shows it at once and saves the group renumbered from 1', async () => {
    const bodies: ReorderItem[][] = [];
    let answer: (() => void) | undefined;
    server.use(
      http.post('/api/paineis/reorder', async ({ request }) => {
        bodies.push((await request.json()) as ReorderItem[]);
        await new Promise<void>((resolve) => (answer = resolve));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = await renderListForDrag();
    await keyboardDrag(user, 'Vendas Mensais', '{ArrowDown}');

    // Optimistic: the new order shows while the server has not answered yet.
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(namesIn('Vendas')).toEqual(['Metas', 'Vendas Mensais', 'Comissões']);
    expect(screen.getByText('Salvando...')).toBeInTheDocument();
    expect(bodies[0]).toEqual([
      { painelId: 12, novaOrdem: 1 },
      { painelId: 11, novaOrdem: 2 },
      { painelId: 13, novaOrdem: 3 },
    ]);
    answer!();
    await waitFor(() => expect(screen.queryByText('Salvando...')).not.toBeInTheDocument());
    expect(namesIn('Vendas')).toEqual(['Metas', 'Vendas Mensais', 'Comissões']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('moves two places down with two arrow presses and announces it in Portuguese', async () => {
    const bodies = captureReorder();
    const user = await renderListForDrag();
    const handle = await screen.findByRole('button', { name: 'Arrastar para reordenar Vendas Mensais' });
    // The instructions are mounted just after the list (which first renders in the background).
    await waitFor(() => expect(handle).toHaveAccessibleDescription(/pressione espaço ou Enter para pegá-lo/));
    await keyboardDrag(user, 'Vendas Mensais', '{ArrowDown}{ArrowDown}');
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual([
      { painelId: 12, novaOrdem: 1 },
      { painelId: 13, novaOrdem: 2 },
      { painelId: 11, novaOrdem: 3 },
    ]);
    expect(await screen.findByText('Painel Vendas Mensais movido para a posição 3.')).toBeInTheDocument();
    expect(namesIn('Vendas')).toEqual(['Metas', 'Comissões', 'Vendas Mensais']);
  });

  it("reverts to the old order and shows the server's message when saving fails", async () => {
    server.use(
      http.post('/api/paineis/reorder', () =>
        serverMessage('Painéis não encontrados: 12. Nenhuma ordem foi alterada.', 404),
      ),
    );
    const user = await renderListForDrag();
    await keyboardDrag(user, 'Metas', '{ArrowUp}');
    expect(await screen.findByText('Painéis não encontrados: 12. Nenhuma ordem foi alterada.')).toBeInTheDocument();
    expect(namesIn('Vendas')).toEqual(['Vendas Mensais', 'Metas', 'Comissões']);
  });

  it(`falls back to '${REORDER_ERROR}' when the server gives no reason`, async () => {
    server.use(http.post('/api/paineis/reorder', () => new HttpResponse(null, { status: 500 })));
    const user = await renderListForDrag();
    await keyboardDrag(user, 'Metas', '{ArrowUp}');
    expect(await screen.findByText(REORDER_ERROR)).toBeInTheDocument();
    expect(namesIn('Vendas')).toEqual(['Vendas Mensais', 'Metas', 'Comissões']);
  });

  it('on 405 from the reorder endpoint, fetches each panel and updates it with its new ordem', async () => {
    const reorders = captureReorder(405);
    const { puts, getDados } = servePanelUpdates();
    const user = await renderListForDrag();
    await keyboardDrag(user, 'Comissões', '{ArrowUp}{ArrowUp}');

    await waitFor(() => expect(puts.size).toBe(3));
    expect(reorders).toHaveLength(1);
    expect(getDados.mock.calls.map(([id]) => id as number).sort()).toEqual([11, 12, 13]);
    const body = (p: Painel, ordem: number) => ({
      nomePainel: p.nomePainel,
      workspaceId: p.workspaceId,
      reportId: p.reportId,
      usaRls: p.usaRls,
      classificacaoId: 1,
      ordem,
    });
    const [vendasMensais, metas, comissoes] = adminGroups()[0]!.paineis;
    // Exactly these fields: no rlsConfigurations, so the server keeps the RLS roles.
    expect(puts.get(13)).toStrictEqual(body(comissoes!, 1));
    expect(puts.get(11)).toStrictEqual(body(vendasMensais!, 2));
    expect(puts.get(12)).toStrictEqual(body(metas!, 3));
    await waitFor(() => expect(screen.queryByText('Salvando...')).not.toBeInTheDocument());
    expect(namesIn('Vendas')).toEqual(['Comissões', 'Vendas Mensais', 'Metas']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('moves a panel onto a panel of another classification with a panel update, then renumbers that group', async () => {
    const reorders = captureReorder();
    const { puts } = servePanelUpdates();
    const user = await renderListForDrag();
    await keyboardDrag(user, 'Comissões', '{ArrowDown}');

    await waitFor(() => expect(reorders).toHaveLength(1));
    const comissoes = adminGroups()[0]!.paineis[2]!;
    expect(puts.get(13)).toStrictEqual({
      nomePainel: 'Comissões',
      workspaceId: comissoes.workspaceId,
      reportId: comissoes.reportId,
      usaRls: false,
      classificacaoId: 2,
      ordem: 1,
    });
    expect(reorders[0]).toEqual([
      { painelId: 13, novaOrdem: 1 },
      { painelId: 21, novaOrdem: 2 },
    ]);
    expect(namesIn('Gestão')).toEqual(['Comissões', 'Orçamento']);
    expect(namesIn('Vendas')).toEqual(['Vendas Mensais', 'Metas']);
    expect(within(screen.getByRole('region', { name: 'Gestão' })).getByText('2 painéis')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Vendas' })).getByText('2 painéis')).toBeInTheDocument();
    expect(
      await screen.findByText('Painel Comissões movido para a classificação Gestão, posição 1.'),
    ).toBeInTheDocument();
  });

  it('moving up into another classification puts the panel last there, and keeps the keyboard focus on it', async () => {
    const reorders = captureReorder();
    const { puts } = servePanelUpdates();
    const user = await renderListForDrag();
    await keyboardDrag(user, 'Orçamento', '{ArrowUp}');

    await waitFor(() => expect(reorders).toHaveLength(1));
    expect(puts.get(21)).toMatchObject({ nomePainel: 'Orçamento', classificacaoId: 1, ordem: 4 });
    expect(reorders[0]).toEqual([
      { painelId: 11, novaOrdem: 1 },
      { painelId: 12, novaOrdem: 2 },
      { painelId: 13, novaOrdem: 3 },
      { painelId: 21, novaOrdem: 4 },
    ]);
    expect(namesIn('Vendas')).toEqual(['Vendas Mensais', 'Metas', 'Comissões', 'Orçamento']);
    expect(
      await screen.findByText('Painel Orçamento movido para a classificação Vendas, posição 4.'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Arrastar para reordenar Orçamento' })).toHaveFocus(),
    );
  });

  it("moves a panel into an empty classification's drop zone (no renumbering needed)", async () => {
    const reorders = captureReorder();
    const { puts } = servePanelUpdates();
    const user = await renderListForDrag('Financeiro');
    await keyboardDrag(user, 'Orçamento', '{ArrowDown}');

    await waitFor(() => expect(puts.size).toBe(1));
    expect(puts.get(21)).toMatchObject({ nomePainel: 'Orçamento', classificacaoId: 3, ordem: 1 });
    expect(namesIn('Financeiro')).toEqual(['Orçamento']);
    expect(
      within(screen.getByRole('region', { name: 'Gestão' })).getByText(/Nenhum painel nesta classificação/),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Salvando...')).not.toBeInTheDocument());
    expect(reorders).toEqual([]);
  });

  it("reverts a move and shows the server's message when the panel update fails", async () => {
    const reorders = captureReorder();
    servePanelUpdates(() => serverMessage('Classificação (classificacaoId) 2 não existe.', 400));
    const user = await renderListForDrag();
    await keyboardDrag(user, 'Comissões', '{ArrowDown}');

    expect(await screen.findByText('Classificação (classificacaoId) 2 não existe.')).toBeInTheDocument();
    expect(namesIn('Vendas')).toEqual(['Vendas Mensais', 'Metas', 'Comissões']);
    expect(namesIn('Gestão')).toEqual(['Orçamento']);
    expect(reorders).toEqual([]);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Arrastar para reordenar Comissões' })).toHaveFocus(),
    );
  });

  it(`falls back to '${MOVE_ERROR}' when a move fails without a reason`, async () => {
    server.use(http.get('/api/paineis/:id/dados', () => new HttpResponse(null, { status: 500 })));
    const user = await renderListForDrag();
    await keyboardDrag(user, 'Comissões', '{ArrowDown}');
    expect(await screen.findByText(MOVE_ERROR)).toBeInTheDocument();
    expect(namesIn('Vendas')).toEqual(['Vendas Mensais', 'Metas', 'Comissões']);
  });

  it('leaves everything as it was when the drag is cancelled with Escape', async () => {
    const reorders = captureReorder();
    const user = await renderListForDrag();
    const handle = await screen.findByRole('button', { name: 'Arrastar para reordenar Metas' });
    act(() => handle.focus());
    await user.keyboard(' ');
    await user.keyboard('{ArrowDown}');
    await user.keyboard('{Escape}');
    expect(await screen.findByText('Movimento cancelado. Painel Metas voltou à posição 2.')).toBeInTheDocument();
    expect(reorders).toEqual([]);
    expect(namesIn('Vendas')).toEqual(['Vendas Mensais', 'Metas', 'Comissões']);
  });
});

describe("'/' opens the access modals, loaded on demand", () => {
  it("opens 'Vincular Usuários ao Painel' and 'Configuração RLS - {name}' for the panel", async () => {
    signIn(ADMIN);
    serveGroups();
    server.use(
      http.get('/api/usuarios365/ativos', () =>
        HttpResponse.json([{ id: 'u1', displayName: 'Ana Lima', email: 'ana@empresa.com.br', department: 'TI' }]),
      ),
      http.get('/api/paineis/12/usuarios', () =>
        HttpResponse.json([{ id: 'u1', displayName: 'Ana Lima', email: 'ana@empresa.com.br' }]),
      ),
      http.get('/api/paineis/12/rls', () => HttpResponse.json([])),
      http.get('/api/grupos365', () => HttpResponse.json([])),
      http.get('/api/paineis/12/grupos', () => HttpResponse.json([])),
    );
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Usuários do painel Metas' }));
    const links = await screen.findByRole('dialog', { name: 'Vincular Usuários ao Painel' });
    // Ana is linked: selected from the start.
    expect(await within(links).findByRole('button', { name: 'Vincular (1)' })).toBeInTheDocument();
    await user.click(within(links).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'RLS do painel Metas' }));
    expect(await screen.findByRole('dialog', { name: 'Configuração RLS - Metas' })).toBeInTheDocument();
  });

  it("opens 'Quem tem acesso - {name}' from 'Acesso'; a name there leads to the person's page on /acessos", async () => {
    signIn(ADMIN);
    serveGroups();
    server.use(
      http.get('/api/paineis/12/acesso', () =>
        HttpResponse.json({
          pessoas: [{ usuarioId: 'u1', nome: 'Ana Lima', email: 'ana@empresa.com.br', motivos: [{ tipo: 'direto' }] }],
          gruposSemEfeito: [],
        }),
      ),
      http.get('/api/usuarios365/ativos', () => HttpResponse.json([])),
      http.get('/api/usuarios365/u1/acesso', () =>
        HttpResponse.json({
          pessoa: { id: 'u1', nome: 'Ana Lima', email: 'ana@empresa.com.br', administrador: false, ativo: true },
          paineis: [],
        }),
      ),
    );
    // jsdom lays nothing out; the modal's list needs a height for the virtualiser to show rows.
    vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(400);
    vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(800);
    const { user, location } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Acesso ao painel Metas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Quem tem acesso - Metas' });
    expect(await within(dialog).findByText('Vínculo direto')).toBeInTheDocument();
    const ana = within(dialog).getByRole('link', { name: 'Ana Lima' });
    expect(ana).toHaveAttribute('href', '/acessos?pessoa=u1');
    await user.click(ana);
    await waitFor(() => expect(location().pathname).toBe('/acessos'));
    expect(location().search).toBe('?pessoa=u1');
    expect(await screen.findByRole('heading', { level: 2, name: 'Ana Lima' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("starts loading the directory and the panel's links, people and groups, when an admin points at 'Usuários'", async () => {
    signIn(ADMIN);
    serveGroups();
    const reads = { users: 0, links: 0, groups: 0, linkedGroups: 0 };
    const counted = (url: string, key: keyof typeof reads) =>
      http.get(url, () => {
        reads[key] += 1;
        return HttpResponse.json([]);
      });
    server.use(
      counted('/api/usuarios365/ativos', 'users'),
      counted('/api/paineis/12/usuarios', 'links'),
      counted('/api/grupos365', 'groups'),
      counted('/api/paineis/12/grupos', 'linkedGroups'),
    );
    const once = { users: 1, links: 1, groups: 1, linkedGroups: 1 };
    const { user } = renderApp('/');
    const button = await screen.findByRole('button', { name: 'Usuários do painel Metas' });
    await user.hover(button);
    await waitFor(() => expect(reads).toEqual(once));
    // Opened just after: what was loaded is used, not loaded again.
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Vincular Usuários ao Painel' });
    expect(await within(dialog).findByText('Nenhum usuário encontrado.')).toBeInTheDocument();
    expect(reads).toEqual(once);
  });
});

/**
 * 2,000 panels in 40 classifications, the first holding 200: the organisation the benchmark measures the list at
 * (bench/, README). Panel ids start at 1000: classification 1 holds 1000-1199.
 */
function manyGroups(): GrupoPaineis[] {
  let id = 1000;
  return Array.from({ length: 40 }, (_, c) => {
    const count = c === 0 ? 200 : c === 39 ? 52 : 46;
    const paineis = Array.from({ length: count }, (_, i) =>
      painel(id, `Painel ${id++}`, [c + 1, `Grupo ${c + 1}`], i + 1),
    );
    return {
      id: c + 1,
      nome: `Grupo ${c + 1}`,
      descricao: c % 2 ? `Descrição ${c + 1}` : null,
      ativo: true,
      quantidadePaineis: count,
      paineis,
    };
  });
}

const renderedRows = () => document.querySelectorAll('li[data-kind="row"]');

/** Scrolls the window (jsdom does not lay out or scroll: the position is set and announced by hand). */
function scrollWindowTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true, writable: true });
  act(() => {
    window.dispatchEvent(new Event('scroll'));
  });
}

describe("'/' with 2,000 panels: only the rows near the viewport are in the page", () => {
  it('renders the first classification and a window of its rows, each telling its place in the whole', async () => {
    signIn(ADMIN);
    serveGroups(manyGroups());
    renderApp('/');
    await screen.findByRole('heading', { name: 'Grupo 1' });
    // Put in the page a few items per frame, until they fill the window.
    const firstFrame = renderedRows().length;
    await waitFor(() => expect(renderedRows().length).toBeGreaterThan(5));
    expect(firstFrame).toBeLessThanOrEqual(4);
    expect(renderedRows().length).toBeLessThanOrEqual(40);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Grupo 1']);
    expect(screen.getByText('200 painéis')).toBeInTheDocument();
    const items = within(screen.getByRole('list', { name: 'Grupo 1' })).getAllByRole('listitem');
    expect(items[0]).toHaveAttribute('aria-posinset', '1');
    expect(items[0]).toHaveAttribute('aria-setsize', '200');
    expect(items[1]).toHaveAttribute('aria-posinset', '2');
    // Filler stands for the rest, hidden from assistive technology.
    expect(document.querySelector('[aria-hidden="true"][style*="height"]')).toBeInTheDocument();
  });

  it('renders other rows as the window scrolls, keeping the focused row (and its card) in the page', async () => {
    signIn(ADMIN);
    serveGroups(manyGroups());
    renderApp('/');
    const handle = await screen.findByRole('button', { name: 'Arrastar para reordenar Painel 1000' });
    act(() => handle.focus());
    try {
      scrollWindowTo(20_000);
      await waitFor(() => expect(screen.queryByRole('link', { name: 'Visualizar painel Painel 1001' })).toBeNull());
      const names = Array.from(renderedRows(), (row) => Number(row.getAttribute('data-painel-id')));
      // Hundreds of panels further down, and the focused one.
      expect(names[0]).toBe(1000);
      expect(names[1]).toBeGreaterThan(1250);
      expect(renderedRows().length).toBeLessThanOrEqual(40);
      expect(handle).toBeInTheDocument();
      expect(handle).toHaveFocus();
      expect(screen.getByRole('heading', { name: 'Grupo 1' })).toBeInTheDocument();

      scrollWindowTo(0);
      expect(await screen.findByRole('link', { name: 'Visualizar painel Painel 1001' })).toBeInTheDocument();
    } finally {
      Object.defineProperty(window, 'scrollY', { value: 0, configurable: true, writable: true });
    }
  });

  it('finds, by the search, a panel of the last classification', async () => {
    signIn(ADMIN);
    serveGroups(manyGroups());
    const { user } = renderApp('/');
    await screen.findByRole('heading', { name: 'Grupo 1' });
    expect(screen.queryByRole('link', { name: 'Visualizar painel Painel 2999' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Buscar painel' }), 'painel 2999');
    expect(await screen.findByRole('link', { name: 'Visualizar painel Painel 2999' })).toHaveAttribute(
      'href',
      '/visualizar/2999',
    );
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Grupo 40']);
    expect(screen.getByText('1 de 52 painéis')).toBeInTheDocument();
  });

  it('reorders with the keyboard in the classification of 200, saving all 200 renumbered', async () => {
    const bodies = captureReorder();
    const user = await renderListForDrag('Grupo 1', manyGroups());
    await keyboardDrag(user, 'Painel 1000', '{ArrowDown}{ArrowDown}');
    await waitFor(() => expect(bodies).toHaveLength(1));
    const body = bodies[0]!;
    expect(body).toHaveLength(200);
    expect(body.slice(0, 4)).toEqual([
      { painelId: 1001, novaOrdem: 1 },
      { painelId: 1002, novaOrdem: 2 },
      { painelId: 1000, novaOrdem: 3 },
      { painelId: 1003, novaOrdem: 4 },
    ]);
    expect(body[199]).toEqual({ painelId: 1199, novaOrdem: 200 });
    expect(await screen.findByText('Painel Painel 1000 movido para a posição 3.')).toBeInTheDocument();
    expect(namesIn('Grupo 1').slice(0, 3)).toEqual(['Painel 1001', 'Painel 1002', 'Painel 1000']);
  });

  it('windows the list for other users too', async () => {
    signIn(USER);
    serveGroups(manyGroups());
    renderApp('/');
    await screen.findByRole('heading', { name: 'Grupo 1' });
    await waitFor(() => expect(renderedRows().length).toBeGreaterThan(5));
    expect(renderedRows().length).toBeLessThanOrEqual(40);
    expect(screen.queryByRole('button', { name: /Arrastar/ })).not.toBeInTheDocument();
  });
});
