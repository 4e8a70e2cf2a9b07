import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VisaoBody, VisaoSalva } from '@paineis/contract/personal';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /paineis/{id}/visoes: the report's current state saved under a name (409 for a name already used). */
export async function createSavedView({ painelId, body }: { painelId: number; body: VisaoBody }): Promise<VisaoSalva> {
  return (await api.post<VisaoSalva>(`/paineis/${painelId}/visoes`, body)).data;
}

export function useCreateSavedView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSavedView,
    onSuccess: (_view, { painelId }) =>
      queryClient.invalidateQueries({ queryKey: queryKeys.savedViews(painelId), exact: true }),
  });
}
