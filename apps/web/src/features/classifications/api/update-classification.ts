import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Classificacao, ClassificacaoUpdate } from '@paineis/contract/classifications';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export interface UpdateClassificationInput {
  id: number;
  body: ClassificacaoUpdate;
}

/** PUT /classificacoes/{id}: name, description and status. A duplicate name answers 409 with its message. */
export async function updateClassification({ id, body }: UpdateClassificationInput): Promise<Classificacao> {
  const { data } = await api.put<Classificacao>(`/classificacoes/${id}`, body);
  return data;
}

export function useUpdateClassification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateClassification,
    // Panels carry the classification's name and group under it, so they refresh too.
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
