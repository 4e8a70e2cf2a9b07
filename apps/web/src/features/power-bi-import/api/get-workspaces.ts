import { useQuery } from '@tanstack/react-query';
import type { WorkspacePowerBi } from '@paineis/contract/power-bi';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /powerbi/workspaces: the workspaces the portal's service principal reaches in Power BI, by name. */
export async function getWorkspaces(): Promise<WorkspacePowerBi[]> {
  const { data } = await api.get<WorkspacePowerBi[]>('/powerbi/workspaces');
  return data;
}

export function useWorkspaces() {
  return useQuery({ queryKey: queryKeys.powerBiWorkspaces, queryFn: getWorkspaces });
}
