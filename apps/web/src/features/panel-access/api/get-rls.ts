import { useQuery } from '@tanstack/react-query';
import type { RlsConfiguration } from '@paineis/contract/rls';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** docs/requirements.md#rls-and-link-calls: an array, or an object with a `configuracoes` array. */
type RlsResponse = RlsConfiguration[] | { configuracoes?: RlsConfiguration[] | null };

/** GET /paineis/{id}/rls: the panel's RLS roles with their e-mails. */
export async function getRls(id: number): Promise<RlsConfiguration[]> {
  const { data } = await api.get<RlsResponse>(`/paineis/${id}/rls`);
  return Array.isArray(data) ? data : (data.configuracoes ?? []);
}

export function useRls(id: number) {
  return useQuery({ queryKey: queryKeys.rls(id), queryFn: () => getRls(id) });
}
