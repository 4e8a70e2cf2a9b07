import { useQuery } from '@tanstack/react-query';
import type { CaixaDeSaida } from '@paineis/contract/subscriptions';
import { api } from '../../../lib/api-client.ts';

/** The demo outbox's own key (features/demo-outbox asks for the same list under it). */
export const demoOutboxKey = ['demonstracao', 'caixa-de-saida'] as const;

/** GET /demonstracao/caixa-de-saida: 200 only in demo mode, 404 otherwise. */
export async function getDemoOutbox(): Promise<CaixaDeSaida> {
  const { data } = await api.get<CaixaDeSaida>('/demonstracao/caixa-de-saida');
  return data;
}

/** Whether the server runs in demo mode: its outbox answers. A failure (404 outside demo mode) means no. */
export function useDemoMode(): boolean {
  const outbox = useQuery({ queryKey: demoOutboxKey, queryFn: getDemoOutbox });
  return outbox.isSuccess;
}
