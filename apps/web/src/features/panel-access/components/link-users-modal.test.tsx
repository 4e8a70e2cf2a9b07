import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Painel } from '@paineis/contract/panels';
import type { Usuario365, UsuarioVinculado } from '@paineis/contract/users';
import { createQueryClient } from '../../../lib/query-client.ts';
import { painel } from '../../../test/data-generators.ts';
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

/** Answers the two loads; returns the bodies of the POSTs and how many times the links were read. */
function api({ users = USERS, links = linked('u-carlos', 'u-daniela') } = {}) {
  const posts: unknown[] = [];
  const reads = { links: 0 };
  server.use(
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
