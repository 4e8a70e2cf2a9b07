import type { Exportacao, ExportacaoBody } from '@paineis/contract/personal';
import { api } from '../../../lib/api-client.ts';
import { type ExportStatus, exportStatus } from './get-export.ts';

/** POST /paineis/{id}/exportacoes: starts a Power BI export job of the report's current state (202). */
export async function startExport(painelId: number, body: ExportacaoBody): Promise<ExportStatus> {
  const answer = await api.post<Exportacao>(`/paineis/${painelId}/exportacoes`, body);
  return exportStatus(answer);
}
