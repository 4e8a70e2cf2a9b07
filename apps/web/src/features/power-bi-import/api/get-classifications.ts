import { useQuery } from '@tanstack/react-query';
import type { Classificacao } from '@paineis/contract/classifications';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /classificacoes: the active classifications, by name, that imported panels may go into. */
export async function getClassifications(): Promise<Classificacao[]> {
  const { data } = await api.get<Classificacao[]>('/classificacoes');
  return data;
}

export function useClassifications() {
  return useQuery({ queryKey: queryKeys.classifications, queryFn: getClassifications });
}
