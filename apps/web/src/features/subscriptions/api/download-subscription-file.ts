import { api } from '../../../lib/api-client.ts';
import { fileNameFrom } from '../../../lib/content-disposition.ts';

/**
 * GET /assinaturas/arquivos/{id}: a delivery's file too large to attach, for its recipient only and for a few days;
 * its bytes and the name the server gave it.
 */
export async function downloadSubscriptionFile(id: string): Promise<{ blob: Blob; fileName: string | undefined }> {
  const { data, headers } = await api.blob(`/assinaturas/arquivos/${encodeURIComponent(id)}`);
  return { blob: data, fileName: fileNameFrom(headers.get('content-disposition')) };
}
