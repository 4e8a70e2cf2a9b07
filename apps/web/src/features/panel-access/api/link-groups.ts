import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GrupoVinculado } from '@paineis/contract/groups';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { accessChanged } from '../utils/access-changed.ts';

/** POST /paineis/{id}/grupos: replaces the panel's whole set of linked groups ([] unlinks every group). */
export async function linkGroups({ id, groupIds }: { id: number; groupIds: string[] }): Promise<GrupoVinculado[]> {
  const { data } = await api.post<GrupoVinculado[]>(`/paineis/${id}/grupos`, groupIds);
  return data;
}

export function useLinkGroups() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: linkGroups,
    // Not awaited: the modal closes at once. Who may open the panel follows the groups linked to it.
    onSuccess: (_, { id }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.linkedGroups(id) });
      accessChanged(queryClient, id);
    },
  });
}
