import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { capacityKeys } from './capacity-keys.ts';

/** POST /capacidade/pausar: 202, the pause under way; `motivo` goes to the audit. */
export async function pauseCapacity(motivo: string | null): Promise<void> {
  await api.post('/capacidade/pausar', { motivo });
}

export function usePauseCapacity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: pauseCapacity,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: capacityKeys.all }),
  });
}
