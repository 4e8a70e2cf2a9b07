import type { QueryClient } from '@tanstack/react-query';
import { isPersonAccessKey, queryKeys } from '../../../lib/query-keys.ts';

/**
 * After a panel's people, groups or RLS roles change: who may open it, and every person's explanation (any of
 * them may have gained or lost the panel or a role), are asked for again when next shown. Not awaited.
 */
export function accessChanged(queryClient: QueryClient, painelId: number): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.panelAccess(painelId) });
  void queryClient.invalidateQueries({ predicate: (query) => isPersonAccessKey(query.queryKey) });
}
