import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

// Under the panels prefix, so creating or moving a panel makes it stale.
const nextOrderKey = (classificacaoId: number) => [...queryKeys.panels, 'proxima-ordem', classificacaoId] as const;

/** GET /paineis/proxima-ordem/{classificacaoId}: the ordem that puts a panel last in that classification. */
export async function getNextOrder(classificacaoId: number): Promise<number> {
  const { data } = await api.get<{ proximaOrdem: number }>(`/paineis/proxima-ordem/${classificacaoId}`);
  return data.proximaOrdem;
}

/** Asked as soon as a classification is chosen, so that saving seldom has to wait for it. */
export function usePrefetchNextOrder(classificacaoId: number, enabled: boolean) {
  useQuery({ queryKey: nextOrderKey(classificacaoId), queryFn: () => getNextOrder(classificacaoId), enabled });
}

/**
 * For the save: the cached answer, the one on its way, or a fresh one. Undefined when there is none to be
 * had; the server then puts the panel last by itself, the same outcome.
 */
export function useResolveNextOrder() {
  const queryClient = useQueryClient();
  return useCallback(
    (classificacaoId: number): Promise<number | undefined> =>
      queryClient
        .fetchQuery({ queryKey: nextOrderKey(classificacaoId), queryFn: () => getNextOrder(classificacaoId) })
        .catch(() => undefined),
    [queryClient],
  );
}
