import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Grupo365 } from '@paineis/contract/groups';
import { api } from '../api-client.ts';
import { queryKeys } from '../query-keys.ts';

/**
 * GET /grupos365 (administrators): the directory's Entra groups by name, each with its people at any depth
 * (`membros`); the links modal lists them and a subscription may name them.
 */
export async function getGroups(): Promise<Grupo365[]> {
  const { data } = await api.get<Grupo365[]>('/grupos365');
  return data;
}

// The directory changes at the next sync, not while a modal is open: reopening within minutes reuses it.
export const groupsQuery = queryOptions({
  queryKey: queryKeys.groups,
  queryFn: getGroups,
  staleTime: 5 * 60_000,
});

export function useGroups() {
  return useQuery(groupsQuery);
}
