import type { ExportacaoDados, ExportacaoDadosBody } from '@paineis/contract/usage';
import { api } from '../../../lib/api-client.ts';

/**
 * POST /paineis/{id}/exportacoes-dados: the record of a visual's data export. The file is saved only once this
 * answers 201, so the panel's 'Permitir exportar dados' holds on the server (403 when off).
 */
export async function recordDataExport(painelId: number, body: ExportacaoDadosBody): Promise<ExportacaoDados> {
  return (await api.post<ExportacaoDados>(`/paineis/${painelId}/exportacoes-dados`, body)).data;
}
