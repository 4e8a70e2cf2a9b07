import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Painel, PainelBody } from '@paineis/contract/panels';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /paineis. */
export async function createPanel(body: PainelBody): Promise<Painel> {
  const { data } = await api.post<Painel>('/paineis', body);
  return data;
}

export function useCreatePanel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPanel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.panels }),
  });
}
