import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { GrupoPaineis } from '@paineis/contract/panels';
import { painelComEmbed } from '../test/data-generators.ts';
import { renderApp } from '../test/render-app.tsx';
import { server } from '../test/server.ts';
import { ADMIN, fakeToken, signIn, USER } from '../test/session.ts';
import { requestFirstScreenData } from './first-screen.ts';
import { preloadFirstScreen } from './routes.tsx';

const painel = painelComEmbed({ tokenExpiration: '2026-11-21T12:00:00.000Z' });

/** Answers GET /api/paineis/7 with `answers` in turn (the last one from then on), recording each request's URL. */
function panelAnswers(...answers: Array<() => Response>) {
  const asked: URL[] = [];
  server.use(
    http.get('/api/paineis/7', ({ request }) => {
      asked.push(new URL(request.url));
      return answers[Math.min(asked.length, answers.length) - 1]!();
    }),
  );
  return asked;
}

/** Every request that reaches the network. */
function requestsSeen() {
  const seen: string[] = [];
  server.events.on('request:start', ({ request }) => void seen.push(request.url));
  return seen;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the first screen is asked for as the app starts (main.tsx)', () => {
  it("on '/', the list's first render shows the groups, favourites and recents that had already arrived, with no second request", async () => {
    const { embedToken: _token, embedUrl: _url, tokenExpiration: _expiration, ...listed } = painel;
    const groups: GrupoPaineis[] = [
      {
        id: 2,
        nome: 'Comercial',
        descricao: null,
        ativo: true,
        quantidadePaineis: 1,
        paineis: [listed],
      },
    ];
    const calls = { agrupados: 0, favoritos: 0, recentes: 0 };
    server.use(
      http.get('/api/paineis/agrupados', () => {
        calls.agrupados += 1;
        return HttpResponse.json(groups);
      }),
      http.get('/api/favoritos', () => {
        calls.favoritos += 1;
        return HttpResponse.json({ paineis: [7] });
      }),
      http.get('/api/recentes', () => {
        calls.recentes += 1;
        return HttpResponse.json({ paineis: [7] });
      }),
    );
    signIn(USER);
    // As start.tsx does: the first render once the list's code and its data have arrived.
    await Promise.all([requestFirstScreenData({ pathname: '/', search: '' }), preloadFirstScreen('/')]);
    expect(calls).toEqual({ agrupados: 1, favoritos: 1, recentes: 1 });
    renderApp('/');
    // No spinner first, and nothing arrives later above the list to push it down: 'Recentes' and 'Favoritos' are
    // there at the first render, with the groups.
    expect(screen.getAllByRole('link', { name: 'Visualizar painel Vendas por Região' })).toHaveLength(2);
    expect(screen.getByRole('region', { name: 'Recentes' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Favoritos' })).toBeInTheDocument();
    await tick();
    expect(calls).toEqual({ agrupados: 1, favoritos: 1, recentes: 1 });
  });

  it('asks for nothing without a usable session: none, or an expired token', async () => {
    const seen = requestsSeen();
    await requestFirstScreenData({ pathname: '/', search: '' });
    localStorage.setItem('token', fakeToken({ name: 'x' }, -60));
    localStorage.setItem('user', JSON.stringify(USER));
    await requestFirstScreenData({ pathname: '/visualizar/7', search: '' });
    await tick();
    server.events.removeAllListeners('request:start');
    expect(seen).toEqual([]);
  });

  it('on the viewer, its first render shows the panel that had already arrived, with no second request', async () => {
    const asked = panelAnswers(() => HttpResponse.json(painel));
    signIn(USER);
    // As main.tsx does: the first render once the viewer's code and its panel have arrived.
    await Promise.all([
      requestFirstScreenData({ pathname: '/visualizar/7', search: '?papel=Sul' }),
      preloadFirstScreen('/visualizar/7'),
    ]);
    expect(asked).toHaveLength(1);
    renderApp('/visualizar/7?papel=Sul');
    // No spinner first: the viewer's code and its panel are both there at the first render.
    expect(screen.getByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
    await tick();
    expect(asked).toHaveLength(1);
    // Only an admin may preview a role: a user's ?papel= is not asked for.
    expect(asked[0]!.searchParams.has('papel')).toBe(false);
  });

  it("asks for an admin's ?papel= as the viewer will", async () => {
    const asked = panelAnswers(() => HttpResponse.json({ ...painel, usaRls: true }));
    server.use(http.get('/api/paineis/7/rls/roles', () => HttpResponse.json(['Sul'])));
    signIn(ADMIN);
    void requestFirstScreenData({ pathname: '/visualizar/7', search: '?papel=Sul' });
    renderApp('/visualizar/7?papel=Sul');
    expect(await screen.findByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
    expect(asked.map((url) => url.searchParams.get('papel'))).toEqual(['Sul']);
  });

  it('a failed early request is asked again by the viewer, which handles the answer as its own', async () => {
    const asked = panelAnswers(
      () => HttpResponse.json({ message: 'Falhou.' }, { status: 500 }),
      () => HttpResponse.json(painel),
    );
    signIn(USER);
    await requestFirstScreenData({ pathname: '/visualizar/7', search: '' });
    expect(asked).toHaveLength(1);
    renderApp('/visualizar/7');
    expect(await screen.findByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
    expect(asked).toHaveLength(2);
  });

  it('an early answer for another panel is dropped, not shown', async () => {
    panelAnswers(() => HttpResponse.json(painel));
    server.use(http.get('/api/paineis/8', () => HttpResponse.json({ ...painel, id: 8, nomePainel: 'Outro' })));
    signIn(USER);
    await requestFirstScreenData({ pathname: '/visualizar/7', search: '' });
    renderApp('/visualizar/8');
    expect(await screen.findByRole('heading', { name: 'Outro' })).toBeInTheDocument();
  });
});
