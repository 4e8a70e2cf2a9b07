import { useQuery } from '@tanstack/react-query';
import type { VisaoSalva } from '@paineis/contract/personal';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const savedViewKey = (painelId: number, visaoId: string) =>
  [...queryKeys.savedViews(painelId), visaoId] as const;

/** GET /paineis/{id}/visoes/{visaoId}: one view, the caller's or shared with them by link. */
export async function getSavedView(painelId: number, visaoId: string): Promise<VisaoSalva> {
  return (await api.get<VisaoSalva>(`/paineis/${painelId}/visoes/${encodeURIComponent(visaoId)}`)).data;
}

/** The view of `?visao=`; nothing is asked without one. */
export function useSavedView(painelId: number, visaoId: string | undefined) {
  return useQuery({
    queryKey: savedViewKey(painelId, visaoId ?? ''),
    queryFn: () => getSavedView(painelId, visaoId!),
    enabled: visaoId !== undefined && Number.isInteger(painelId) && painelId > 0,
  });
}
