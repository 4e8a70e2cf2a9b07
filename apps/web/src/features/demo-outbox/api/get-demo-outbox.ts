import { useQuery } from '@tanstack/react-query';
import type { CaixaDeSaida } from '@paineis/contract/subscriptions';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /demonstracao/caixa-de-saida (administrators, demo mode; 404 otherwise): the messages the Graph stand-in took. */
export async function getDemoOutbox(): Promise<CaixaDeSaida> {
  const { data } = await api.get<CaixaDeSaida>('/demonstracao/caixa-de-saida');
  return data;
}

/** Asked for only when `enabled`: in demo mode, as the server's configuration says. */
export function useDemoOutbox(enabled: boolean) {
  // Messages arrive as deliveries run: read afresh on every visit, and on 'Atualizar'.
  return useQuery({ queryKey: queryKeys.demoOutbox, queryFn: getDemoOutbox, staleTime: 0, enabled });
}
