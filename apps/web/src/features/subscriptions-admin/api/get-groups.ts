import { useQuery } from '@tanstack/react-query';
import type { Grupo365 } from '@paineis/contract/groups';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /grupos365: the directory's groups by name, the group recipients an administrator may name. */
export async function getGroups(): Promise<Grupo365[]> {
  const { data } = await api.get<Grupo365[]>('/grupos365');
  return data;
}

// The key the access screens use: the directory changes at the next sync, not while the modal is open.
export function useGroups() {
  return useQuery({ queryKey: queryKeys.groups, queryFn: getGroups, staleTime: 5 * 60_000 });
}
