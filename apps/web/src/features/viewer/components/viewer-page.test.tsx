import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { painelComEmbed } from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { ADMIN, signIn, USER } from '../../../test/session.ts';

const painel = painelComEmbed({ usaRls: true, tokenExpiration: '2026-11-21T12:00:00.000Z' });

describe('/visualizar/{id}', () => {
  it('shows the panel name, a Voltar link to the list and the RLS banner', async () => {
    signIn(USER);
    server.use(http.get('/api/paineis/7', () => HttpResponse.json(painel)));
    renderApp('/visualizar/7');
    expect(await screen.findByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Voltar/ })).toHaveAttribute('href', '/');
    expect(screen.getByText('Este painel utiliza Row Level Security (RLS)')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Páginas do relatório' })).toBeInTheDocument();
  });

  it('shows no RLS banner for a panel without RLS', async () => {
    signIn(USER);
    server.use(http.get('/api/paineis/7', () => HttpResponse.json({ ...painel, usaRls: false })));
    renderApp('/visualizar/7');
    expect(await screen.findByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
    expect(screen.queryByText('Este painel utiliza Row Level Security (RLS)')).not.toBeInTheDocument();
  });

  it("shows 'Painel não encontrado' with 'Voltar para Lista' for an unknown panel", async () => {
    signIn(USER);
    server.use(
      http.get('/api/paineis/99', () => HttpResponse.json({ message: 'Painel não encontrado.' }, { status: 404 })),
    );
    renderApp('/visualizar/99');
    expect(await screen.findByRole('heading', { name: 'Painel não encontrado' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voltar para Lista' })).toHaveAttribute('href', '/');
  });

  it("shows 'Painel não encontrado' for an id that is not a number, without asking the server", async () => {
    signIn(USER);
    renderApp('/visualizar/abc');
    expect(await screen.findByRole('heading', { name: 'Painel não encontrado' })).toBeInTheDocument();
  });

  it("shows 'Erro ao carregar painel' with the server's reason, a retry and 'Voltar para Lista'", async () => {
    signIn(USER);
    let calls = 0;
    server.use(
      http.get('/api/paineis/7', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json(
              { message: 'A incorporação de relatórios do Power BI ainda não está disponível.' },
              { status: 503 },
            )
          : HttpResponse.json(painel);
      }),
    );
    const { user } = renderApp('/visualizar/7');
    expect(await screen.findByRole('heading', { name: 'Erro ao carregar painel' })).toBeInTheDocument();
    expect(screen.getByText('A incorporação de relatórios do Power BI ainda não está disponível.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voltar para Lista' })).toHaveAttribute('href', '/');
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
  });

  it('signs out and goes to /login when the panel is answered 401, as on any 401', async () => {
    signIn(USER);
    let logouts = 0;
    server.use(
      http.get('/api/paineis/7', () => HttpResponse.json({ message: 'Sessão inválida' }, { status: 401 })),
      http.post('/api/auth/logout-complete', () => {
        logouts += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { location } = renderApp('/visualizar/7');
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(logouts).toBe(1);
  });

  it('shows the report error panel with debug info when the panel comes without an embed token', async () => {
    signIn(USER);
    server.use(http.get('/api/paineis/7', () => HttpResponse.json({ ...painel, embedToken: '' })));
    renderApp('/visualizar/7');
    expect(await screen.findByRole('heading', { name: 'Erro ao carregar relatório' })).toBeInTheDocument();
    expect(screen.getByText('Token de embed não fornecido')).toBeInTheDocument();
    expect(screen.getByText(painel.reportId)).toBeInTheDocument();
  });

  describe('the RLS role an admin previews the panel as', () => {
    /** The panel as the server embeds it for each role asked, recording what was asked. */
    function panelServer() {
      const asked: (string | null)[] = [];
      server.use(
        http.get('/api/paineis/7/rls/roles', () => HttpResponse.json(['Diretoria', 'Gerente Regional'])),
        http.get('/api/paineis/7', ({ request }) => {
          const papel = new URL(request.url).searchParams.get('papel');
          asked.push(papel);
          if (papel === 'Extinto') {
            return HttpResponse.json({ message: 'O papel RLS "Extinto" não existe neste painel.' }, { status: 400 });
          }
          return HttpResponse.json({ ...painel, embedToken: `token-${papel ?? 'todos'}` });
        }),
      );
      return asked;
    }

    it('defaults to all roles and re-embeds the report as the role chosen, kept in the address', async () => {
      signIn(ADMIN);
      const asked = panelServer();
      const { user, location } = renderApp('/visualizar/7');
      const select = await screen.findByRole('combobox', { name: 'Visualizar como' });
      await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(3));
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Todos os papéis', 'Diretoria', 'Gerente Regional']);
      expect(select).toHaveValue('');
      await user.selectOptions(select, 'Gerente Regional');
      await waitFor(() => expect(asked).toEqual([null, 'Gerente Regional']));
      expect(location().search).toBe('?papel=Gerente+Regional');
      expect(screen.getByRole('combobox', { name: 'Visualizar como' })).toHaveValue('Gerente Regional');
      await user.selectOptions(screen.getByRole('combobox', { name: 'Visualizar como' }), '');
      await waitFor(() => expect(location().search).toBe(''));
    });

    it('opens with the role in the address, and offers all roles when the server refuses it', async () => {
      signIn(ADMIN);
      const asked = panelServer();
      const { user, location } = renderApp('/visualizar/7?papel=Extinto');
      expect(await screen.findByRole('heading', { name: 'Erro ao carregar painel' })).toBeInTheDocument();
      expect(screen.getByText('O papel RLS "Extinto" não existe neste painel.')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Visualizar com todos os papéis' }));
      expect(await screen.findByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
      expect(location().search).toBe('');
      expect(asked).toEqual(['Extinto', null]);
    });

    it('is not offered to users, and a role in the address is not sent for a user', async () => {
      signIn(USER);
      const asked = panelServer();
      renderApp('/visualizar/7?papel=Diretoria');
      expect(await screen.findByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
      expect(screen.queryByRole('combobox', { name: 'Visualizar como' })).not.toBeInTheDocument();
      expect(asked).toEqual([null]);
    });

    it('is not offered for a panel without RLS', async () => {
      signIn(ADMIN);
      server.use(http.get('/api/paineis/7', () => HttpResponse.json({ ...painel, usaRls: false })));
      renderApp('/visualizar/7');
      expect(await screen.findByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
      expect(screen.queryByRole('combobox', { name: 'Visualizar como' })).not.toBeInTheDocument();
    });
  });
});
