import { useQuery } from '@tanstack/react-query';
import type { VisaoSalva } from '@paineis/contract/personal';
import { api } from '../api-client.ts';
import { queryKeys } from '../query-keys.ts';

/** GET /paineis/{id}/visoes: the person's own saved views of a panel, by name. */
export async function getSavedViews(painelId: number): Promise<VisaoSalva[]> {
  return (await api.get<VisaoSalva[]>(`/paineis/${painelId}/visoes`)).data;
}

/**
 * Asked for when the viewer's 'Visões' menu or the subscription dialog first opens (most openings of a panel never
 * look), and again at each opening: a view may have been saved in another tab.
 */
export function useSavedViews(painelId: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.savedViews(painelId),
    queryFn: () => getSavedViews(painelId),
    enabled,
    staleTime: 0,
  });
}
