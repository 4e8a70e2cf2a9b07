import { skipToken, useQuery } from '@tanstack/react-query';
import type { RelatorioPowerBi } from '@paineis/contract/power-bi';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /powerbi/workspaces/{id}/relatorios: a workspace's reports by name, each with its panel when it is one. */
export async function getWorkspaceReports(workspaceId: string): Promise<RelatorioPowerBi[]> {
  const { data } = await api.get<RelatorioPowerBi[]>(
    `/powerbi/workspaces/${encodeURIComponent(workspaceId)}/relatorios`,
  );
  return data;
}

/** Nothing is asked while no workspace is chosen. */
export function useWorkspaceReports(workspaceId: string | null) {
  return useQuery({
    queryKey: queryKeys.powerBiReports(workspaceId ?? ''),
    queryFn: workspaceId === null ? skipToken : () => getWorkspaceReports(workspaceId),
  });
}
