import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PainelComEmbed } from '@paineis/contract/panels';
import { EXPORTACAO_DADOS_DESATIVADA, type ExportacaoDadosBody } from '@paineis/contract/usage';
import { createQueryClient } from '../../../lib/query-client.ts';
import { FakeEmbedder, painelComEmbed, REPORT_PAGE } from '../../../test/data-generators.ts';
import { server } from '../../../test/server.ts';
import { signIn, USER } from '../../../test/session.ts';
import type { DataExportKind, ReportVisual } from '../embedding/report-embedder.ts';
import { NO_EXPORTABLE_VISUAL } from './data-export-modal.tsx';
import ViewerPage from './viewer-page.tsx';

const CSV = 'Mês,Unidades\r\nJan,"1.234"\r\nFev,"12,5"\r\n';

interface Saved {
  name: string;
  text: string;
}

/** What the browser was handed to download: each file's name and its text (read from the blob). */
function watchDownloads(): Saved[] {
  const saved: Saved[] = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:teste/${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href)!;
    const reader = new FileReader();
    const entry = { name: this.download, text: '' };
    saved.push(entry);
    // Bytes decoded keeping a byte order mark, which readAsText would drop.
    reader.onload = () =>
      (entry.text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });
  return saved;
}

afterEach(() => vi.restoreAllMocks());

function renderViewer(
  overrides: Partial<PainelComEmbed> = {},
  options: {
    visuals?: ReportVisual[];
    exportData?: (visual: string, kind: DataExportKind, rows: number) => Promise<string>;
    record?: (body: ExportacaoDadosBody) => Response | Promise<Response>;
  } = {},
) {
  signIn(USER);
  const recorded: ExportacaoDadosBody[] = [];
  server.use(
    http.get('/api/paineis/7', () => HttpResponse.json({ ...painelComEmbed(), ...overrides })),
    http.get('/api/paineis/7/visoes', () => HttpResponse.json([])),
    http.post('/api/paineis/7/exportacoes-dados', async ({ request }) => {
      const body = (await request.json()) as ExportacaoDadosBody;
      recorded.push(body);
      if (options.record) return options.record(body);
      return HttpResponse.json(
        { id: 'e1', momento: '2026-11-28T15:00:00.000Z', painelId: 7, tituloVisual: null, ...body },
        { status: 201 },
      );
    }),
  );
  const fake = new FakeEmbedder({
    ...(options.visuals ? { visuals: options.visuals } : {}),
    exportData: options.exportData ?? (() => Promise.resolve(CSV)),
  });
  const router = createMemoryRouter(
    [{ path: '/visualizar/:id', element: <ViewerPage createEmbedder={() => fake} /> }],
    { initialEntries: ['/visualizar/7'] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { fake, recorded, user: userEvent.setup() };
}

async function openLoaded(...args: Parameters<typeof renderViewer>) {
  const view = renderViewer(...args);
  await screen.findByRole('heading', { name: 'Vendas por Região' });
  await waitFor(() => expect(view.fake.loads).toHaveLength(1));
  view.fake.emit('loaded');
  await waitFor(() => expect(screen.getByRole('button', { name: 'Imprimir' })).toBeEnabled());
  return view;
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Exportar dados' }));
  return screen.findByRole('dialog', { name: 'Exportar dados' });
}

describe("'Exportar dados' in the viewer (docs/requirements.md#viewer-data-export)", () => {
  it("lists the page's exportable visuals, exports the one chosen through Power BI, records it, then saves the CSV", async () => {
    const saved = watchDownloads();
    const { fake, recorded, user } = await openLoaded();
    const dialog = await openDialog(user);
    const visuals = within(await within(dialog).findByRole('group', { name: 'Visual' })).getAllByRole('radio');
    // The custom visual is left out: Power BI exports no data from it.
    expect(visuals.map((radio) => radio.closest('div')!.textContent)).toEqual([
      'Receita (Cartão)',
      'Vendas por mês (Gráfico de colunas)',
    ]);
    expect(within(dialog).getByRole('radio', { name: /Dados resumidos/ })).toBeChecked();
    await user.click(within(dialog).getByRole('radio', { name: /Vendas por mês/ }));
    await user.click(within(dialog).getByRole('radio', { name: /Dados subjacentes/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Exportar' }));

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(fake.exportData).toHaveBeenCalledWith(REPORT_PAGE.name, 'graficoVendasMes', 'subjacentes', 30_000);
    expect(recorded).toEqual([
      {
        pagina: 'Visão geral',
        visual: 'graficoVendasMes',
        tituloVisual: 'Vendas por mês',
        tipo: 'subjacentes',
        linhas: 2,
      },
    ]);
    expect(saved[0]!.name).toBe('Vendas por Região - Visão geral - Vendas por mês.csv');
    // Power BI's text as it came (pt-BR numbers kept), after a byte order mark for Excel.
    await waitFor(() => expect(saved[0]!.text).toBe(`\uFEFF${CSV}`));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      screen.getByText('Dados exportados: Vendas por Região - Visão geral - Vendas por mês.csv'),
    ).toBeInTheDocument();
  }, 15_000);

  it('saves nothing when the server refuses the record (the panel no longer allows it), and says why', async () => {
    const saved = watchDownloads();
    const { recorded, user } = await openLoaded(
      {},
      { record: () => HttpResponse.json({ message: EXPORTACAO_DADOS_DESATIVADA }, { status: 403 }) },
    );
    const dialog = await openDialog(user);
    await within(dialog).findAllByRole('radio', { name: /\(/ });
    await user.click(within(dialog).getByRole('button', { name: 'Exportar' }));
    expect(await within(dialog).findByText(EXPORTACAO_DADOS_DESATIVADA)).toBeInTheDocument();
    expect(recorded).toHaveLength(1);
    expect(saved).toEqual([]);
  });

  it('says in Portuguese that Power BI refused, with its reason, and records and saves nothing', async () => {
    const saved = watchDownloads();
    const refusal = {
      message: 'ExportDataFailed',
      detailedMessage: "Export data is disabled by the report's or the tenant's settings.",
      errorCode: '403',
    };
    // powerbi-client rejects with Power BI's IError itself, a plain object.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    const { recorded, user } = await openLoaded({}, { exportData: () => Promise.reject(refusal) });
    const dialog = await openDialog(user);
    await within(dialog).findAllByRole('radio', { name: /\(/ });
    await user.click(within(dialog).getByRole('button', { name: 'Exportar' }));
    expect(
      await within(dialog).findByText(
        "O Power BI recusou a exportação dos dados deste visual: Export data is disabled by the report's or the tenant's settings.",
      ),
    ).toBeInTheDocument();
    expect(recorded).toEqual([]);
    expect(saved).toEqual([]);
  });

  it('runs one export at a time: while Power BI works, the buttons wait (Exportando…)', async () => {
    watchDownloads();
    let finish: (csv: string) => void = () => undefined;
    const { fake, user } = await openLoaded(
      {},
      { exportData: () => new Promise<string>((resolve) => (finish = resolve)) },
    );
    const dialog = await openDialog(user);
    await within(dialog).findAllByRole('radio', { name: /\(/ });
    await user.click(within(dialog).getByRole('button', { name: 'Exportar' }));
    const busy = await within(dialog).findByRole('button', { name: 'Exportando…' });
    expect(busy).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancelar' })).toBeDisabled();
    // The header's button too, behind the dialog.
    const waiting = screen.getAllByRole('button', { name: 'Exportando…', hidden: true });
    expect(waiting).toHaveLength(2);
    for (const button of waiting) expect(button).toBeDisabled();
    await user.click(busy);
    expect(fake.exportData).toHaveBeenCalledTimes(1);
    finish(CSV);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Exportar dados' })).toBeEnabled();
  });

  it('says so when no visual of the page can export data', async () => {
    const { user } = await openLoaded(
      {},
      {
        visuals: [
          { name: 'r', title: 'Previsão', type: 'scriptVisual' },
          { name: 'c', title: 'Mapa', type: 'PBI_CV_0000' },
        ],
      },
    );
    const dialog = await openDialog(user);
    expect(await within(dialog).findByText(NO_EXPORTABLE_VISUAL)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Exportar' })).toBeDisabled();
  });

  it("offers no 'Exportar dados' when the panel does not allow it, and embeds with Power BI's own hidden", async () => {
    const { fake } = await openLoaded({ permiteExportarDados: false });
    expect(screen.queryByRole('button', { name: 'Exportar dados' })).not.toBeInTheDocument();
    expect(fake.loads[0]).toMatchObject({ exportData: false });
  });
});
