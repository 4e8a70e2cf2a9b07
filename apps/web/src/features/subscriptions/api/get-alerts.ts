import { useQuery } from '@tanstack/react-query';
import type { Alertas } from '@paineis/contract/alerts';
import { api } from '../../../lib/api-client.ts';

export const ALERTS_KEY = ['alertas'] as const;

/** GET /alertas (administrators): the events on, the recipients, the incidents open and the last ones closed. */
export async function getAlerts(): Promise<Alertas> {
  return (await api.get<Alertas>('/alertas')).data;
}

export function useAlerts() {
  // Incidents open and close with the background rounds: read afresh on every visit.
  return useQuery({ queryKey: ALERTS_KEY, queryFn: getAlerts, staleTime: 0 });
}
