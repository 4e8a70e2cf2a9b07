import { useQuery } from '@tanstack/react-query';
import type { Favoritos } from '@paineis/contract/personal';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /favoritos: ids of the person's favourite panels (only those they may still open). */
export async function getFavourites(): Promise<Favoritos> {
  return (await api.get<Favoritos>('/favoritos')).data;
}

const selectIds = (data: Favoritos) => data.paineis;

export function useFavourites() {
  return useQuery({ queryKey: queryKeys.favourites, queryFn: getFavourites, select: selectIds });
}

/** One row's star: only that row re-renders when its own panel is starred or not. */
export function useIsFavourite(painelId: number): boolean {
  const { data } = useQuery({
    queryKey: queryKeys.favourites,
    queryFn: getFavourites,
    select: (favoritos: Favoritos) => favoritos.paineis.includes(painelId),
  });
  return data ?? false;
}
