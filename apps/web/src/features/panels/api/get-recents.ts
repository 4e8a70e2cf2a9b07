import { useQuery } from '@tanstack/react-query';
import type { Recentes } from '@paineis/contract/personal';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /recentes: the last panels the person opened, newest first. */
export async function getRecents(): Promise<Recentes> {
  return (await api.get<Recentes>('/recentes')).data;
}

const selectIds = (data: Recentes) => data.paineis;

export function useRecents() {
  return useQuery({
    queryKey: queryKeys.recents,
    queryFn: getRecents,
    select: selectIds,
    // Back on '/' after opening a panel: that opening counts, so ask again every time the list shows.
    refetchOnMount: 'always',
  });
}
