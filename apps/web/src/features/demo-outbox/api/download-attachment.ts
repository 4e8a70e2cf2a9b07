import { api } from '../../../lib/api-client.ts';

/** GET /demonstracao/caixa-de-saida/{id}/anexos/{indice}: an attachment's bytes, with the session's bearer token. */
export async function downloadAttachment(mensagemId: string, indice: number): Promise<Blob> {
  const { data } = await api.blob(`/demonstracao/caixa-de-saida/${encodeURIComponent(mensagemId)}/anexos/${indice}`);
  return data;
}
