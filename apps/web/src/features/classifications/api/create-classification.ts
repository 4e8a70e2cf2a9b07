import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Classificacao, ClassificacaoCreate } from '@paineis/contract/classifications';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /classificacoes; the server creates it active. A duplicate name answers 409 with its message. */
export async function createClassification(body: ClassificacaoCreate): Promise<Classificacao> {
  const { data } = await api.post<Classificacao>('/classificacoes', body);
  return data;
}

export function useCreateClassification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClassification,
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
