import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AtualizacaoPainel, SaudePainel } from '@paineis/contract/power-bi';
import { PANEL_UNAVAILABLE } from '@paineis/contract/constants';
import { painelComEmbed, type FakeEmbedder } from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { ADMIN, signIn, USER } from '../../../test/session.ts';

const embeds = vi.hoisted(() => [] as unknown[]);
// Each embed made is kept, to fire its events.
vi.mock('../embedding/create-report-embedder.ts', async () => {
  const { FakeEmbedder } = await import('../../../test/data-generators.ts');
  return {
    createReportEmbedder: () => {
      const embedder = new FakeEmbedder();
      embeds.push(embedder);
      return embedder;
    },
  };
});
afterEach(() => {
  embeds.splice(0);
  vi.useRealTimers();
});

const painel = painelComEmbed();
const NOW = new Date(2026, 10, 27, 14, 30, 0);
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const HOUR = 3_600_000;
const GATEWAY_DOWN = 'O gateway de dados local está offline.';

/** The panel, its freshness (by id, as the API answers) and, for admins, its health. */
function serve(atualizacao: AtualizacaoPainel | null, health: SaudePainel[] = []) {
  server.use(
    http.get('/api/paineis/7', () => HttpResponse.json(painel)),
    http.get('/api/paineis/atualizacoes', () => HttpResponse.json(atualizacao ? { 7: atualizacao } : {})),
    http.get('/api/paineis/saude', () => HttpResponse.json(health)),
  );
}

async function header() {
  const title = await screen.findByRole('heading', { name: 'Vendas por Região' }, { timeout: 5_000 });
  return title.closest('header')!;
}

describe("the viewer's header says when the panel's data was refreshed", () => {
  it.each<[string, string, AtualizacaoPainel]>([
    [
      'concluida',
      'Atualizado há 2 h',
      { status: 'concluida', ultimaAtualizacao: ago(2 * HOUR), ultimaTentativa: ago(2 * HOUR) },
    ],
    [
      'falhou',
      'Atualizado em 26/11 12:30',
      { status: 'falhou', ultimaAtualizacao: ago(26 * HOUR), ultimaTentativa: ago(HOUR), mensagem: GATEWAY_DOWN },
    ],
    [
      'em-andamento',
      'Atualizado há 5 min · Atualizando…',
      { status: 'em-andamento', ultimaAtualizacao: ago(5 * 60_000), ultimaTentativa: ago(60_000) },
    ],
    ['tempo-real', 'Tempo real', { status: 'tempo-real', ultimaAtualizacao: null, ultimaTentativa: null }],
  ])("writes a '%s' refresh for a person as '%s', without the admins' badge", async (_status, text, atualizacao) => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    signIn(USER);
    serve(atualizacao);
    renderApp('/visualizar/7');
    expect(await within(await header()).findByText(text)).toBeInTheDocument();
    expect(screen.queryByText(/Falha na atualização/)).not.toBeInTheDocument();
    expect(screen.queryByText(GATEWAY_DOWN, { exact: false })).not.toBeInTheDocument();
  });

  it("writes nothing of a refresh Power BI has not told ('desconhecida')", async () => {
    signIn(USER);
    serve({ status: 'desconhecida', ultimaAtualizacao: null, ultimaTentativa: null });
    renderApp('/visualizar/7');
    const bar = await header();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bar).not.toHaveTextContent(/Atualiza|Tempo real/);
  });

  it("shows admins 'Falha na atualização' with Power BI's message, and 'Indisponível' with the reason", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    signIn(ADMIN);
    serve({ status: 'falhou', ultimaAtualizacao: ago(2 * HOUR), ultimaTentativa: ago(HOUR), mensagem: GATEWAY_DOWN }, [
      { painelId: 7, estado: 'sem-acesso', mensagem: 'Forbidden', verificadoEm: ago(HOUR) },
    ]);
    renderApp('/visualizar/7');
    const bar = await header();
    const failure = await within(bar).findByText(/^Falha na atualização/);
    expect(failure).toHaveTextContent(`Falha na atualização: ${GATEWAY_DOWN}`);
    expect(failure).toHaveAttribute('title', GATEWAY_DOWN);
    expect(within(bar).getByText('Atualizado há 2 h')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(bar).getByText(/^Indisponível/)).toHaveTextContent(
        'Indisponível: O portal não tem acesso ao relatório',
      ),
    );
  });
});

describe('a panel whose report Power BI no longer serves', () => {
  it(`reads '${PANEL_UNAVAILABLE}', not a Power BI error, and embeds nothing`, async () => {
    signIn(USER);
    let calls = 0;
    server.use(
      http.get('/api/paineis/7', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ message: PANEL_UNAVAILABLE }, { status: 503 })
          : HttpResponse.json(painel);
      }),
    );
    const { user } = renderApp('/visualizar/7');
    expect(await screen.findByRole('heading', { name: PANEL_UNAVAILABLE }, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.queryByText(/Erro/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voltar para Lista' })).toHaveAttribute('href', '/');
    expect(embeds).toHaveLength(0);
    // Once it is back, trying again opens it.
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('heading', { name: 'Vendas por Região' })).toBeInTheDocument();
    await waitFor(() => expect(embeds).toHaveLength(1));
  });
});

describe('the viewer never hangs', () => {
  it("tells the person when the report fails to load, and 'Tentar novamente' embeds it again", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    signIn(USER);
    serve(null);
    const { user } = renderApp('/visualizar/7');
    await header();
    await waitFor(() => expect(embeds).toHaveLength(1));
    const error = { message: 'LoadReportFailed', detailedMessage: 'Report not found' };
    (embeds[0] as FakeEmbedder).emit('error', error);
    expect(screen.getByRole('heading', { name: 'O relatório não carregou.' })).toBeInTheDocument();
    expect(screen.queryByText('Carregando...')).not.toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith(expect.any(String), error);

    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(embeds).toHaveLength(2);
    (embeds[1] as FakeEmbedder).emit('loaded');
    expect(await screen.findByRole('button', { name: 'Visão geral' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'O relatório não carregou.' })).not.toBeInTheDocument();
  });
});
