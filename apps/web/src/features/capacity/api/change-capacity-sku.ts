import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { capacityKeys } from './capacity-keys.ts';

/** PUT /capacidade/sku: 202, the scaling under way. */
export async function changeCapacitySku(body: { sku: string; motivo: string | null }): Promise<void> {
  await api.put('/capacidade/sku', body);
}

export function useChangeCapacitySku() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeCapacitySku,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: capacityKeys.all }),
  });
}
