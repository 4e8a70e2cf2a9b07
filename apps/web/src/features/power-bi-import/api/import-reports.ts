import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportarBody, ResultadoImportacao } from '@paineis/contract/power-bi';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /paineis/importar: registers the reports as panels, skipping those that already are. */
export async function importReports(body: ImportarBody): Promise<ResultadoImportacao> {
  const { data } = await api.post<ResultadoImportacao>('/paineis/importar', body);
  return data;
}

export function useImportReports() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importReports,
    // The new panels join the lists, and their reports show as registered. Not awaited: the summary shows at once.
    onSuccess: (_, body) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.panels });
      for (const workspaceId of new Set(body.relatorios.map((r) => r.workspaceId))) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.powerBiReports(workspaceId) });
      }
    },
  });
}
