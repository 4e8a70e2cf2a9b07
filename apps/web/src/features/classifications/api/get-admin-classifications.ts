import { useQuery } from '@tanstack/react-query';
import type { ClassificacaoAdmin } from '@paineis/contract/classifications';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /classificacoes/admin: every classification, active or not, by name, with its panel count. */
export async function getAdminClassifications(): Promise<ClassificacaoAdmin[]> {
  const { data } = await api.get<ClassificacaoAdmin[]>('/classificacoes/admin');
  return data;
}

export function useAdminClassifications() {
  return useQuery({ queryKey: queryKeys.adminClassifications, queryFn: getAdminClassifications });
}
