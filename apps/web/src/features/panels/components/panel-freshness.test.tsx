import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GrupoPaineis, Painel } from '@paineis/contract/panels';
import type { AtualizacoesPaineis, SaudePainel } from '@paineis/contract/power-bi';
import { grupoPaineis, painel as basePainel } from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { ADMIN, signIn, USER } from '../../../test/session.ts';

const painel = (id: number, nomePainel: string, classificacaoId: number, ordem: number): Painel =>
  basePainel({ id, nomePainel, classificacaoId, classificacaoNome: `C${classificacaoId}`, ordem });

const GROUPS: GrupoPaineis[] = [
  grupoPaineis({
    id: 1,
    nome: 'Vendas',
    paineis: [
      painel(11, 'Vendas Mensais', 1, 1),
      painel(12, 'Metas', 1, 2),
      painel(13, 'Comissões', 1, 3),
      painel(14, 'Pedidos', 1, 4),
    ],
  }),
  grupoPaineis({ id: 2, nome: 'Gestão', paineis: [painel(21, 'Orçamento', 2, 1), painel(22, 'Estoque', 2, 2)] }),
];

// Local times: what the rows write is the browser's own day and hour.
const NOW = new Date(2026, 10, 27, 14, 30, 0);
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const MIN = 60_000;
const GATEWAY_DOWN = 'O gateway de dados local está offline.';

const FRESHNESS: AtualizacoesPaineis = {
  11: { status: 'concluida', ultimaAtualizacao: ago(5 * MIN), ultimaTentativa: ago(7 * MIN) },
  12: {
    status: 'falhou',
    ultimaAtualizacao: ago(2 * 60 * MIN),
    ultimaTentativa: ago(10 * MIN),
    mensagem: GATEWAY_DOWN,
  },
  13: {
    status: 'em-andamento',
    ultimaAtualizacao: new Date(2026, 10, 3, 7, 15).toISOString(),
    ultimaTentativa: ago(MIN),
  },
  14: { status: 'concluida', ultimaAtualizacao: ago(20_000), ultimaTentativa: ago(MIN) },
  21: { status: 'tempo-real', ultimaAtualizacao: null, ultimaTentativa: null },
  22: { status: 'desconhecida', ultimaAtualizacao: null, ultimaTentativa: null },
};

const checked = (painelId: number, estado: SaudePainel['estado'], mensagem: string | null = null): SaudePainel => ({
  painelId,
  estado,
  mensagem,
  verificadoEm: ago(30 * MIN),
});
const HEALTH: SaudePainel[] = [
  checked(11, 'ok'),
  checked(13, 'relatorio-nao-encontrado', 'Report not found'),
  checked(21, 'sem-acesso', 'Forbidden'),
  checked(22, 'erro', 'O Power BI respondeu 500 ao verificar o relatório.'),
];

/** The list, the freshness and the health; counts the health requests (only admins may ask). */
function serve({
  freshness = FRESHNESS,
  health = HEALTH,
}: { freshness?: AtualizacoesPaineis; health?: SaudePainel[] } = {}) {
  const asked = { health: 0, freshness: 0 };
  server.use(
    http.get('/api/paineis/agrupados', () => HttpResponse.json(GROUPS)),
    http.get('/api/paineis/atualizacoes', () => {
      asked.freshness += 1;
      return HttpResponse.json(freshness);
    }),
    http.get('/api/paineis/saude', () => {
      asked.health += 1;
      return HttpResponse.json(health);
    }),
  );
  return asked;
}

const rowOf = (nome: string) => screen.getByRole('link', { name: `Visualizar painel ${nome}` }).closest('li')!;

afterEach(() => void vi.useRealTimers());

describe("'/' shows when each panel's data was refreshed", () => {
  it('writes every state on its row, for a person, without the admins’ badges', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    signIn(USER);
    const asked = serve();
    renderApp('/');
    expect(await within(await waitForRow('Vendas Mensais')).findByText('Atualizado há 5 min')).toBeInTheDocument();
    // A failed refresh: the data shown is still that of the last one that worked.
    expect(rowOf('Metas')).toHaveTextContent('Atualizado há 2 h');
    expect(within(rowOf('Comissões')).getByText('Atualizado em 03/11 07:15 · Atualizando…')).toBeInTheDocument();
    expect(within(rowOf('Pedidos')).getByText('Atualizado agora')).toBeInTheDocument();
    expect(within(rowOf('Orçamento')).getByText('Tempo real')).toBeInTheDocument();
    expect(rowOf('Estoque')).not.toHaveTextContent(/Atualiza|Tempo real/);

    expect(screen.queryByText(/Falha na atualização/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Indisponível/)).not.toBeInTheDocument();
    expect(screen.queryByText(GATEWAY_DOWN, { exact: false })).not.toBeInTheDocument();
    expect(asked).toEqual({ freshness: 1, health: 0 });
  });

  it("shows admins 'Falha na atualização' with Power BI's message and 'Indisponível' with the reason", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    signIn(ADMIN);
    const asked = serve();
    renderApp('/');
    await waitForRow('Metas');
    const failure = await within(rowOf('Metas')).findByText(/^Falha na atualização/);
    // The message is read with the badge by screen readers, and shown on hover.
    expect(failure).toHaveTextContent(`Falha na atualização: ${GATEWAY_DOWN}`);
    expect(failure).toHaveAttribute('title', GATEWAY_DOWN);
    expect(rowOf('Metas')).toHaveTextContent('Atualizado há 2 h');
    expect(within(rowOf('Vendas Mensais')).queryByText(/Falha na atualização|Indisponível/)).not.toBeInTheDocument();

    const unavailable = (nome: string) => within(rowOf(nome)).getByText(/^Indisponível/);
    await waitFor(() => expect(unavailable('Comissões')).toHaveTextContent('Relatório não encontrado no Power BI'));
    expect(unavailable('Orçamento')).toHaveTextContent('Indisponível: O portal não tem acesso ao relatório');
    expect(unavailable('Estoque')).toHaveTextContent(
      'Indisponível: O Power BI respondeu 500 ao verificar o relatório.',
    );
    // A report found and readable, or not checked yet: nothing.
    expect(within(rowOf('Vendas Mensais')).queryByText(/Indisponível/)).not.toBeInTheDocument();
    expect(within(rowOf('Pedidos')).queryByText(/Indisponível/)).not.toBeInTheDocument();
    expect(within(rowOf('Comissões')).getByText('Atualizado em 03/11 07:15 · Atualizando…')).toBeInTheDocument();
    expect(asked).toEqual({ freshness: 1, health: 1 });
  });

  it("shows admins 'Atualização cancelada' for a cancelled refresh, and everyone the data's last refresh, never 'Atualizando…'", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const cancelled: AtualizacoesPaineis = {
      ...FRESHNESS,
      14: { status: 'cancelada', ultimaAtualizacao: ago(3 * 60 * MIN), ultimaTentativa: ago(20 * MIN) },
    };
    signIn(ADMIN);
    serve({ freshness: cancelled, health: [] });
    const { unmount } = renderApp('/');
    const badge = await within(await waitForRow('Pedidos')).findByText('Atualização cancelada');
    expect(rowOf('Pedidos')).toHaveTextContent('Atualizado há 3 h');
    expect(rowOf('Pedidos')).not.toHaveTextContent(/Atualizando|Falha/);
    expect(within(rowOf('Vendas Mensais')).queryByText('Atualização cancelada')).not.toBeInTheDocument();
    expect(badge).toBeInTheDocument();
    unmount();

    signIn(USER);
    serve({ freshness: cancelled, health: [] });
    renderApp('/');
    expect(await within(await waitForRow('Pedidos')).findByText('Atualizado há 3 h')).toBeInTheDocument();
    expect(rowOf('Pedidos')).not.toHaveTextContent(/Atualizando|cancelada/);
  });

  it('shows the list first, and each row’s freshness when it arrives', async () => {
    signIn(USER);
    serve();
    let answer!: () => void;
    const arrived = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('/api/paineis/atualizacoes', async () => {
        await arrived;
        return HttpResponse.json({
          11: { status: 'tempo-real', ultimaAtualizacao: null, ultimaTentativa: null },
        } satisfies AtualizacoesPaineis);
      }),
    );
    renderApp('/');
    const row = await waitForRow('Vendas Mensais');
    expect(row).not.toHaveTextContent('Tempo real');
    answer();
    expect(await within(row).findByText('Tempo real')).toBeInTheDocument();
  });

  it('moves the relative times on once a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: NOW });
    signIn(USER);
    serve();
    renderApp('/');
    const row = await waitForRow('Vendas Mensais');
    expect(await within(row).findByText('Atualizado há 5 min')).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(59_000));
    expect(within(row).getByText('Atualizado há 5 min')).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(1_000));
    expect(within(row).getByText('Atualizado há 6 min')).toBeInTheDocument();
    expect(within(rowOf('Pedidos')).getByText('Atualizado há 1 min')).toBeInTheDocument();
  });

  it('is asked for once for the whole list, and again every five minutes while the list stays open', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: NOW });
    signIn(ADMIN);
    const asked = serve();
    renderApp('/');
    await within(await waitForRow('Vendas Mensais')).findByText('Atualizado há 5 min');
    expect(asked).toEqual({ freshness: 1, health: 1 });
    act(() => void vi.advanceTimersByTime(4 * MIN));
    expect(asked).toEqual({ freshness: 1, health: 1 });
    act(() => void vi.advanceTimersByTime(MIN));
    await waitFor(() => expect(asked).toEqual({ freshness: 2, health: 2 }));
    expect(within(rowOf('Vendas Mensais')).getByText('Atualizado há 10 min')).toBeInTheDocument();
  });

  it('shows nothing of it, and the list as ever, when the freshness cannot be read', async () => {
    signIn(ADMIN);
    serve();
    server.use(
      http.get('/api/paineis/atualizacoes', () => HttpResponse.json({ message: 'Erro' }, { status: 500 })),
      http.get('/api/paineis/saude', () => HttpResponse.json({ message: 'Erro' }, { status: 500 })),
    );
    renderApp('/');
    const row = await waitForRow('Metas');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(row).not.toHaveTextContent(/Atualiza|Falha|Indisponível/);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

/** A panel's row once the list shows (the first render of a file loads the route's code: more than a second). */
async function waitForRow(nome: string) {
  await screen.findByRole('link', { name: `Visualizar painel ${nome}` }, { timeout: 5_000 });
  return rowOf(nome);
}
