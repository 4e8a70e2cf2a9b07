import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** DELETE /paineis/{id}/visoes/{visaoId} (its owner only); a link to it then opens the report as it is. */
export async function deleteSavedView({ painelId, visaoId }: { painelId: number; visaoId: string }): Promise<void> {
  await api.delete(`/paineis/${painelId}/visoes/${encodeURIComponent(visaoId)}`);
}

export function useDeleteSavedView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSavedView,
    onSuccess: (_nothing, { painelId }) =>
      queryClient.invalidateQueries({ queryKey: queryKeys.savedViews(painelId), exact: true }),
  });
}
