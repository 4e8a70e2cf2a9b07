import { useQuery } from '@tanstack/react-query';
import type { PainelDados } from '@paineis/contract/panels';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /paineis/{id}/dados: the panel as an admin edits it. */
export async function getPanelData(id: number): Promise<PainelDados> {
  const { data } = await api.get<PainelDados>(`/paineis/${id}/dados`);
  return data;
}

export function usePanelData(id: number) {
  return useQuery({ queryKey: queryKeys.panelData(id), queryFn: () => getPanelData(id) });
}
