import { useQuery } from '@tanstack/react-query';
import type { CaixaDeSaida } from '@paineis/contract/subscriptions';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /demonstracao/caixa-de-saida: 200 only in demo mode, 404 otherwise. */
export async function getDemoOutbox(): Promise<CaixaDeSaida> {
  const { data } = await api.get<CaixaDeSaida>('/demonstracao/caixa-de-saida');
  return data;
}

/** Whether the server runs in demo mode: its outbox answers. A failure (404 outside demo mode) means no. */
export function useDemoMode(): boolean {
  const outbox = useQuery({ queryKey: queryKeys.demoOutbox, queryFn: getDemoOutbox });
  return outbox.isSuccess;
}
