import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UsuarioVinculado } from '@paineis/contract/users';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { accessChanged } from '../utils/access-changed.ts';

/** POST /paineis/{id}/usuarios: replaces the panel's whole set of linked users ([] unlinks everyone). */
export async function linkUsers({ id, userIds }: { id: number; userIds: string[] }): Promise<UsuarioVinculado[]> {
  const { data } = await api.post<UsuarioVinculado[]>(`/paineis/${id}/usuarios`, userIds);
  return data;
}

export function useLinkUsers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: linkUsers,
    // Not awaited: the modal closes at once; the RLS modal reads the fresh list next time it opens, and so does the
    // list of who may open the panel.
    onSuccess: (_, { id }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.linkedUsers(id) });
      accessChanged(queryClient, id);
    },
  });
}
