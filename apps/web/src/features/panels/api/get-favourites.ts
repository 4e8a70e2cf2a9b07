import { useQuery } from '@tanstack/react-query';
import type { Favoritos } from '@paineis/contract/personal';
import { queryKeys } from '../../../lib/query-keys.ts';
import { getFavourites, takeArrivedFavourites } from './fetch-personal.ts';

const selectIds = (data: Favoritos) => data.paineis;

export function useFavourites() {
  return useQuery({
    queryKey: queryKeys.favourites,
    queryFn: getFavourites,
    select: selectIds,
    initialData: takeArrivedFavourites,
  });
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
