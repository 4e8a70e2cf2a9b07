import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Favoritos } from '@paineis/contract/personal';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export interface FavouriteChange {
  painelId: number;
  favorito: boolean;
}

/** PUT or DELETE /favoritos/{painelId}: both idempotent, so a repeated click does no harm. */
export async function setFavourite({ painelId, favorito }: FavouriteChange): Promise<void> {
  if (favorito) await api.put(`/favoritos/${painelId}`);
  else await api.delete(`/favoritos/${painelId}`);
}

/** The star shows its new state at once (optimistic); a failure puts back what the server holds. */
export function useToggleFavourite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setFavourite,
    onMutate: async ({ painelId, favorito }) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.favourites });
      queryClient.setQueryData<Favoritos>(queryKeys.favourites, (current) => {
        const ids = (current?.paineis ?? []).filter((id) => id !== painelId);
        return { paineis: favorito ? [...ids, painelId] : ids };
      });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: queryKeys.favourites }),
  });
}
