import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PUBLIC_GROUP_GRANTS_NO_PANEL, PUBLIC_GROUP_NOTE } from '@paineis/contract/group-constants';
import type { Grupo365, GrupoVinculado } from '@paineis/contract/groups';
import type { Painel } from '@paineis/contract/panels';
import type { Usuario365, UsuarioVinculado } from '@paineis/contract/users';
import { createQueryClient } from '../../../lib/query-client.ts';
import { grupo365, grupoPublico, grupoVinculado, painel } from '../../../test/data-generators.ts';
import { server } from '../../../test/server.ts';
import { ADMIN, signIn } from '../../../test/session.ts';
import { LinkUsersModal } from './link-users-modal.tsx';

const PAINEL = painel({ nomePainel: 'Vendas Regionais', classificacaoId: 1 });

const USERS: Usuario365[] = [
  { id: 'u-carlos', displayName: 'Carlos Souza', email: 'carlos@empresa.com.br', department: 'TI' },
  { id: 'u-beatriz', displayName: 'Beatriz Lima', email: 'beatriz@empresa.com.br', department: 'Marketing' },
  { id: 'u-daniela', displayName: 'Daniela Rocha', email: 'dani@empresa.com.br', department: null },
  { id: 'u-alvaro', displayName: 'Álvaro Nunes', email: 'alvaro@empresa.com.br', department: 'Financeiro' },
  { id: 'u-joao', displayName: 'João Pereira', email: 'jp@empresa.com.br', department: 'Operações' },
];
const linked = (...ids: string[]): UsuarioVinculado[] =>
  USERS.filter((u) => ids.includes(u.id)).map(({ id, email, displayName }) => ({ id, email, displayName }));

/** The groups' two loads, for the tests about people: no group in the directory, none linked. */
const noGroups = () => [
  http.get('/api/grupos365', () => HttpResponse.json([])),
  http.get('/api/paineis/7/grupos', () => HttpResponse.json([])),
];

/** Answers the two loads; returns the bodies of the POSTs and how many times the links were read. */
function api({ users = USERS, links = linked('u-carlos', 'u-daniela') } = {}) {
  const posts: unknown[] = [];
  const reads = { links: 0 };
  server.use(
    ...noGroups(),
    http.get('/api/usuarios365/ativos', () => HttpResponse.json(users)),
    http.get('/api/paineis/7/usuarios', () => {
      reads.links += 1;
      return HttpResponse.json(links);
    }),
    http.post('/api/paineis/7/usuarios', async ({ request }) => {
      posts.push(await request.json());
      return HttpResponse.json([]);
    }),
  );
  return { posts, reads };
}

function renderModal(painel: Painel | null = PAINEL) {
  const onHide = vi.fn();
  const queryClient = createQueryClient();
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <LinkUsersModal painel={painel} onHide={onHide} />
    </QueryClientProvider>,
  );
  const rerender = (next: Painel | null) =>
    view.rerender(
      <QueryClientProvider client={queryClient}>
        <LinkUsersModal painel={next} onHide={onHide} />
      </QueryClientProvider>,
    );
  return { user, onHide, rerender };
}

/** The names of the rows in the order shown, with ✓ for the selected ones. */
const rows = () =>
  screen
    .getAllByRole('checkbox')
    .map(
      (box) =>
        `${(box as HTMLInputElement).checked ? '✓ ' : ''}${box.getAttribute('aria-label')!.replace('Selecionar ', '')}`,
    );

const loaded = () => screen.findByRole('checkbox', { name: 'Selecionar Carlos Souza' });

beforeEach(() => {
  signIn(ADMIN);
  // jsdom lays nothing out; the list needs a height for the virtualiser to show rows.
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(350);
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(800);
});

describe('Vincular Usuários ao Painel', () => {
  it('is shown only while a panel is given, titled, with the spinner until the users and links load', async () => {
    server.use(
      ...noGroups(),
      http.get('/api/usuarios365/ativos', async () => {
        await delay(50);
        return HttpResponse.json(USERS);
      }),
      http.get('/api/paineis/7/usuarios', () => HttpResponse.json([])),
    );
    const { rerender } = renderModal(null);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    rerender(PAINEL);
    const dialog = await screen.findByRole('dialog', { name: 'Vincular Usuários ao Painel' });
    expect(within(dialog).getByText('Carregando...')).toBeInTheDocument();
    await loaded();
    expect(within(dialog).queryByText('Carregando...')).not.toBeInTheDocument();
    expect(within(dialog).getByText('Vendas Regionais')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Fechar' })).toBeInTheDocument();
    rerender(null);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the search box and the table of checkbox, Nome, Email, Departamento in a list at most 350px high', async () => {
    api();
    renderModal();
    await loaded();
    const search = screen.getByRole('searchbox', { name: 'Buscar usuário' });
    expect(search).toHaveAttribute('placeholder', 'Buscar usuário...');
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Selecionar', 'Nome', 'Email', 'Departamento']);
    expect(table.parentElement).toHaveStyle({ maxHeight: '350px', overflow: 'auto' });
    const carlos = screen.getByRole('checkbox', { name: 'Selecionar Carlos Souza' }).closest('tr')!;
    expect(
      within(carlos)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['', 'Carlos Souza', 'carlos@empresa.com.br', 'TI']);
  });

  it('starts with the linked users selected, shown first, then everyone by name (pt-BR), also after toggling', async () => {
    api();
    const { user } = renderModal();
    await loaded();
    expect(rows()).toEqual(['✓ Carlos Souza', '✓ Daniela Rocha', 'Álvaro Nunes', 'Beatriz Lima', 'João Pereira']);
    expect(screen.getByRole('button', { name: 'Vincular (2)' })).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Carlos Souza' }));
    expect(rows()).toEqual(['✓ Daniela Rocha', 'Álvaro Nunes', 'Beatriz Lima', 'Carlos Souza', 'João Pereira']);
    expect(screen.getByRole('button', { name: 'Vincular (1)' })).toBeInTheDocument();

    // A click anywhere on the row selects it too.
    await user.click(screen.getByText('beatriz@empresa.com.br'));
    expect(rows()).toEqual(['✓ Beatriz Lima', '✓ Daniela Rocha', 'Álvaro Nunes', 'Carlos Souza', 'João Pereira']);
    expect(screen.getByRole('button', { name: 'Vincular (2)' })).toBeInTheDocument();
  });

  it("reads 'Desvincular Todos' when none is selected, and then sends an empty list", async () => {
    const { posts } = api();
    const { user, onHide } = renderModal();
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Carlos Souza' }));
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Daniela Rocha' }));
    expect(screen.queryByRole('button', { name: /^Vincular/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Desvincular Todos' }));
    await waitFor(() => expect(onHide).toHaveBeenCalled());
    expect(posts).toEqual([[]]);
  });

  it("reads 'Desvincular Todos' for a panel nobody is linked to", async () => {
    api({ links: [] });
    renderModal();
    await loaded();
    expect(rows()).toEqual(['Álvaro Nunes', 'Beatriz Lima', 'Carlos Souza', 'Daniela Rocha', 'João Pereira']);
    expect(screen.getByRole('button', { name: 'Desvincular Todos' })).toBeInTheDocument();
  });

  it('filters by name, e-mail or department, ignoring case and accents', async () => {
    api();
    const { user } = renderModal();
    await loaded();
    const search = screen.getByRole('searchbox', { name: 'Buscar usuário' });

    await user.type(search, 'JOAO');
    await waitFor(() => expect(rows()).toEqual(['João Pereira']));

    await user.clear(search);
    await user.type(search, 'beatriz@');
    await waitFor(() => expect(rows()).toEqual(['Beatriz Lima']));

    await user.clear(search);
    await user.type(search, 'operacoes');
    await waitFor(() => expect(rows()).toEqual(['João Pereira']));

    await user.clear(search);
    await user.type(search, 'ninguém');
    expect(await screen.findByText('Nenhum usuário encontrado.')).toBeInTheDocument();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);

    // Selecting within a search keeps the selection when the search is cleared.
    await user.clear(search);
    await user.type(search, 'alvaro');
    await waitFor(() => expect(rows()).toEqual(['Álvaro Nunes']));
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Álvaro Nunes' }));
    await user.clear(search);
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(rows()).toEqual(['✓ Álvaro Nunes', '✓ Carlos Souza', '✓ Daniela Rocha', 'Beatriz Lima', 'João Pereira']);
  });

  it('sends the ids of the selected users, closes and reloads the links', async () => {
    const { posts, reads } = api();
    const { user, onHide } = renderModal();
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar João Pereira' }));
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Carlos Souza' }));
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Álvaro Nunes' }));
    await user.click(screen.getByRole('button', { name: 'Vincular (3)' }));
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(posts).toEqual([['u-alvaro', 'u-daniela', 'u-joao']]);
    await waitFor(() => expect(reads.links).toBe(2));
  });

  it('keeps a linked user who is no longer active, as a row of its own', async () => {
    const { posts } = api({
      links: [...linked('u-carlos'), { id: 'u-ex', email: 'ex@empresa.com.br', displayName: 'Ex Funcionário' }],
    });
    const { user, onHide } = renderModal();
    await loaded();
    expect(rows().slice(0, 2)).toEqual(['✓ Carlos Souza', '✓ Ex Funcionário']);
    await user.click(screen.getByRole('button', { name: 'Vincular (2)' }));
    await waitFor(() => expect(onHide).toHaveBeenCalled());
    expect(posts).toEqual([['u-carlos', 'u-ex']]);
  });

  it('only logs a link failure: nothing is shown and the modal stays open', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    api();
    server.use(http.post('/api/paineis/7/usuarios', () => HttpResponse.json({ message: 'Falhou' }, { status: 500 })));
    const { user, onHide } = renderModal();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Vincular (2)' }));
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Falhou')).not.toBeInTheDocument();
    expect(onHide).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Vincular (2)' })).toBeEnabled();
  });

  it('Cancelar closes without sending anything', async () => {
    const { posts } = api();
    const { user, onHide } = renderModal();
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar João Pereira' }));
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onHide).toHaveBeenCalledTimes(1);
    expect(posts).toEqual([]);
  });

  it('shows a load failure with a way to try again', async () => {
    let fail = true;
    server.use(
      ...noGroups(),
      http.get('/api/usuarios365/ativos', () =>
        fail ? HttpResponse.json({}, { status: 500 }) : HttpResponse.json(USERS),
      ),
      http.get('/api/paineis/7/usuarios', () => HttpResponse.json(linked('u-carlos'))),
    );
    const { user } = renderModal();
    expect(await screen.findByRole('alert')).toHaveTextContent('Erro ao carregar usuários');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    await loaded();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(rows()[0]).toBe('✓ Carlos Souza');
  });

  it("shows the server's message when the load is refused", async () => {
    server.use(
      ...noGroups(),
      http.get('/api/usuarios365/ativos', () => HttpResponse.json(USERS)),
      http.get('/api/paineis/7/usuarios', () =>
        HttpResponse.json({ message: 'Painel não encontrado.' }, { status: 404 }),
      ),
    );
    renderModal();
    expect(await screen.findByRole('alert')).toHaveTextContent('Painel não encontrado.');
  });

  it('stays light with 20,000 users: only the rows in view are in the page, and the search still filters', async () => {
    const many: Usuario365[] = Array.from({ length: 20_000 }, (_, i) => ({
      id: `u${i}`,
      displayName: `Usuário ${String(i).padStart(5, '0')}`,
      email: `usuario${i}@empresa.com.br`,
      department: ['Vendas', 'TI', 'Finanças', 'Jurídico'][i % 4]!,
    }));
    const { posts } = api({
      users: many,
      links: [{ id: 'u19999', email: 'usuario19999@empresa.com.br', displayName: 'Usuário 19999' }],
    });
    const { user, onHide } = renderModal();
    const table = await screen.findByRole('table');
    await within(table).findByRole('checkbox', { name: 'Selecionar Usuário 19999' });
    expect(within(table).getAllByRole('row').length).toBeLessThan(100);
    expect(rows().slice(0, 3)).toEqual(['✓ Usuário 19999', 'Usuário 00000', 'Usuário 00001']);
    expect(table).toHaveAttribute('aria-rowcount', '20001');
    expect(screen.getByText(/20\.000 de 20\.000 usuários · 1 selecionado/)).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Buscar usuário' }), 'usuário 1234');
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(rows()[0]).toBe('Usuário 12340');
    expect(rows()[9]).toBe('Usuário 12349');
    expect(screen.getByText(/10 de 20\.000 usuários/)).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Usuário 12345' }));
    await user.click(screen.getByRole('button', { name: 'Vincular (2)' }));
    await waitFor(() => expect(onHide).toHaveBeenCalled());
    expect(posts).toEqual([['u12345', 'u19999']]);
  });
});

const GROUPS: Grupo365[] = [
  grupo365({ id: 'g-com', nome: 'Comercial', descricao: 'Equipe comercial', tipo: 'seguranca', membros: 1234 }),
  grupo365({ id: 'g-sul', nome: 'Comercial - Sul', descricao: 'Vendas da região Sul', membros: 1 }),
  grupo365({ id: 'g-dir', nome: 'Diretoria', descricao: null, tipo: 'microsoft365', membros: 5 }),
  grupo365({ id: 'g-fin', nome: 'Financeiro', descricao: 'Contas e orçamento', tipo: 'seguranca', membros: 0 }),
  grupo365({ id: 'g-ope', nome: 'Operações', descricao: 'Logística e expedição', tipo: 'microsoft365', membros: 40 }),
];

/**
 * The people's loads (Carlos and Daniela linked) and the groups' (Financeiro linked); returns the bodies of the
 * POSTs of people and of groups, and how many times the linked groups were read.
 */
function apiWithGroups({
  groups = GROUPS,
  linkedGroups = [grupoVinculado({ id: 'g-fin', nome: 'Financeiro' })],
}: { groups?: Grupo365[]; linkedGroups?: GrupoVinculado[] } = {}) {
  const { posts } = api();
  const groupPosts: unknown[] = [];
  const reads = { linkedGroups: 0 };
  server.use(
    http.get('/api/grupos365', () => HttpResponse.json(groups)),
    http.get('/api/paineis/7/grupos', () => {
      reads.linkedGroups += 1;
      return HttpResponse.json(linkedGroups);
    }),
    http.post('/api/paineis/7/grupos', async ({ request }) => {
      groupPosts.push(await request.json());
      return HttpResponse.json([]);
    }),
  );
  return { posts, groupPosts, reads };
}

async function openGroupsTab(user: ReturnType<typeof userEvent.setup>) {
  await loaded();
  await user.click(screen.getByRole('tab', { name: /^Grupos/ }));
  return screen.findByRole('searchbox', { name: 'Buscar grupo' });
}

/** The live line counting the groups shown, of all, and the selected ones. */
const groupCountLine = () => screen.getByText(/ de \d+ grupos? · /);

describe('Vincular Usuários ao Painel: tabs Pessoas and Grupos', () => {
  it("has the tabs 'Pessoas' and 'Grupos' with their selected counts, and switching shows the other's content", async () => {
    apiWithGroups();
    const { user } = renderModal();
    await loaded();
    const pessoas = screen.getByRole('tab', { name: 'Pessoas (2)' });
    const grupos = screen.getByRole('tab', { name: 'Grupos (1)' });
    expect(screen.getByRole('tablist')).toContainElement(pessoas);
    expect(pessoas).toHaveAttribute('aria-selected', 'true');
    expect(grupos).toHaveAttribute('aria-selected', 'false');
    expect(screen.getByRole('tabpanel', { name: 'Pessoas (2)' })).toContainElement(screen.getByRole('table'));
    // The footer counts people and groups.
    expect(screen.getByRole('button', { name: 'Vincular (3)' })).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Buscar usuário' }), 'joão');
    await user.click(grupos);
    expect(grupos).toHaveAttribute('aria-selected', 'true');
    const panel = screen.getByRole('tabpanel', { name: 'Grupos (1)' });
    const search = within(panel).getByRole('searchbox', { name: 'Buscar grupo' });
    expect(search).toHaveAttribute('placeholder', 'Buscar grupo...');
    // The groups' table only: the people's has left the page.
    expect(screen.getAllByRole('table')).toEqual([within(panel).getByRole('table')]);
    expect(screen.queryByRole('columnheader', { name: 'Departamento' })).not.toBeInTheDocument();
    expect(screen.queryByRole('searchbox', { name: 'Buscar usuário' })).not.toBeInTheDocument();

    // Back to the people: their search is as it was left.
    await user.click(screen.getByRole('tab', { name: 'Pessoas (2)' }));
    expect(screen.getByRole('searchbox', { name: 'Buscar usuário' })).toHaveValue('joão');
    expect(rows()).toEqual(['João Pereira']);
  });

  it('lists the groups, selected first, each with its name, description, type and member count', async () => {
    apiWithGroups();
    const { user } = renderModal();
    await openGroupsTab(user);
    expect(rows()).toEqual(['✓ Financeiro', 'Comercial', 'Comercial - Sul', 'Diretoria', 'Operações']);
    expect(groupCountLine()).toHaveTextContent('5 de 5 grupos · 1 selecionado');
    // A table as the people's: a checkbox column, then Grupo (name and description), Tipo, Membros.
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Selecionar',
      'Grupo',
      'Tipo',
      'Membros',
    ]);

    const item = (name: string) => screen.getByRole('checkbox', { name: `Selecionar ${name}` }).closest('tr')!;
    expect(within(item('Comercial')).getByText('Equipe comercial')).toBeInTheDocument();
    expect(within(item('Comercial')).getByText('Segurança')).toBeInTheDocument();
    expect(within(item('Comercial')).getByText('1.234 membros')).toBeInTheDocument();
    expect(within(item('Comercial - Sul')).getByText('1 membro')).toBeInTheDocument();
    expect(within(item('Diretoria')).getByText('Microsoft 365')).toBeInTheDocument();
    expect(within(item('Diretoria')).getByText('5 membros')).toBeInTheDocument();
    expect(within(item('Financeiro')).getByText('0 membros')).toBeInTheDocument();

    // A click on the name ticks the group too; the tab, the count line and the footer follow.
    await user.click(within(item('Diretoria')).getByText('Diretoria'));
    expect(rows()).toEqual(['✓ Diretoria', '✓ Financeiro', 'Comercial', 'Comercial - Sul', 'Operações']);
    expect(groupCountLine()).toHaveTextContent('5 de 5 grupos · 2 selecionados');
    expect(screen.getByRole('tab', { name: 'Grupos (2)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Vincular (4)' })).toBeInTheDocument();
  });

  it('filters the groups by name or description, ignoring case and accents, and counts what is shown', async () => {
    apiWithGroups();
    const { user } = renderModal();
    const search = await openGroupsTab(user);

    await user.type(search, 'COMERCIAL');
    await waitFor(() => expect(rows()).toEqual(['Comercial', 'Comercial - Sul']));
    expect(groupCountLine()).toHaveTextContent('2 de 5 grupos · 1 selecionado');

    await user.clear(search);
    await user.type(search, 'regiao sul');
    await waitFor(() => expect(rows()).toEqual(['Comercial - Sul']));
    expect(groupCountLine()).toHaveTextContent('1 de 5 grupos · 1 selecionado');

    await user.clear(search);
    await user.type(search, 'logística');
    await waitFor(() => expect(rows()).toEqual(['Operações']));
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Operações' }));
    expect(groupCountLine()).toHaveTextContent('1 de 5 grupos · 2 selecionados');

    await user.clear(search);
    await user.type(search, 'ninguém');
    expect(await screen.findByText('Nenhum grupo encontrado.')).toBeInTheDocument();
    expect(groupCountLine()).toHaveTextContent('0 de 5 grupos · 2 selecionados');

    await user.clear(search);
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(rows().slice(0, 2)).toEqual(['✓ Financeiro', '✓ Operações']);
  });

  it("writes 'grupo' for a directory of one group", async () => {
    apiWithGroups({ groups: [GROUPS[2]!], linkedGroups: [] });
    const { user } = renderModal();
    await openGroupsTab(user);
    expect(groupCountLine()).toHaveTextContent('1 de 1 grupo · 0 selecionados');
    expect(screen.getByRole('tab', { name: 'Grupos (0)' })).toBeInTheDocument();
  });

  it('sends only the groups when only they changed, and reloads them', async () => {
    const { posts, groupPosts, reads } = apiWithGroups();
    const { user, onHide } = renderModal();
    await openGroupsTab(user);
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Operações' }));
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Comercial' }));
    await user.click(screen.getByRole('button', { name: 'Vincular (5)' }));
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(groupPosts).toEqual([['g-com', 'g-fin', 'g-ope']]);
    expect(posts).toEqual([]);
    await waitFor(() => expect(reads.linkedGroups).toBe(2));
  });

  it('marks a public group that may open the panel (the default), and links it as any other', async () => {
    const { groupPosts } = apiWithGroups({ groups: [...GROUPS, grupoPublico()] });
    const { user, onHide } = renderModal();
    await openGroupsTab(user);
    const item = (name: string) => screen.getByRole('checkbox', { name: `Selecionar ${name}` }).closest('tr')!;
    expect(within(item('Projeto Expansão')).getByText(PUBLIC_GROUP_NOTE)).toBeInTheDocument();
    expect(within(item('Projeto Expansão')).getByTitle(PUBLIC_GROUP_NOTE)).toHaveTextContent(/^Público/);
    expect(within(item('Projeto Expansão')).getByText('Microsoft 365')).toBeInTheDocument();
    expect(within(item('Projeto Expansão')).getByText('Projeto de expansão para novas regiões')).toBeInTheDocument();
    expect(within(item('Projeto Expansão')).queryByText(PUBLIC_GROUP_GRANTS_NO_PANEL)).not.toBeInTheDocument();
    expect(within(item('Diretoria')).queryByText(PUBLIC_GROUP_NOTE)).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Projeto Expansão' }));
    await user.click(screen.getByRole('button', { name: 'Vincular (4)' }));
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(groupPosts).toEqual([['g-fin', 'g-projeto']]);
  });

  it('keeps a public group linked where it opens the panel to nobody, and does not let another be linked', async () => {
    const none = { paineis: false, papeisRls: false };
    apiWithGroups({
      groups: [
        ...GROUPS,
        grupoPublico({ concede: none }),
        grupoPublico({ id: 'g-aberto', nome: 'Aberto', concede: none }),
      ],
      linkedGroups: [grupoVinculado({ id: 'g-aberto', nome: 'Aberto', publico: true })],
    });
    const { user } = renderModal();
    await openGroupsTab(user);
    const item = (name: string) => screen.getByRole('checkbox', { name: `Selecionar ${name}` }).closest('tr')!;
    const projeto = screen.getByRole('checkbox', { name: 'Selecionar Projeto Expansão' });
    expect(projeto).toBeDisabled();
    expect(within(item('Projeto Expansão')).getByText(PUBLIC_GROUP_NOTE)).toBeInTheDocument();
    expect(within(item('Projeto Expansão')).getByText(PUBLIC_GROUP_GRANTS_NO_PANEL)).toBeInTheDocument();
    await user.click(within(item('Projeto Expansão')).getByText('Projeto Expansão'));
    expect(projeto).not.toBeChecked();

    // Linked before it became public: shown as granting nothing, and it may be unlinked (and ticked back).
    const aberto = screen.getByRole('checkbox', { name: 'Selecionar Aberto' });
    expect(aberto).toBeChecked();
    expect(within(item('Aberto')).getByText(PUBLIC_GROUP_GRANTS_NO_PANEL)).toBeInTheDocument();
    await user.click(aberto);
    expect(aberto).not.toBeChecked();
    await user.click(aberto);
    expect(aberto).toBeChecked();
  });

  it('sends only the people when only they changed', async () => {
    const { posts, groupPosts } = apiWithGroups();
    const { user, onHide } = renderModal();
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar João Pereira' }));
    // Ticked and unticked again: the groups are as they were.
    await user.click(screen.getByRole('tab', { name: 'Grupos (1)' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Selecionar Diretoria' }));
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Diretoria' }));
    await user.click(screen.getByRole('button', { name: 'Vincular (4)' }));
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(posts).toEqual([['u-carlos', 'u-daniela', 'u-joao']]);
    expect(groupPosts).toEqual([]);
  });

  it('sends both lists when both changed', async () => {
    const { posts, groupPosts } = apiWithGroups();
    const { user, onHide } = renderModal();
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Carlos Souza' }));
    await user.click(screen.getByRole('tab', { name: 'Grupos (1)' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Selecionar Comercial - Sul' }));
    expect(screen.getByRole('tab', { name: 'Pessoas (1)' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Vincular (3)' }));
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(posts).toEqual([['u-daniela']]);
    expect(groupPosts).toEqual([['g-sul', 'g-fin']]);
  });

  it("reads 'Desvincular Todos' only when no person and no group is selected, and then empties both", async () => {
    const { posts, groupPosts } = apiWithGroups();
    const { user, onHide } = renderModal();
    await loaded();
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Carlos Souza' }));
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Daniela Rocha' }));
    // A group is still linked.
    expect(screen.getByRole('button', { name: 'Vincular (1)' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Grupos (1)' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Selecionar Financeiro' }));
    const unlinkAll = screen.getByRole('button', { name: 'Desvincular Todos' });
    expect(unlinkAll).toHaveClass('btn-danger');
    await user.click(unlinkAll);
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(1));
    expect(posts).toEqual([[]]);
    expect(groupPosts).toEqual([[]]);
  });

  it('counts a panel linked only to groups: no person selected, yet not Desvincular Todos', async () => {
    apiWithGroups();
    server.use(http.get('/api/paineis/7/usuarios', () => HttpResponse.json([])));
    renderModal();
    await loaded();
    expect(screen.getByRole('tab', { name: 'Pessoas (0)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Vincular (1)' })).toBeInTheDocument();
  });

  it("shows 'Erro ao carregar grupos' in the groups tab, while the people can still be linked", async () => {
    const { posts } = api();
    let fail = true;
    server.use(
      http.get('/api/grupos365', () => (fail ? HttpResponse.json({}, { status: 500 }) : HttpResponse.json(GROUPS))),
      http.get('/api/paineis/7/grupos', () => HttpResponse.json([{ id: 'g-dir', nome: 'Diretoria' }])),
    );
    const { user, onHide } = renderModal();
    await loaded();
    // Nothing is known of the groups yet: the footer counts the people only.
    expect(screen.getByRole('tab', { name: 'Grupos' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Vincular (2)' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Grupos' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Erro ao carregar grupos');

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('checkbox', { name: 'Selecionar Diretoria' })).toBeChecked();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Grupos (1)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Vincular (3)' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Pessoas (2)' }));
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Carlos Souza' }));
    await user.click(screen.getByRole('button', { name: 'Vincular (2)' }));
    await waitFor(() => expect(onHide).toHaveBeenCalled());
    expect(posts).toEqual([['u-daniela']]);
  });

  it("shows the server's reason beneath 'Erro ao carregar grupos' when the linked groups are refused", async () => {
    api();
    server.use(
      http.get('/api/grupos365', () => HttpResponse.json(GROUPS)),
      http.get('/api/paineis/7/grupos', () => HttpResponse.json({ message: 'Acesso negado.' }, { status: 403 })),
    );
    const { user } = renderModal();
    await loaded();
    await user.click(screen.getByRole('tab', { name: 'Grupos' }));
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Erro ao carregar grupos')).toBeInTheDocument();
    expect(within(alert).getByText('Acesso negado.')).toBeInTheDocument();
  });

  it('only logs a failure to link the groups: the modal stays open', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { posts } = apiWithGroups();
    server.use(http.post('/api/paineis/7/grupos', () => HttpResponse.json({ message: 'Falhou' }, { status: 500 })));
    const { user, onHide } = renderModal();
    await openGroupsTab(user);
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar Diretoria' }));
    await user.click(screen.getByRole('button', { name: 'Vincular (4)' }));
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Erro ao vincular grupos ao painel', expect.anything()));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onHide).not.toHaveBeenCalled();
    expect(posts).toEqual([]);
    expect(screen.getByRole('button', { name: 'Vincular (4)' })).toBeEnabled();
  });
});
