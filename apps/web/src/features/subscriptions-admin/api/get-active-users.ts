import { useQuery } from '@tanstack/react-query';
import type { Usuario365 } from '@paineis/contract/users';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /usuarios365/ativos: the directory's active people, the recipients an administrator may name. */
export async function getActiveUsers(): Promise<Usuario365[]> {
  const { data } = await api.get<Usuario365[]>('/usuarios365/ativos');
  return data;
}

// The key the access screens use: tens of thousands of rows that change rarely, shared with them in the cache.
export function useActiveUsers() {
  return useQuery({ queryKey: queryKeys.activeUsers, queryFn: getActiveUsers, staleTime: 5 * 60_000 });
}
