import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VisaoSalva } from '@paineis/contract/personal';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** PATCH /paineis/{id}/visoes/{visaoId}: a new name (its owner only). */
export async function renameSavedView({
  painelId,
  visaoId,
  nome,
}: {
  painelId: number;
  visaoId: string;
  nome: string;
}): Promise<VisaoSalva> {
  return (await api.patch<VisaoSalva>(`/paineis/${painelId}/visoes/${encodeURIComponent(visaoId)}`, { nome })).data;
}

export function useRenameSavedView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameSavedView,
    onSuccess: (_view, { painelId }) =>
      queryClient.invalidateQueries({ queryKey: queryKeys.savedViews(painelId), exact: true }),
  });
}
