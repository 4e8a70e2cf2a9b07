import { useQuery } from '@tanstack/react-query';
import type { Configuracao } from '@paineis/contract/configuration';
import { api } from '../api-client.ts';
import { queryKeys } from '../query-keys.ts';

/** GET /configuracao: how the server is set up (demo mode, Microsoft, mail), as the screens need to know it. */
export async function getConfiguration(): Promise<Configuracao> {
  const { data } = await api.get<Configuracao>('/configuracao');
  return data;
}

/** Read once: the server's set-up changes only with a restart. */
export function useConfiguration() {
  return useQuery({ queryKey: queryKeys.configuration, queryFn: getConfiguration, staleTime: Infinity });
}
