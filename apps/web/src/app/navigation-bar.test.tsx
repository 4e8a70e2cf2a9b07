import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render-app.tsx';
import { server } from '../test/server.ts';
import { ADMIN, signIn, USER } from '../test/session.ts';

const emptyLists = () =>
  server.use(
    http.get('/api/paineis/agrupados', () => HttpResponse.json([])),
    http.get('/api/classificacoes', () => HttpResponse.json([])),
  );

const menu = () => document.querySelector('[aria-labelledby="menu-usuario"]')!;

describe('navigation bar (Bootstrap markup, no react-bootstrap Navbar)', () => {
  it("shows an admin 'Minhas assinaturas', then 'Classificações', 'Novo Painel', 'Uso', 'Auditoria', 'Acessos', 'Assinaturas' and 'Capacidade', in that order", async () => {
    signIn(ADMIN);
    emptyLists();
    renderApp('/');
    await screen.findByRole('button', { name: 'Ana Admin' });
    const links = document.querySelectorAll('#navegacao-principal .me-auto a');
    expect([...links].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Início', '/'],
      ['Minhas assinaturas', '/assinaturas'],
      ['Classificações', '/classificacoes'],
      ['Novo Painel', '/cadastro'],
      ['Uso', '/uso'],
      ['Auditoria', '/auditoria'],
      ['Acessos', '/acessos'],
      ['Assinaturas', '/assinaturas/todas'],
      ['Capacidade', '/capacidade'],
    ]);
  });

  it("shows a user 'Início' and 'Minhas assinaturas', and none of the admin links", async () => {
    signIn(USER);
    emptyLists();
    renderApp('/');
    await screen.findByRole('button', { name: 'Bruno Usuário' });
    const links = document.querySelectorAll('#navegacao-principal .me-auto a');
    expect([...links].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Início', '/'],
      ['Minhas assinaturas', '/assinaturas'],
    ]);
    for (const name of ['Classificações', 'Novo Painel', 'Uso', 'Auditoria', 'Acessos', 'Assinaturas', 'Capacidade']) {
      expect(screen.queryByRole('link', { name })).not.toBeInTheDocument();
    }
  });

  it("leads everyone to 'Minhas assinaturas', and sends a user away from the admins' subscription screens", async () => {
    signIn(USER);
    emptyLists();
    server.use(http.get('/api/assinaturas', () => HttpResponse.json({ assinaturas: [] })));
    const { user, location, router } = renderApp('/');
    await user.click(await screen.findByRole('link', { name: 'Minhas assinaturas' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Minhas assinaturas' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Minhas assinaturas' })).toHaveAttribute('aria-current', 'page');
    for (const adminOnly of ['/assinaturas/todas', '/caixa-de-saida', '/capacidade']) {
      await act(() => router.navigate(adminOnly));
      await waitFor(() => expect(location().pathname).toBe('/'));
    }
  });

  it('opens the user menu on click and closes it with Escape, giving the focus back to the toggle', async () => {
    signIn(USER);
    emptyLists();
    const { user } = renderApp('/');
    const toggle = await screen.findByRole('button', { name: 'Bruno Usuário' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(menu()).not.toHaveClass('show');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveClass('dropdown-toggle', 'show');
    expect(menu()).toHaveClass('dropdown-menu', 'dropdown-menu-end', 'show');
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(menu()).not.toHaveClass('show');
    expect(toggle).toHaveFocus();
  });

  it('closes the user menu on a click elsewhere, and opens it with the arrow key, focusing Sair', async () => {
    signIn(USER);
    emptyLists();
    const { user } = renderApp('/');
    const toggle = await screen.findByRole('button', { name: 'Bruno Usuário' });
    await user.click(toggle);
    await user.click(document.body);
    expect(menu()).not.toHaveClass('show');
    toggle.focus();
    await user.keyboard('{ArrowDown}');
    expect(menu()).toHaveClass('show');
    expect(screen.getByRole('button', { name: 'Sair' })).toHaveFocus();
    await user.tab();
    expect(menu()).not.toHaveClass('show');
  });

  it('opens and closes the collapsed navigation with the toggler, as Bootstrap animates it', async () => {
    signIn(ADMIN);
    emptyLists();
    const { user } = renderApp('/');
    const toggler = await screen.findByRole('button', { name: 'Abrir navegação' });
    const collapse = document.getElementById('navegacao-principal')!;
    expect(toggler).toHaveAttribute('aria-controls', 'navegacao-principal');
    expect(toggler).toHaveAttribute('aria-expanded', 'false');
    expect(toggler).toHaveClass('navbar-toggler', 'collapsed');
    expect(collapse).toHaveClass('navbar-collapse', 'collapse');
    await user.click(toggler);
    expect(toggler).toHaveAttribute('aria-expanded', 'true');
    expect(toggler).not.toHaveClass('collapsed');
    expect(collapse).toHaveClass('collapsing');
    await waitFor(() => expect(collapse).toHaveClass('collapse', 'show'));
    expect(collapse).not.toHaveClass('collapsing');
    // Choosing a destination closes it.
    await user.click(screen.getByRole('link', { name: 'Início' }));
    expect(toggler).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(collapse).not.toHaveClass('show'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    expect(collapse).toHaveClass('collapse');
    expect(collapse).not.toHaveClass('collapsing');
  });
});
