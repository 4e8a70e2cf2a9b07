import type { Exportacao } from '@paineis/contract/personal';
import { API_BASE } from '../../../config/api.ts';
import { api } from '../../../lib/api-client.ts';
import { fileNameFrom } from '../../../lib/content-disposition.ts';

/** The API client's path for the file's address, which the API gives as it serves it (under /api). */
function clientPath(url: string): string {
  const { pathname, search } = new URL(url, window.location.href);
  const path = pathname + search;
  return path.startsWith(`${API_BASE}/`) ? path.slice(API_BASE.length) : path;
}

/** GET the finished export's file (arquivoUrl): its bytes and the name the server gave it. */
export async function downloadExport(
  painelId: number,
  exportacao: Exportacao,
): Promise<{ blob: Blob; fileName: string | undefined }> {
  const url = exportacao.arquivoUrl ?? `/paineis/${painelId}/exportacoes/${exportacao.id}/arquivo`;
  const { data, headers } = await api.blob(clientPath(url));
  return { blob: data, fileName: fileNameFrom(headers.get('content-disposition')) };
}
