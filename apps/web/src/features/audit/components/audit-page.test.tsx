import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PaginaAuditoria, RegistroAuditoria } from '@paineis/contract/audit';
import { formatDateTime } from '../../../lib/format.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { signIn, USER } from '../../../test/session.ts';

const registro = (id: number, extra: Partial<RegistroAuditoria> = {}): RegistroAuditoria => ({
  id,
  momento: '2026-11-20T13:05:09.000Z',
  usuarioId: 'admin-1',
  usuario: 'ana.admin@empresa.com.br',
  endereco: '10.0.0.7',
  objeto: 'painel',
  objetoId: String(id),
  objetoNome: `Painel ${id}`,
  acao: 'alteracao',
  mudancas: [],
  ...extra,
});

const CRIACAO = registro(300, {
  objeto: 'classificacao',
  objetoId: '9',
  objetoNome: 'Logística',
  acao: 'criacao',
  mudancas: [
    { campo: 'nome', depois: 'Logística' },
    { campo: 'descricao', depois: null },
    { campo: 'ativo', depois: true },
  ],
});
const ALTERACAO = registro(299, {
  mudancas: [
    { campo: 'nomePainel', antes: 'Vendas', depois: 'Vendas por Região' },
    { campo: 'ordem', antes: 1234, depois: 7 },
    { campo: 'usaRls', antes: true, depois: false },
    { campo: 'papeis.Gerente', antes: ['a@x.com', 'b@x.com'] },
    { campo: 'config', depois: { a: 1, b: 'c' } },
  ],
});
const RECUSADO = registro(298, {
  usuarioId: null,
  usuario: null,
  endereco: null,
  objeto: 'sessao',
  objetoId: null,
  objetoNome: null,
  acao: 'login_recusado',
  mudancas: [{ campo: 'motivo', depois: 'Senha incorreta' }],
});

/** Serves GET /auditoria with `answer` and records each call's query string. */
function serveAudit(answer: (query: URLSearchParams) => PaginaAuditoria) {
  const asked: string[] = [];
  server.use(
    http.get('/api/auditoria', ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(query.toString());
      return HttpResponse.json(answer(query));
    }),
  );
  return asked;
}

// The route loads the page lazily: its first transform is done here, not inside a test's wait.
beforeAll(async () => {
  await import('./audit-page.tsx');
}, 30_000);

function openPage() {
  signIn();
  return renderApp('/auditoria');
}

const dataRows = () =>
  screen
    .getAllByRole('row')
    .filter((row) => within(row).queryByRole('button', { name: /Detalhes/ }))
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(1)
        .map((cell) => cell.textContent),
    );

describe('/auditoria', () => {
  it('shows the records, newest first: when, who, address, object, action', async () => {
    const asked = serveAudit(() => ({ registros: [CRIACAO, ALTERACAO, RECUSADO], proxima: null }));
    openPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Auditoria' })).toBeInTheDocument();
    await screen.findByText('Logística');
    const when = formatDateTime(new Date('2026-11-20T13:05:09.000Z'));
    expect(dataRows()).toEqual([
      [when, 'ana.admin@empresa.com.br', '10.0.0.7', 'ClassificaçãoLogística', 'Criação'],
      [when, 'ana.admin@empresa.com.br', '10.0.0.7', 'PainelPainel 299', 'Alteração'],
      [when, '—', '—', 'Sessão', 'Login recusado'],
    ]);
    expect(asked).toEqual(['']);
    // The last page: nothing more to load.
    expect(screen.queryByRole('button', { name: 'Carregar mais' })).not.toBeInTheDocument();
  });

  it("expands a record to show its changes: 'Campo', 'Antes', 'Depois'", async () => {
    serveAudit(() => ({ registros: [CRIACAO, ALTERACAO], proxima: null }));
    const { user } = openPage();
    await screen.findByText('Logística');
    const [, alteracao] = screen.getAllByRole('button', { name: /Detalhes/ });
    expect(alteracao).toHaveAttribute('aria-expanded', 'false');
    await user.click(alteracao!);
    expect(alteracao).toHaveAttribute('aria-expanded', 'true');

    const details = document.getElementById(alteracao!.getAttribute('aria-controls')!)!;
    const table = within(details).getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Campo', 'Antes', 'Depois']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [
        within(row).getByRole('rowheader').textContent,
        ...within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ]);
    expect(rows).toEqual([
      ['nomePainel', 'Vendas', 'Vendas por Região'],
      ['ordem', '1.234', '7'],
      ['usaRls', 'Sim', 'Não'],
      ['papeis.Gerente', '["a@x.com","b@x.com"]', '—'],
      ['config', '—', '{"a":1,"b":"c"}'],
    ]);

    await user.click(alteracao!);
    expect(alteracao).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('columnheader', { name: 'Campo' })).not.toBeInTheDocument();
  });

  it('shows a created value under Depois, with nothing before it', async () => {
    serveAudit(() => ({ registros: [CRIACAO], proxima: null }));
    const { user } = openPage();
    await user.click(await screen.findByRole('button', { name: /Detalhes/ }));
    const nome = screen.getByRole('rowheader', { name: 'nome' }).closest('tr')!;
    expect(
      within(nome)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['—', 'Logística']);
    const ativo = screen.getByRole('rowheader', { name: 'ativo' }).closest('tr')!;
    expect(
      within(ativo)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['—', 'Sim']);
  });

  it("loads the next 50 with antesDe = proxima, and hides 'Carregar mais' on the last page", async () => {
    const first = Array.from({ length: 50 }, (_, i) => registro(500 - i));
    const asked = serveAudit((query) =>
      query.get('antesDe') === '451'
        ? { registros: [registro(450), registro(449)], proxima: null }
        : { registros: first, proxima: 451 },
    );
    const { user } = openPage();
    await screen.findByText('Painel 500');
    expect(dataRows()).toHaveLength(50);

    await user.click(screen.getByRole('button', { name: 'Carregar mais' }));
    expect(await screen.findByText('Painel 449')).toBeInTheDocument();
    expect(dataRows()).toHaveLength(52);
    expect(asked).toEqual(['', 'antesDe=451']);
    expect(screen.queryByRole('button', { name: 'Carregar mais' })).not.toBeInTheDocument();
  });

  it('sends the filters (the person after a pause in the typing), each change from the first page', async () => {
    const asked = serveAudit((query) => ({
      registros: [registro(Number(query.get('antesDe') ?? 1000) - 1)],
      proxima: query.has('antesDe') ? null : 900,
    }));
    const { user } = openPage();
    await screen.findByText('Painel 999');
    await user.click(screen.getByRole('button', { name: 'Carregar mais' }));
    await screen.findByText('Painel 899');

    expect(
      within(screen.getByRole('combobox', { name: 'Objeto' }))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Todos',
      'Painel',
      'Classificação',
      'Vínculos',
      'RLS',
      'Ordem',
      'Sessão',
      'Assinatura',
      'Capacidade do Power BI',
      'Visão do painel',
      'Alerta',
    ]);
    expect(
      within(screen.getByRole('combobox', { name: 'Ação' }))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Todas',
      'Criação',
      'Alteração',
      'Exclusão',
      'Login',
      'Logout',
      'Login recusado',
      'Tentativas limitadas',
      'Envio',
      'Envio solicitado',
    ]);

    // Typed quickly: one call, with the whole text, and from the first page.
    await user.type(screen.getByRole('searchbox', { name: 'Pessoa' }), ' ana ');
    await waitFor(() => expect(asked).toHaveLength(3));
    expect(asked[2]).toBe('usuario=ana');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Objeto' }), 'Painel');
    await waitFor(() => expect(asked).toHaveLength(4));
    expect(asked[3]).toBe('usuario=ana&objeto=painel');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Ação' }), 'Exclusão');
    await waitFor(() => expect(asked).toHaveLength(5));
    expect(asked[4]).toBe('usuario=ana&objeto=painel&acao=exclusao');

    // Back to no filters: the first page only, not the two pages read before.
    await user.clear(screen.getByRole('searchbox', { name: 'Pessoa' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Objeto' }), 'Todos');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Ação' }), 'Todas');
    await waitFor(() => expect(asked.at(-1)).toBe(''));
    await screen.findByText('Painel 999');
    expect(screen.queryByText('Painel 899')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Carregar mais' })).toBeInTheDocument();
    expect(asked.filter((q) => q.includes('antesDe'))).toEqual(['antesDe=900']);
  });

  it("says 'Nenhum registro encontrado.' when there is none", async () => {
    serveAudit(() => ({ registros: [], proxima: null }));
    openPage();
    expect(await screen.findByText('Nenhum registro encontrado.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("says 'Não foi possível carregar a auditoria.' and recovers with Tentar novamente", async () => {
    let fail = true;
    server.use(
      http.get('/api/auditoria', () =>
        fail ? HttpResponse.json({}, { status: 500 }) : HttpResponse.json({ registros: [CRIACAO], proxima: null }),
      ),
    );
    const { user } = openPage();
    expect(await screen.findByText('Não foi possível carregar a auditoria.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Logística')).toBeInTheDocument();
    expect(screen.queryByText('Não foi possível carregar a auditoria.')).not.toBeInTheDocument();
  });

  it('sends a non-admin to /', async () => {
    server.use(
      http.get('/api/paineis/agrupados', () => HttpResponse.json([])),
      http.get('/api/classificacoes', () => HttpResponse.json([])),
    );
    signIn(USER);
    const { location } = renderApp('/auditoria');
    await waitFor(() => expect(location().pathname).toBe('/'));
    expect(screen.queryByRole('heading', { name: 'Auditoria' })).not.toBeInTheDocument();
  });
});
