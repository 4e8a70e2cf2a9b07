import type { Exportacao } from '@paineis/contract/personal';
import { api, type ApiResponse } from '../../../lib/api-client.ts';

/** An export job, and how long to wait before asking again (seconds), when the answer said. */
export interface ExportStatus {
  exportacao: Exportacao;
  aguardarSegundos: number | undefined;
}

/** The wait is in the body (aguardarSegundos) and in Power BI's Retry-After header: the body's first. */
export function exportStatus({ data, headers }: ApiResponse<Exportacao>): ExportStatus {
  const header = Number(headers.get('retry-after') ?? Number.NaN);
  const fromHeader = Number.isFinite(header) && header >= 0 ? header : undefined;
  return { exportacao: data, aguardarSegundos: data.aguardarSegundos ?? fromHeader };
}

/** GET /paineis/{id}/exportacoes/{exportacaoId}: the job's status and progress. */
export async function getExport(painelId: number, exportacaoId: string): Promise<ExportStatus> {
  return exportStatus(
    await api.get<Exportacao>(`/paineis/${painelId}/exportacoes/${encodeURIComponent(exportacaoId)}`),
  );
}
