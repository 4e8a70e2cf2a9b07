import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UsuarioVinculado } from '@paineis/contract/users';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /paineis/{id}/usuarios: the users linked to a panel, by name. */
export async function getLinkedUsers(id: number): Promise<UsuarioVinculado[]> {
  const { data } = await api.get<UsuarioVinculado[]>(`/paineis/${id}/usuarios`);
  return data;
}

export const linkedUsersQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.linkedUsers(id), queryFn: () => getLinkedUsers(id) });

export function useLinkedUsers(id: number) {
  return useQuery(linkedUsersQuery(id));
}
