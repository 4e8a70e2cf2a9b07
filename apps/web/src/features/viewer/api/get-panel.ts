import { useQuery } from '@tanstack/react-query';
import type { PainelComEmbed } from '@paineis/contract/panels';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /paineis/{id}: one panel with what is needed to embed its report; an admin may ask for one RLS role. */
export async function getPanel(id: number, papel?: string): Promise<PainelComEmbed> {
  const { data } = await api.get<PainelComEmbed>(`/paineis/${id}`, { params: papel ? { papel } : {} });
  return data;
}

export function usePanel(id: number, papel?: string) {
  return useQuery({
    queryKey: [...queryKeys.panel(id), 'embed', papel ?? null],
    queryFn: () => getPanel(id, papel),
    enabled: Number.isInteger(id) && id > 0,
    // An embed token is personal and short-lived: always ask again when the viewer opens.
    staleTime: 0,
    gcTime: 0,
  });
}
