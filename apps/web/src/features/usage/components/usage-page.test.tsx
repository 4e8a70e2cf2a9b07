import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  PessoaSemLogin,
  UsoDetalhePainel,
  UsoPainel,
  UsoPorDia,
  UsoSemLogin,
  Visualizacao,
} from '@paineis/contract/usage';
import { formatDateMinutes, formatDateTime } from '../../../lib/format.ts';
import { captureDownloads } from '../../../test/downloads.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { signIn, USER } from '../../../test/session.ts';
import { dataRows } from '../../../test/table.ts';

const painel = (id: number, nomePainel: string, visualizacoes: number, extra: Partial<UsoPainel> = {}): UsoPainel => ({
  painelId: id,
  nomePainel,
  classificacaoNome: 'Comercial',
  visualizacoes,
  pessoas: Math.min(visualizacoes, 3),
  ultimaVisualizacao: visualizacoes > 0 ? '2026-11-20T13:05:09.000Z' : null,
  carregadoP50: null,
  carregadoP95: null,
  renderizadoP50: null,
  renderizadoP95: null,
  erros: 0,
  exportacoesDados: 0,
  ...extra,
});

/** Twelve opened panels (views 120 down to 10, the server's order), and two never opened. */
const OPENED = [
  painel(1, 'Vendas por Região', 120, {
    carregadoP50: 1234,
    carregadoP95: 4567,
    renderizadoP50: 1500,
    renderizadoP95: 5200,
    erros: 2,
  }),
  painel(2, 'Metas; Equipe', 90, { carregadoP50: 800, carregadoP95: 900, renderizadoP50: null, renderizadoP95: null }),
  ...Array.from({ length: 10 }, (_, i) => painel(10 + i, `Painel ${String(i).padStart(2, '0')}`, 80 - i * 7)),
];
const NEVER = [
  painel(30, 'Absenteísmo', 0, { classificacaoNome: 'Recursos Humanos' }),
  painel(31, 'DRE Consolidada', 0, { classificacaoNome: 'Financeiro' }),
];
const PAINEIS = [...OPENED, ...NEVER];

const porDia = (dias: number): UsoPorDia => ({
  dias,
  porDia: Array.from({ length: dias }, (_, i) => ({
    dia: `2026-10-${String(i + 1).padStart(2, '0')}`,
    visualizacoes: i === 0 ? 5 : 1,
    pessoas: 1,
  })),
});

const pessoa = (i: number, extra: Partial<PessoaSemLogin> = {}): PessoaSemLogin => ({
  id: `p-${i}`,
  displayName: `Pessoa ${i}`,
  email: `pessoa.${i}@empresa.com.br`,
  department: 'Comercial',
  ultimoLogin: '2026-08-01T12:00:00.000Z',
  ...extra,
});

const visualizacao = (id: string, extra: Partial<Visualizacao> = {}): Visualizacao => ({
  id,
  momento: '2026-11-20T13:05:09.000Z',
  usuarioId: 'user-1',
  displayName: 'Bruno Usuário',
  email: 'bruno@empresa.com.br',
  identidade: 'bruno@empresa.com.br',
  papeis: ['Gerente Regional', 'Diretoria'],
  requestId: 'req-1',
  tokenDoCache: true,
  quantidade: 1,
  carregadoMs: 1234,
  renderizadoMs: 2345,
  erros: [],
  ...extra,
});

/** Serves the three calls of the page for any period, and records what each was asked. */
function serveUsage({
  paineis = PAINEIS,
  semLogin = { dias: 30, total: 2, pessoas: [pessoa(1), pessoa(2, { ultimoLogin: null, department: null })] },
}: { paineis?: UsoPainel[]; semLogin?: UsoSemLogin } = {}) {
  const asked: string[] = [];
  const record = (request: Request) => {
    const url = new URL(request.url);
    asked.push(`${url.pathname}${url.search}`);
    return Number(url.searchParams.get('dias'));
  };
  server.use(
    http.get('/api/uso/por-dia', ({ request }) => HttpResponse.json(porDia(record(request)))),
    http.get('/api/uso/paineis', ({ request }) => {
      const dias = record(request);
      return HttpResponse.json({ dias, paineis });
    }),
    http.get('/api/uso/sem-login', ({ request }) => {
      const dias = record(request);
      return HttpResponse.json({ ...semLogin, dias });
    }),
  );
  return asked;
}

const region = (name: string) => screen.getByRole('region', { name });
const rowsOf = (name: string) => dataRows(region(name));

function openPage() {
  signIn();
  return renderApp('/uso');
}

// The route loads the page lazily; its first transform (recharts is large) would outlast a test's wait.
beforeAll(async () => {
  await import('./usage-page.tsx');
}, 30_000);

/**
 * recharts measures its container with a ResizeObserver, which jsdom lacks (and jsdom lays nothing out). By default
 * the box measures nothing and the chart draws nothing (drawing it costs each test hundreds of ms); `drawCharts()`
 * reports a chart-sized box.
 */
function stubResizeObserver(size: { width: number; height: number } | null) {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private readonly callback: ResizeObserverCallback) {}
      observe(target: Element) {
        if (!size) return;
        const entry = { target, contentRect: size } as unknown as ResizeObserverEntry;
        this.callback([entry], this);
      }
      unobserve() {}
      disconnect() {}
    },
  );
}
const drawCharts = () => stubResizeObserver({ width: 800, height: 280 });
beforeEach(() => stubResizeObserver(null));
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('/uso: Uso dos Painéis', () => {
  it('shows the title, 30 days chosen, the chart, and asks every part for 30 days', async () => {
    drawCharts();
    const asked = serveUsage();
    openPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Uso dos Painéis' }, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '30 dias' })).toBeChecked();
    expect(screen.getByRole('radio', { name: '7 dias' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: '90 dias' })).not.toBeChecked();
    expect(screen.getByRole('group', { name: 'Período' })).toBeInTheDocument();

    expect(await screen.findByText('34 visualizações nos últimos 30 dias.')).toBeInTheDocument();
    // The chart: views as bars, people as a line, named in its legend.
    const chart = region('Visualizações por dia');
    expect(
      await within(chart).findByRole('application', { name: 'Visualizações e pessoas por dia' }, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(within(chart).getByText('Visualizações')).toBeInTheDocument();
    expect(within(chart).getByText('Pessoas')).toBeInTheDocument();
    await waitFor(() =>
      expect(asked.sort()).toEqual([
        '/api/uso/paineis?dias=30',
        '/api/uso/por-dia?dias=30',
        '/api/uso/sem-login?dias=30',
      ]),
    );
  });

  it('fills the tables: most and least viewed, never opened, load times', async () => {
    serveUsage();
    openPage();
    await screen.findByRole('region', { name: 'Painéis mais vistos' });

    const most = rowsOf('Painéis mais vistos');
    expect(most).toHaveLength(10);
    expect(most[0]).toEqual([
      'Vendas por RegiãoComercial',
      '120',
      '3',
      formatDateMinutes(new Date('2026-11-20T13:05:09.000Z')),
    ]);
    expect(most.map((r) => r[1])).toEqual(['120', '90', '80', '73', '66', '59', '52', '45', '38', '31']);

    // Fewest first, and only panels that were opened.
    const least = rowsOf('Painéis menos vistos');
    expect(least.map((r) => r[1])).toEqual(['17', '24', '31', '38', '45', '52', '59', '66', '73', '80']);
    expect(least.map((r) => r[0])).not.toContain('AbsenteísmoRecursos Humanos');

    expect(rowsOf('Painéis nunca abertos no período')).toEqual([
      ['Absenteísmo', 'Recursos Humanos'],
      ['DRE Consolidada', 'Financeiro'],
    ]);
    expect(within(region('Painéis nunca abertos no período')).getByText('2')).toHaveClass('badge');

    // Each table scrolls in its own box, which a keyboard reaches (its rows may hold nothing focusable), named
    // after its card.
    for (const name of ['Painéis mais vistos', 'Painéis menos vistos', 'Painéis nunca abertos no período']) {
      const box = within(region(name)).getByRole('group', { name });
      expect(box).toHaveAttribute('tabindex', '0');
      expect(box).toContainElement(within(region(name)).getByRole('table'));
    }

    // Only panels with a load time, the slowest first; times in pt-BR with 'ms'.
    expect(rowsOf('Tempo de carga por painel')).toEqual([
      ['Vendas por RegiãoComercial', '1.234 ms', '4.567 ms', '1.500 ms', '5.200 ms', '2'],
      ['Metas; EquipeComercial', '800 ms', '900 ms', '—', '—', '0'],
    ]);
  });

  it("counts the visuals' data exports of the period: in all, and per panel, most first", async () => {
    serveUsage({
      paineis: [
        painel(1, 'Vendas por Região', 120, { exportacoesDados: 2 }),
        painel(2, 'Metas; Equipe', 90, { exportacoesDados: 5 }),
        painel(3, 'Sem exportações', 10),
      ],
    });
    openPage();
    const card = await screen.findByRole('region', { name: /Exportações de dados/ });
    expect(within(card).getByText('7')).toBeInTheDocument();
    expect(rowsOf('Exportações de dados')).toEqual([
      ['Metas; EquipeComercial', '5'],
      ['Vendas por RegiãoComercial', '2'],
    ]);
  });

  it('asks every part again for 7 days when the period changes', async () => {
    const asked = serveUsage();
    const { user } = openPage();
    await screen.findByText('34 visualizações nos últimos 30 dias.');
    asked.length = 0;

    await user.click(screen.getByRole('radio', { name: '7 dias' }));
    expect(screen.getByRole('radio', { name: '7 dias' })).toBeChecked();
    expect(await screen.findByText('11 visualizações nos últimos 7 dias.')).toBeInTheDocument();
    await waitFor(() =>
      expect(asked.sort()).toEqual(['/api/uso/paineis?dias=7', '/api/uso/por-dia?dias=7', '/api/uso/sem-login?dias=7']),
    );
  });

  it("lists the people without a sign-in: the first 100 of 20,000, 'e mais 19.900 pessoas', 'Nunca'", async () => {
    const pessoas = Array.from({ length: 20_000 }, (_, i) =>
      pessoa(i, i === 0 ? { ultimoLogin: null, department: null } : {}),
    );
    serveUsage({ semLogin: { dias: 30, total: pessoas.length, pessoas } });
    openPage();
    await screen.findByText('Pessoa 0');
    const card = region('Pessoas sem login no período');
    const rows = rowsOf('Pessoas sem login no período');
    expect(rows).toHaveLength(100);
    expect(rows[0]).toEqual(['Pessoa 0', 'pessoa.0@empresa.com.br', '—', 'Nunca']);
    expect(rows[1]).toEqual([
      'Pessoa 1',
      'pessoa.1@empresa.com.br',
      'Comercial',
      formatDateMinutes(new Date('2026-08-01T12:00:00.000Z')),
    ]);
    expect(within(card).getByText('20.000')).toHaveClass('badge');
    expect(card).toHaveTextContent('e mais 19.900 pessoas. O CSV traz a lista completa.');
  });

  it('exports each table as a CSV (BOM, ;, all its rows), the long ones with every row', async () => {
    const pessoas = Array.from({ length: 250 }, (_, i) => pessoa(i));
    serveUsage({ semLogin: { dias: 30, total: pessoas.length, pessoas } });
    const downloads = captureDownloads();
    const { user } = openPage();
    const most = await screen.findByRole('region', { name: 'Painéis mais vistos' });

    const exportMost = within(most).getByRole('button', { name: 'Exportar CSV' });
    expect(exportMost).toHaveAccessibleDescription('Painéis mais vistos');
    await user.click(exportMost);
    expect(downloads.files[0]!.name).toBe('paineis-mais-vistos-30-dias.csv');
    const csv = await downloads.text(0);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('Painel;Classificação;Visualizações;Pessoas;Última visualização;Erros');
    const when = formatDateTime(new Date('2026-11-20T13:05:09.000Z')).replace(',', '');
    expect(lines[1]).toBe(`Vendas por Região;Comercial;120;3;${when};2`);
    // A name with the separator is quoted.
    expect(lines[2]).toBe(`"Metas; Equipe";Comercial;90;3;${when};0`);

    await user.click(within(region('Tempo de carga por painel')).getByRole('button', { name: 'Exportar CSV' }));
    expect(downloads.files[1]!.name).toBe('tempo-de-carga-30-dias.csv');
    expect((await downloads.text(1)).slice(1).split('\r\n')).toEqual([
      'Painel;Classificação;Visualizações;Carregado p50 (ms);Carregado p95 (ms);Renderizado p50 (ms);Renderizado p95 (ms);Erros',
      'Vendas por Região;Comercial;120;1234;4567;1500;5200;2',
      '"Metas; Equipe";Comercial;90;800;900;;;0',
    ]);

    await user.click(within(region('Painéis nunca abertos no período')).getByRole('button', { name: 'Exportar CSV' }));
    expect((await downloads.text(2)).slice(1).split('\r\n')).toEqual([
      'Painel;Classificação',
      'Absenteísmo;Recursos Humanos',
      'DRE Consolidada;Financeiro',
    ]);

    // The page shows 100 people; the CSV has all 250.
    await user.click(within(region('Pessoas sem login no período')).getByRole('button', { name: 'Exportar CSV' }));
    expect(downloads.files[3]!.name).toBe('pessoas-sem-login-30-dias.csv');
    const people = (await downloads.text(3)).slice(1).split('\r\n');
    expect(people).toHaveLength(251);
    expect(people[0]).toBe('Nome;E-mail;Departamento;Último login');
    expect(people[250]).toBe(
      `Pessoa 249;pessoa.249@empresa.com.br;Comercial;${formatDateTime(new Date('2026-08-01T12:00:00.000Z')).replace(',', '')}`,
    );

    await user.click(within(region('Visualizações por dia')).getByRole('button', { name: 'Exportar CSV' }));
    expect(downloads.files[4]!.name).toBe('visualizacoes-por-dia-30-dias.csv');
    const days = (await downloads.text(4)).slice(1).split('\r\n');
    expect(days.slice(0, 3)).toEqual(['Dia;Visualizações;Pessoas', '01/10/2026;5;1', '02/10/2026;1;1']);
  });

  it('opens who opened a panel: person, moment, identity, roles, token from the cache, times, errors', async () => {
    serveUsage();
    const detailAsked: string[] = [];
    const detail: UsoDetalhePainel = {
      dias: 30,
      painelId: 1,
      nomePainel: 'Vendas por Região',
      total: 812,
      visualizacoes: [
        visualizacao('v1'),
        visualizacao('v2', {
          displayName: 'Ana Admin',
          email: 'ana.admin@empresa.com.br',
          identidade: null,
          papeis: [],
          tokenDoCache: false,
          carregadoMs: null,
          renderizadoMs: null,
          erros: ['TokenExpired'],
        }),
      ],
    };
    server.use(
      http.get('/api/uso/paineis/:id', ({ request }) => {
        const url = new URL(request.url);
        detailAsked.push(`${url.pathname}${url.search}`);
        return HttpResponse.json(detail);
      }),
    );
    const downloads = captureDownloads();
    const { user } = openPage();
    const most = await screen.findByRole('region', { name: 'Painéis mais vistos' });
    await user.click(within(most).getByRole('button', { name: 'Vendas por Região' }));

    const dialog = await screen.findByRole('dialog', { name: 'Aberturas de Vendas por Região' });
    await within(dialog).findByText('Bruno Usuário');
    expect(detailAsked).toEqual(['/api/uso/paineis/1?dias=30']);
    const rows = dataRows(dialog);
    const when = formatDateTime(new Date('2026-11-20T13:05:09.000Z'));
    expect(
      within(dialog)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Quando', 'Pessoa', 'Identidade', 'Papéis', 'Token do cache', 'Carregado', 'Renderizado', 'Erros']);
    expect(rows).toEqual([
      [
        when,
        'Bruno Usuáriobruno@empresa.com.br',
        'bruno@empresa.com.br',
        'Gerente Regional, Diretoria',
        'Sim',
        '1.234 ms',
        '2.345 ms',
        '—',
      ],
      [when, 'Ana Adminana.admin@empresa.com.br', '—', '—', 'Não', '—', '—', 'TokenExpired'],
    ]);
    expect(dialog).toHaveTextContent('As 2 mais recentes de 812 aberturas no período.');

    await user.click(within(dialog).getByRole('button', { name: 'Exportar CSV' }));
    expect(downloads.files[0]!.name).toBe('aberturas-painel-1-30-dias.csv');
    const lines = (await downloads.text(0)).slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'Quando;Aberturas;Nome;E-mail;Identidade;Papéis;Token do cache;Carregado (ms);Renderizado (ms);Erros;RequestId do Power BI',
    );
    expect(lines[1]).toBe(
      `${when.replace(',', '')};1;Bruno Usuário;bruno@empresa.com.br;bruno@empresa.com.br;Gerente Regional, Diretoria;Sim;1234;2345;;req-1`,
    );

    await user.click(within(dialog).getAllByRole('button', { name: 'Fechar' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("says 'Não foi possível carregar o uso dos painéis.' and recovers with Tentar novamente", async () => {
    serveUsage();
    let fail = true;
    server.use(
      http.get('/api/uso/paineis', ({ request }) =>
        fail
          ? HttpResponse.json({}, { status: 500 })
          : HttpResponse.json({ dias: Number(new URL(request.url).searchParams.get('dias')), paineis: PAINEIS }),
      ),
    );
    const { user } = openPage();
    expect(await screen.findByText('Não foi possível carregar o uso dos painéis.')).toBeInTheDocument();
    // The other parts are there.
    expect(await screen.findByRole('region', { name: 'Pessoas sem login no período' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Painéis mais vistos' })).not.toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('region', { name: 'Painéis mais vistos' })).toBeInTheDocument();
    expect(screen.queryByText('Não foi possível carregar o uso dos painéis.')).not.toBeInTheDocument();
  });

  it('sends a non-admin to /', async () => {
    server.use(
      http.get('/api/paineis/agrupados', () => HttpResponse.json([])),
      http.get('/api/classificacoes', () => HttpResponse.json([])),
    );
    signIn(USER);
    const { location } = renderApp('/uso');
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(screen.queryByText('Uso dos Painéis')).not.toBeInTheDocument();
  });
});
