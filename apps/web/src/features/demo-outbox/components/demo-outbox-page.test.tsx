import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MensagemDemonstracao } from '@paineis/contract/subscriptions';
import { formatDateTime } from '../../../lib/format.ts';
import { configuracao, mensagemDemonstracao } from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { signIn } from '../../../test/session.ts';
import { dataRows } from '../../../test/table.ts';

const SEMANAL = mensagemDemonstracao();
const MAIS_RECENTE = mensagemDemonstracao({
  id: 'mensagem-2',
  para: ['carla@empresa.com.br', 'diego@empresa.com.br'],
  assunto: 'Estoque Diário — 01/12/2026',
  corpo:
    '<p>O arquivo ficou grande demais: <a href="http://localhost/assinaturas/arquivos/x">baixe-o no portal</a>.</p>',
  enviadaEm: '2026-12-01T10:00:07.000Z',
  anexos: [],
});

/** Serves the outbox with `list` (read again on every call); returns how many times it was asked. */
function serveOutbox(list: () => MensagemDemonstracao[]) {
  const calls = { count: 0 };
  server.use(
    http.get('/api/demonstracao/caixa-de-saida', () => {
      calls.count += 1;
      return HttpResponse.json({ mensagens: list() });
    }),
  );
  return calls;
}

// The route loads the page lazily: its first transform is done here, not inside a test's wait.
beforeAll(async () => {
  await import('./demo-outbox-page.tsx');
}, 30_000);

async function openPage() {
  signIn();
  const view = renderApp('/caixa-de-saida');
  expect(await screen.findByRole('heading', { level: 1, name: 'Caixa de saída (demonstração)' })).toBeInTheDocument();
  return view;
}

describe('/caixa-de-saida: Caixa de saída (demonstração)', () => {
  beforeEach(() => {
    server.use(http.get('/api/configuracao', () => HttpResponse.json(configuracao({ demonstracao: true }))));
  });

  it('explains itself and lists the messages newest first: Enviada em, Para, Assunto, Anexos', async () => {
    serveOutbox(() => [SEMANAL, MAIS_RECENTE]);
    await openPage();
    expect(
      screen.getByText(
        'No modo demonstração, as mensagens das assinaturas não saem do computador: o Microsoft Graph simulado as recebe e elas aparecem aqui.',
      ),
    ).toBeInTheDocument();
    await screen.findByText('Estoque Diário — 01/12/2026');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Enviada em',
      'Para',
      'Assunto',
      'Anexos',
    ]);
    expect(dataRows()).toEqual([
      [
        formatDateTime(new Date('2026-12-01T10:00:07.000Z')),
        'carla@empresa.com.br, diego@empresa.com.br',
        'Estoque Diário — 01/12/2026',
        '—',
      ],
      [
        formatDateTime(new Date('2026-11-30T10:00:05.000Z')),
        'bruno@empresa.com.br',
        'Vendas por Região — 30/11/2026',
        'Vendas por Região.pdf',
      ],
    ]);
  });

  it('shows a chosen message: its body in a sandboxed frame, never in the page, and its attachment to download', async () => {
    const hostile = mensagemDemonstracao({
      corpo: '<p>Olá, Bruno.</p><script>parent.document.body.dataset.invadido = "sim"</script>',
    });
    serveOutbox(() => [hostile]);
    const asked: { url: string; authorization: string | null }[] = [];
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46]);
    server.use(
      http.get('/api/demonstracao/caixa-de-saida/:id/anexos/:indice', ({ request }) => {
        asked.push({ url: new URL(request.url).pathname, authorization: request.headers.get('authorization') });
        return new HttpResponse(pdf, { headers: { 'Content-Type': 'application/pdf' } });
      }),
    );
    const saved: { name: string; blob: Blob }[] = [];
    const blobs = new Map<string, Blob>();
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.set('blob:anexo', blob as Blob);
      return 'blob:anexo';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: blobs.get(this.href)! });
    });

    const { user } = await openPage();
    expect(screen.queryByTitle(/^Mensagem:/)).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Vendas por Região — 30/11/2026' }));

    const frame = screen.getByTitle('Mensagem: Vendas por Região — 30/11/2026');
    expect(frame.tagName).toBe('IFRAME');
    // Sandboxed of everything: no scripts, no forms, no reaching this page.
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame).toHaveAttribute('srcdoc', hostile.corpo);
    expect(document.body.dataset.invadido).toBeUndefined();
    expect(screen.queryByText('Olá, Bruno.')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Vendas por Região — 30/11/2026' })).toBeInTheDocument();

    const token = signIn();
    await user.click(screen.getByRole('button', { name: 'Baixar Vendas por Região.pdf (47,5 KB)' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(asked).toEqual([
      { url: '/api/demonstracao/caixa-de-saida/mensagem-1/anexos/0', authorization: `Bearer ${token}` },
    ]);
    expect(saved[0]!.name).toBe('Vendas por Região.pdf');
    expect(new Uint8Array(await saved[0]!.blob.arrayBuffer())).toEqual(pdf);
  });

  it("says why an attachment could not be downloaded, in the server's words", async () => {
    serveOutbox(() => [SEMANAL]);
    server.use(
      http.get('/api/demonstracao/caixa-de-saida/:id/anexos/:indice', () =>
        HttpResponse.json({ message: 'Anexo não encontrado.' }, { status: 404 }),
      ),
    );
    const { user } = await openPage();
    await user.click(await screen.findByRole('button', { name: 'Vendas por Região — 30/11/2026' }));
    await user.click(screen.getByRole('button', { name: /^Baixar Vendas por Região\.pdf/ }));
    expect(await screen.findByText('Anexo não encontrado.')).toBeInTheDocument();
  });

  it("'Atualizar' asks again and shows the messages that arrived meanwhile", async () => {
    const list = [SEMANAL];
    const calls = serveOutbox(() => list);
    const { user } = await openPage();
    await screen.findByText('Vendas por Região — 30/11/2026');
    list.push(MAIS_RECENTE);
    await user.click(screen.getByRole('button', { name: 'Atualizar' }));
    expect(await screen.findByText('Estoque Diário — 01/12/2026')).toBeInTheDocument();
    expect(calls.count).toBe(2);
  });

  it("says so when nothing was sent yet: 'Nenhuma mensagem enviada ainda.'", async () => {
    serveOutbox(() => []);
    await openPage();
    expect(await screen.findByText('Nenhuma mensagem enviada ainda.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('outside demo mode, as the server says of itself: the outbox only exists in demo mode, and is not asked for', async () => {
    server.use(http.get('/api/configuracao', () => HttpResponse.json(configuracao({ demonstracao: false }))));
    const outbox = serveOutbox(() => [SEMANAL]);
    await openPage();
    expect(await screen.findByText('A caixa de saída só existe no modo demonstração.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Tentar novamente' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Atualizar' })).toBeDisabled();
    expect(outbox.count).toBe(0);
  });

  it("another failure shows the server's message and 'Tentar novamente'", async () => {
    let fail = true;
    server.use(
      http.get('/api/demonstracao/caixa-de-saida', () =>
        fail
          ? HttpResponse.json({ message: 'Erro interno do servidor.' }, { status: 500 })
          : HttpResponse.json({ mensagens: [SEMANAL] }),
      ),
    );
    const { user } = await openPage();
    expect(await screen.findByText('Erro interno do servidor.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByText('Vendas por Região — 30/11/2026')).toBeInTheDocument();
  });
});
