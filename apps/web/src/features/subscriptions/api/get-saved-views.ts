import { useQuery } from '@tanstack/react-query';
import type { VisaoSalva } from '@paineis/contract/personal';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /paineis/{id}/visoes: the person's own saved views of a panel, which a subscription may send. */
export async function getSavedViews(painelId: number): Promise<VisaoSalva[]> {
  return (await api.get<VisaoSalva[]>(`/paineis/${painelId}/visoes`)).data;
}

/** Asked for when the subscription dialog opens; the viewer's 'Visões' menu shares the answer (same key). */
export function useSavedViews(painelId: number, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.savedViews(painelId), queryFn: () => getSavedViews(painelId), enabled });
}
