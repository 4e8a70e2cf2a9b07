import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** DELETE /paineis/{id}; its links and RLS roles go with it. */
export async function deletePanel(id: number): Promise<void> {
  await api.delete(`/paineis/${id}`);
}

export function useDeletePanel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePanel,
    // docs/requirements.md#delete-flow: confirm, delete, reload.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.panels }),
  });
}
