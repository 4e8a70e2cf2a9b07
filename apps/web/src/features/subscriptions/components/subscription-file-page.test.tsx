import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { signIn, USER } from '../../../test/session.ts';

const FILE_ID = '66666666-6666-4666-8666-666666666666';
const PDF = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]);

/** The files handed to the browser's downloads: each one's name and bytes. */
function captureSaved() {
  const blobs = new Map<string, Blob>();
  const saved: { name: string; blob: Blob }[] = [];
  let next = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:arquivo-${next++}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href)! });
  });
  return saved;
}

describe('/assinaturas/arquivos/{id}', () => {
  it("downloads the file with the session's token under the server's name, and again on 'Baixar novamente'", async () => {
    const token = signIn(USER);
    const saved = captureSaved();
    const authorizations: (string | null)[] = [];
    server.use(
      http.get(`/api/assinaturas/arquivos/${FILE_ID}`, ({ request }) => {
        authorizations.push(request.headers.get('authorization'));
        return new HttpResponse(PDF, {
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': `attachment; filename="Vendas.pdf"; filename*=UTF-8''Vendas%20por%20Regi%C3%A3o.pdf`,
          },
        });
      }),
    );
    const { user } = renderApp(`/assinaturas/arquivos/${FILE_ID}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Baixar arquivo da assinatura' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('Vendas por Região.pdf');
    expect(new Uint8Array(await saved[0]!.blob.arrayBuffer())).toEqual(PDF);
    expect(authorizations).toEqual([`Bearer ${token}`]);
    expect(await screen.findByText('O download do arquivo começou.', { exact: false })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Baixar novamente' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]!.name).toBe('Vendas por Região.pdf');
  });

  it('says the file is not found or expired when the server answers 404, and saves nothing', async () => {
    signIn(USER);
    const saved = captureSaved();
    server.use(
      http.get(`/api/assinaturas/arquivos/${FILE_ID}`, () =>
        HttpResponse.json({ message: 'Arquivo não encontrado ou expirado.' }, { status: 404 }),
      ),
    );
    renderApp(`/assinaturas/arquivos/${FILE_ID}`);
    expect(
      await screen.findByText('Arquivo não encontrado ou expirado.', undefined, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(saved).toEqual([]);
    expect(screen.getByRole('button', { name: 'Baixar novamente' })).toBeEnabled();
  });

  it('is for signed-in people: signed out, the address leads to the sign-in page', async () => {
    const { location } = renderApp(`/assinaturas/arquivos/${FILE_ID}`);
    expect(
      await screen.findByRole('button', { name: 'Entrar com Microsoft' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(location().pathname).toBe('/login');
  });
});
