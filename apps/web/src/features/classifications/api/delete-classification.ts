import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** DELETE /classificacoes/{id}; its panels fall under 'Sem Classificação'. */
export async function deleteClassification(id: number): Promise<void> {
  await api.delete(`/classificacoes/${id}`);
}

export function useDeleteClassification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteClassification,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.adminClassifications }),
        // exact: the admin list above shares this prefix and must not be fetched twice.
        queryClient.invalidateQueries({ queryKey: queryKeys.classifications, exact: true }),
        queryClient.invalidateQueries({ queryKey: queryKeys.panels }),
      ]);
    },
  });
}
