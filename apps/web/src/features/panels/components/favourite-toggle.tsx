import { memo } from 'react';
import { useIsFavourite } from '../api/get-favourites.ts';
import { useToggleFavourite } from '../api/toggle-favourite.ts';

export const FAVORITAR = 'Favoritar';
export const REMOVER_FAVORITO = 'Remover dos favoritos';

// A five-pointed star in a 16 px box, filled when the panel is a favourite and outlined when not.
const STAR = 'M8 1.3l2.05 4.16 4.6.67-3.33 3.24.79 4.57L8 11.79l-4.11 2.15.79-4.57L1.35 6.13l4.6-.67z';

/** A panel row's star: 'Favoritar' or 'Remover dos favoritos' (a toggle button, aria-pressed). */
export const FavouriteToggle = memo(function FavouriteToggle({ painelId, nome }: { painelId: number; nome: string }) {
  const favorito = useIsFavourite(painelId);
  const { mutate } = useToggleFavourite();
  const label = favorito ? REMOVER_FAVORITO : FAVORITAR;
  return (
    <button
      type="button"
      className={`btn btn-sm btn-link px-1 favourite-toggle ${favorito ? 'text-warning' : 'text-body-secondary'}`}
      aria-label={label}
      aria-pressed={favorito}
      title={`${label}: ${nome}`}
      onClick={() => mutate({ painelId, favorito: !favorito })}
    >
      <svg width="18" height="18" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <path
          d={STAR}
          fill={favorito ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.3"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
});
