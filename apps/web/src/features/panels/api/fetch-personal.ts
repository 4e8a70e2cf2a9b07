import type { Favoritos, Recentes } from '@paineis/contract/personal';
import { api } from '../../../lib/api-client.ts';
import { earlyAnswer } from '../../../lib/early-answer.ts';

// The person's favourites and recents, asked for with the list's groups as the app starts on `/`
// (app/first-screen.ts), so the list's first render already has 'Recentes' and 'Favoritos' above it and nothing
// moves down when they arrive. Free of React and of the query client, like fetch-grouped-panels.ts.

const fetchFavourites = async () => (await api.get<Favoritos>('/favoritos')).data;
const fetchRecents = async () => (await api.get<Recentes>('/recentes')).data;

const favourites = earlyAnswer<Favoritos>();
const recents = earlyAnswer<Recentes>();

export function prefetchPersonal(): Promise<[Favoritos, Recentes]> {
  return Promise.all([favourites.prefetch('favoritos', fetchFavourites), recents.prefetch('recentes', fetchRecents)]);
}

/** GET /favoritos: ids of the person's favourite panels (only those they may still open); the early answer, once. */
export const getFavourites = () => favourites.takeOrAsk('favoritos', fetchFavourites);
export const takeArrivedFavourites = () => favourites.takeArrived('favoritos');

/** GET /recentes: the last panels the person opened, newest first; the early answer, once. */
export const getRecents = () => recents.takeOrAsk('recentes', fetchRecents);
export const takeArrivedRecents = () => recents.takeArrived('recentes');
