import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { PainelComEmbed } from '@paineis/contract/panels';
import { assinatura, painelComEmbed } from '../../../test/data-generators.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { signIn, USER } from '../../../test/session.ts';

/** The viewer through the app's own routes (app/ composes 'Assinar' into it), with the panel as given. */
async function openViewer(path: string, overrides: Partial<PainelComEmbed> = {}) {
  signIn(USER);
  const sent: unknown[] = [];
  server.use(
    http.get('/api/paineis/7', () => HttpResponse.json(painelComEmbed(overrides))),
    http.get('/api/paineis/7/visoes', () => HttpResponse.json([])),
    http.post('/api/assinaturas', async ({ request }) => {
      sent.push(await request.json());
      return HttpResponse.json(assinatura(), { status: 201 });
    }),
    http.get('/api/assinaturas', () => HttpResponse.json({ assinaturas: [assinatura()] })),
  );
  const view = renderApp(path);
  // The viewer is a chunk of its own, loaded on the first visit.
  await screen.findByRole('heading', { level: 1, name: 'Vendas por Região' }, { timeout: 10_000 });
  return { ...view, sent };
}

describe("the viewer's 'Assinar'", () => {
  it("sits just after 'Exportar' when the panel's export is on", async () => {
    await openViewer('/visualizar/7');
    const exportButton = screen.getByRole('button', { name: 'Exportar' });
    const subscribe = screen.getByRole('button', { name: 'Assinar' });
    expect(exportButton.parentElement!.nextElementSibling).toBe(subscribe);
  });

  it('is not offered for a panel whose export is off', async () => {
    await openViewer('/visualizar/7', { permiteExportacao: false });
    expect(screen.queryByRole('button', { name: 'Exportar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Assinar' })).not.toBeInTheDocument();
  });

  it("subscribes to the page of the address, then says so with a link to 'Minhas assinaturas'", async () => {
    const { user, sent, location } = await openViewer('/visualizar/7?pagina=ReportSection2');
    await user.click(screen.getByRole('button', { name: 'Assinar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assinar por e-mail' });
    await user.selectOptions(within(dialog).getByLabelText('Conteúdo'), 'Página atual');
    await user.click(within(dialog).getByRole('button', { name: 'Assinar' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent).toEqual([
      { painelId: 7, formato: 'PDF', frequencia: 'semanal', hora: '07:00', diaSemana: 1, pagina: 'ReportSection2' },
    ]);
    const notice = screen.getByText('Assinatura criada.', { exact: false });
    expect(notice).toHaveClass('alert-success');
    const link = within(notice).getByRole('link', { name: 'Ver minhas assinaturas' });
    expect(link).toHaveAttribute('href', '/assinaturas');

    await user.click(link);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Minhas assinaturas' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(location().pathname).toBe('/assinaturas');
  });
});
