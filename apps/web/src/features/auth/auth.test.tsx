import { screen, waitFor, renderHook } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../test/server.ts';
import { ADMIN, fakeToken, signIn, USER } from '../../test/session.ts';
import { renderApp } from '../../test/render-app.tsx';
import { api, setUnauthorizedHandler } from '../../lib/api-client.ts';
import { clearLocalData, readUser } from '../../lib/session-storage.ts';
import { isTokenExpired, PLACEHOLDER_USERNAME, userFromToken } from '../../lib/token.ts';
import { useAuth } from './auth-context.ts';

const emptyLists = () =>
  server.use(
    http.get('/api/paineis/agrupados', () => HttpResponse.json([])),
    http.get('/api/paineis', () => HttpResponse.json([])),
    http.get('/api/classificacoes', () => HttpResponse.json([])),
  );

describe('token rules (requirements: token-validity, token-claims)', () => {
  it('treats a token as expired when it cannot be decoded, has no exp, or exp is in the past (seconds)', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(isTokenExpired('nao-e-um-jwt')).toBe(true);
    expect(isTokenExpired(`${fakeToken().split('.')[0]}.${btoa(JSON.stringify({ name: 'x' }))}.x`)).toBe(true);
    const now = 2_000_000_000;
    const at = (exp: number) => `${fakeToken().split('.')[0]}.${btoa(JSON.stringify({ exp }))}.x`;
    expect(isTokenExpired(at(now - 1), now)).toBe(true);
    expect(isTokenExpired(at(now), now)).toBe(false);
    expect(isTokenExpired(at(now + 60), now)).toBe(false);
  });

  it('reads the username from name, else unique_name, else email, else a placeholder; role defaults to User', () => {
    expect(userFromToken(fakeToken({ name: 'n', unique_name: 'u', email: 'e' })).username).toBe('n');
    expect(userFromToken(fakeToken({ unique_name: 'u', email: 'e' })).username).toBe('u');
    expect(userFromToken(fakeToken({ email: 'e@x.com' })).username).toBe('e@x.com');
    expect(userFromToken(fakeToken({})).username).toBe(PLACEHOLDER_USERNAME);
    expect(userFromToken(fakeToken({})).role).toBe('User');
    expect(
      userFromToken(
        fakeToken({ role: 'Admin', displayName: 'Ana', department: 'TI', jobTitle: 'Dev', officeLocation: 'SP' }),
      ),
    ).toMatchObject({
      role: 'Admin',
      displayName: 'Ana',
      department: 'TI',
      jobTitle: 'Dev',
      officeLocation: 'SP',
    });
  });

  it('cleans exactly what local cleanup names (requirements: local-cleanup)', () => {
    localStorage.setItem('token', 't');
    localStorage.setItem('user', '{}');
    localStorage.setItem('msal.authority', 'x');
    localStorage.setItem('refreshTOKEN', 'x');
    localStorage.setItem('lastUserSeen', 'x');
    localStorage.setItem('tema', 'escuro');
    sessionStorage.setItem('qualquer', 'x');
    clearLocalData();
    expect(Object.keys(localStorage)).toEqual(['tema']);
    expect(sessionStorage.length).toBe(0);
  });
});

describe('session start-up and route guards (requirements: session-states, route-guards)', () => {
  it('shows the full-height spinner with the hidden text while it initialises', async () => {
    signIn(ADMIN);
    emptyLists();
    renderApp('/');
    // The first paint is the spinner; then the app.
    expect(await screen.findByRole('navigation')).toBeInTheDocument();
  });

  it('clears all local storage when a token has no stored user, and goes to /login', async () => {
    localStorage.setItem('token', fakeToken());
    localStorage.setItem('preferencia', 'x');
    const { location } = renderApp('/');
    expect(await screen.findByRole('button', { name: 'Entrar com Microsoft' })).toBeInTheDocument();
    expect(localStorage.length).toBe(0);
    expect(location().pathname).toBe('/login');
  });

  it('is signed in with a valid token and a stored user', async () => {
    signIn(USER);
    emptyLists();
    const { location } = renderApp('/');
    expect(await screen.findByRole('button', { name: 'Bruno Usuário' })).toBeInTheDocument();
    expect(location().pathname).toBe('/');
  });

  it('signs out an expired token: tells the server, cleans up and goes to /login', async () => {
    const logout = vi.fn();
    server.use(
      http.post('/api/auth/logout-complete', ({ request }) => {
        logout(request.headers.get('authorization'));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const expired = fakeToken({ name: 'x' }, -60);
    localStorage.setItem('token', expired);
    localStorage.setItem('user', JSON.stringify(USER));
    const { location } = renderApp('/');
    expect(await screen.findByRole('button', { name: 'Entrar com Microsoft' })).toBeInTheDocument();
    expect(logout).toHaveBeenCalledWith(`Bearer ${expired}`);
    expect(localStorage.getItem('token')).toBeNull();
    expect(location().pathname).toBe('/login');
  });

  it('sends an unauthenticated visitor of any route to /login', async () => {
    for (const path of ['/', '/cadastro', '/classificacoes', '/visualizar/3', '/editar/2']) {
      const { location, unmount } = renderApp(path);
      expect(await screen.findByRole('button', { name: 'Entrar com Microsoft' })).toBeInTheDocument();
      expect(location().pathname).toBe('/login');
      unmount();
    }
  });

  it('sends a non-admin away from the admin routes to /', async () => {
    for (const path of ['/cadastro', '/classificacoes', '/editar/2']) {
      signIn(USER);
      emptyLists();
      const { location, unmount } = renderApp(path);
      await waitFor(() => expect(location().pathname).toBe('/'));
      unmount();
    }
  });

  it('sends unknown routes to /', async () => {
    signIn(USER);
    emptyLists();
    const { location } = renderApp('/nao-existe');
    await waitFor(() => expect(location().pathname).toBe('/'));
  });
});

describe('/login', () => {
  it('shows the card titled Login with the Microsoft button, and no navigation bar', async () => {
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Entrar com Microsoft' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('sends the browser to the microsoft-login endpoint of the auth base', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Entrar com Microsoft' }));
    expect(assign).toHaveBeenCalledWith('/api/auth/microsoft-login');
  });

  it('takes a valid token from the address, stores it with the user, goes to / and drops it from history', async () => {
    emptyLists();
    const token = fakeToken({ name: 'carla@empresa.com.br', displayName: 'Carla Dias', role: 'Admin', sub: 'c1' });
    const { location, router } = renderApp(`/login?token=${token}`);
    expect(await screen.findByRole('button', { name: 'Carla Dias' })).toBeInTheDocument();
    expect(location().pathname).toBe('/');
    expect(location().search).toBe('');
    expect(localStorage.getItem('token')).toBe(token);
    expect(readUser()).toMatchObject({ username: 'carla@empresa.com.br', displayName: 'Carla Dias', role: 'Admin' });
    // Going back does not return to the address with the token.
    await router.navigate(-1);
    expect(router.state.location.search).not.toContain('token');
  });

  it('refuses an expired token with the required message (requirements: token-validity)', async () => {
    renderApp(`/login?token=${fakeToken({ name: 'x' }, -10)}`);
    expect(await screen.findByText('Token expirado. Faça login novamente.')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('shows the Microsoft error when the sign-in came back with one', async () => {
    renderApp('/login?erro=microsoft');
    expect(await screen.findByText('Erro ao processar login Microsoft')).toBeInTheDocument();
  });

  it('redirects an already authenticated user to /', async () => {
    signIn(ADMIN);
    emptyLists();
    const { location } = renderApp('/login');
    await waitFor(() => expect(location().pathname).toBe('/'));
  });
});

describe('navigation bar and logout', () => {
  it('shows brand, Início and, for admins, Classificações and Novo Painel', async () => {
    signIn(ADMIN);
    emptyLists();
    renderApp('/');
    const nav = await screen.findByRole('navigation');
    expect(nav).toHaveTextContent('Painéis');
    expect(screen.getByRole('link', { name: 'Início' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Classificações' })).toHaveAttribute('href', '/classificacoes');
    expect(screen.getByRole('link', { name: 'Novo Painel' })).toHaveAttribute('href', '/cadastro');
  });

  it('hides the admin links from other users and shows the username when there is no display name', async () => {
    signIn({ ...USER, displayName: undefined });
    emptyLists();
    renderApp('/');
    expect(await screen.findByRole('button', { name: USER.username })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Classificações' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Novo Painel' })).not.toBeInTheDocument();
  });

  it('Sair calls the server, clears local data and goes to /login, replacing history', async () => {
    let called = 0;
    server.use(
      http.post('/api/auth/logout-complete', () => {
        called += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    signIn(ADMIN);
    emptyLists();
    localStorage.setItem('authState', 'x');
    const { user, location, router } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Ana Admin' }));
    await user.click(await screen.findByRole('button', { name: 'Sair' }));
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(called).toBe(1);
    expect(localStorage.length).toBe(0);
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('still signs out locally when the server call fails, with only a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.use(http.post('/api/auth/logout-complete', () => HttpResponse.json({ message: 'x' }, { status: 500 })));
    signIn(ADMIN);
    emptyLists();
    const { user, location } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Ana Admin' }));
    await user.click(await screen.findByRole('button', { name: 'Sair' }));
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(warn).toHaveBeenCalled();
  });

  it('signs out on any 401 answer and goes to /login', async () => {
    let logouts = 0;
    emptyLists();
    server.use(
      http.get('/api/classificacoes/admin', () => HttpResponse.json({ message: 'Sessão inválida' }, { status: 401 })),
      http.post('/api/auth/logout-complete', () => {
        logouts += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    signIn(ADMIN);
    const { location } = renderApp('/');
    await screen.findByRole('navigation');
    await expect(api.get('/classificacoes/admin')).rejects.toThrow();
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(logouts).toBe(1);
  });

  it('handles a 401 once per request, and never for the sign-out call itself', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    server.use(
      http.get('/api/paineis', () => HttpResponse.json({}, { status: 401 })),
      http.post('/api/auth/logout-complete', () => HttpResponse.json({}, { status: 401 })),
    );
    await expect(api.get('/paineis')).rejects.toThrow();
    await expect(api.post('/auth/logout-complete')).rejects.toThrow();
    expect(handler).toHaveBeenCalledTimes(1);
    setUnauthorizedHandler(null);
  });
});

describe('useAuth', () => {
  it('fails outside its provider with the required message (requirements: error-catalogue)', () => {
    expect(() => renderHook(() => useAuth())).toThrow('useAuth must be used within an AuthProvider');
  });
});
