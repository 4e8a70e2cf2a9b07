import { useQuery } from '@tanstack/react-query';
import type { Painel } from '@paineis/contract/panels';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /paineis: every panel (to an administrator), in the list screen's order. */
export async function getPanels(): Promise<Painel[]> {
  const { data } = await api.get<Painel[]>('/paineis');
  return data;
}

// Under the panels' own key: creating, changing or deleting a panel refreshes it.
export function usePanels() {
  return useQuery({ queryKey: queryKeys.panels, queryFn: getPanels });
}
