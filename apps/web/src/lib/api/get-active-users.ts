import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Usuario365 } from '@paineis/contract/users';
import { api } from '../api-client.ts';
import { queryKeys } from '../query-keys.ts';

/**
 * GET /usuarios365/ativos (administrators): the directory's active people, whom the links modal lists and a
 * subscription may name. The browser revalidates it by ETag (304 when unchanged).
 */
export async function getActiveUsers(): Promise<Usuario365[]> {
  const { data } = await api.get<Usuario365[]>('/usuarios365/ativos');
  return data;
}

// Tens of thousands of rows that change rarely: reopening a modal within minutes reuses them.
export const activeUsersQuery = queryOptions({
  queryKey: queryKeys.activeUsers,
  queryFn: getActiveUsers,
  staleTime: 5 * 60_000,
});

export function useActiveUsers() {
  return useQuery(activeUsersQuery);
}
