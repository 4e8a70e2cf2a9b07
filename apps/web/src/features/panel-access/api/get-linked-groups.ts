import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GrupoVinculado } from '@paineis/contract/groups';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /paineis/{id}/grupos: the Entra groups linked to a panel, by name. */
export async function getLinkedGroups(id: number): Promise<GrupoVinculado[]> {
  const { data } = await api.get<GrupoVinculado[]>(`/paineis/${id}/grupos`);
  return data;
}

export const linkedGroupsQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.linkedGroups(id), queryFn: () => getLinkedGroups(id) });

export function useLinkedGroups(id: number) {
  return useQuery(linkedGroupsQuery(id));
}
