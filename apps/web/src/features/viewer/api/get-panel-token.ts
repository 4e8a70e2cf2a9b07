import type { EmbedInfo } from '@paineis/contract/panels';
import { api } from '../../../lib/api-client.ts';

/**
 * GET /paineis/{id}/token: a fresh embed token for the panel's report, to hand to the embedded report without
 * reloading it; for an admin's preview, as the same RLS role (`papel`). No query hook: the viewer calls it from
 * timers and events, and a cached token would defeat it.
 */
export async function getPanelToken(id: number, papel?: string): Promise<EmbedInfo> {
  const { data } = await api.get<EmbedInfo>(`/paineis/${id}/token`, { params: papel ? { papel } : {} });
  return data;
}
