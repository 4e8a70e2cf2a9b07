import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /paineis/{id}/rls/roles (admins): the names of the panel's RLS roles, for the preview role choice. */
export async function getRoleNames(id: number): Promise<string[]> {
  const { data } = await api.get<string[]>(`/paineis/${id}/rls/roles`);
  return data;
}

export function useRoleNames(id: number) {
  // Under the panel's RLS key, so saving its roles refreshes the choice.
  return useQuery({ queryKey: [...queryKeys.rls(id), 'roles'], queryFn: () => getRoleNames(id) });
}
