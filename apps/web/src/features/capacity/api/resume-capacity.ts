import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { capacityKeys } from './capacity-keys.ts';

/** POST /capacidade/retomar: 202, the resume under way; `motivo` goes to the audit. */
export async function resumeCapacity(motivo: string | null): Promise<void> {
  await api.post('/capacidade/retomar', { motivo });
}

export function useResumeCapacity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resumeCapacity,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: capacityKeys.all }),
  });
}
