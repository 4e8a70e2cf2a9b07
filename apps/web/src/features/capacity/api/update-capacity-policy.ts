import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PoliticaCapacidade } from '@paineis/contract/capacity';
import { api } from '../../../lib/api-client.ts';
import { capacityKeys } from './capacity-keys.ts';

/** PUT /capacidade/politica: the policy that pauses and wakes the capacity, and the prices of the estimate. */
export async function updateCapacityPolicy(politica: PoliticaCapacidade): Promise<void> {
  await api.put('/capacidade/politica', politica);
}

export function useUpdateCapacityPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCapacityPolicy,
    // The estimate and the month follow the new prices.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: capacityKeys.capacity }),
  });
}
