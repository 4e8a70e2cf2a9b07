import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import type { AcessoPessoa } from '@paineis/contract/groups';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /usuarios365/{id}/acesso: every panel, whether the person may open it and why, or why not. */
export async function getPersonAccess(id: string): Promise<AcessoPessoa> {
  const { data } = await api.get<AcessoPessoa>(`/usuarios365/${encodeURIComponent(id)}/acesso`);
  return data;
}

export const personAccessQuery = (id: string) =>
  queryOptions({ queryKey: queryKeys.personAccess(id), queryFn: () => getPersonAccess(id) });

/** Nothing is asked while no person is chosen. */
export function usePersonAccess(id: string | null) {
  return useQuery(id === null ? { queryKey: queryKeys.personAccess(''), queryFn: skipToken } : personAccessQuery(id));
}
