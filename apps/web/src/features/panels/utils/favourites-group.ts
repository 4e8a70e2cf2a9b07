import type { GrupoPaineis, Painel } from '@paineis/contract/panels';
import { FAVORITOS_ID } from './list-layout.ts';

export const FAVORITOS_NOME = 'Favoritos';

/**
 * The 'Favoritos' group shown at the top of '/': the person's favourite panels among those shown (so a search
 * filters it too), in the order they appear in the list. Null when none of the person's favourites is shown.
 * Its count is of every favourite in the list, as a classification's is of all its panels.
 */
export function favouritesGroup(
  shown: readonly GrupoPaineis[],
  all: readonly GrupoPaineis[],
  favourites: readonly number[],
): GrupoPaineis | null {
  if (favourites.length === 0) return null;
  const ids = new Set(favourites);
  const pick = (groups: readonly GrupoPaineis[]) =>
    groups.flatMap((grupo) => grupo.paineis.filter((painel) => ids.has(painel.id)));
  const paineis: Painel[] = pick(shown);
  // None among the panels a search leaves: no empty group above the matches.
  if (paineis.length === 0) return null;
  const total = shown === all ? paineis.length : pick(all).length;
  return { id: FAVORITOS_ID, nome: FAVORITOS_NOME, descricao: null, ativo: true, quantidadePaineis: total, paineis };
}
