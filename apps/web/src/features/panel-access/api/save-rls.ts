import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RlsConfiguration } from '@paineis/contract/rls';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { accessChanged } from '../utils/access-changed.ts';

/** POST /paineis/{id}/rls: replaces the panel's whole RLS configuration (each role's e-mails and groups). */
export async function saveRls({ id, configs }: { id: number; configs: RlsConfiguration[] }): Promise<void> {
  await api.post(`/paineis/${id}/rls`, configs);
}

export function useSaveRls() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveRls,
    onSuccess: (_, { id }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.rls(id) });
      // The edit form carries the roles too; a stale copy would put the old ones back on its next save.
      void queryClient.invalidateQueries({ queryKey: queryKeys.panelData(id) });
      // Why a person may open the panel names their RLS roles.
      accessChanged(queryClient, id);
    },
  });
}
