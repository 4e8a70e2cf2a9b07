import { useQuery } from '@tanstack/react-query';
import type { Recentes } from '@paineis/contract/personal';
import { queryKeys } from '../../../lib/query-keys.ts';
import { getRecents, takeArrivedRecents } from './fetch-personal.ts';

const selectIds = (data: Recentes) => data.paineis;

export function useRecents() {
  return useQuery({
    queryKey: queryKeys.recents,
    queryFn: getRecents,
    select: selectIds,
    initialData: takeArrivedRecents,
    // They change when the person opens a panel, and the viewer then marks them stale: back on '/', they are asked
    // for again.
    staleTime: Number.POSITIVE_INFINITY,
  });
}
