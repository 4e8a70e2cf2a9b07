import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Painel, PainelBody } from '@paineis/contract/panels';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** PUT /paineis/{id}. */
export async function updatePanel({ id, body }: { id: number; body: PainelBody }): Promise<Painel> {
  const { data } = await api.put<Painel>(`/paineis/${id}`, body);
  return data;
}

export function useUpdatePanel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePanel,
    // The prefix covers the list, the groups, the panel and its edit data.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.panels }),
  });
}
