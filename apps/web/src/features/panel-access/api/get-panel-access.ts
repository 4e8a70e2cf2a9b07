import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AcessoPainel } from '@paineis/contract/groups';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /paineis/{id}/acesso: every active person who may open the panel, by name, with every reason. */
export async function getPanelAccess(id: number): Promise<AcessoPainel> {
  const { data } = await api.get<AcessoPainel>(`/paineis/${id}/acesso`);
  return data;
}

export const panelAccessQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.panelAccess(id), queryFn: () => getPanelAccess(id) });

export function usePanelAccess(id: number) {
  return useQuery(panelAccessQuery(id));
}
