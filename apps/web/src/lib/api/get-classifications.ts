import { useQuery } from '@tanstack/react-query';
import type { Classificacao } from '@paineis/contract/classifications';
import { api } from '../api-client.ts';
import { queryKeys } from '../query-keys.ts';

/** GET /classificacoes: the active classifications, by name (their screen, and the import's choice of one). */
export async function getClassifications(): Promise<Classificacao[]> {
  const { data } = await api.get<Classificacao[]>('/classificacoes');
  return data;
}

export function useClassifications() {
  return useQuery({ queryKey: queryKeys.classifications, queryFn: getClassifications });
}
