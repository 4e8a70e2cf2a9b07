import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Alertas, AlertasBody } from '@paineis/contract/alerts';
import { api } from '../../../lib/api-client.ts';
import { ALERTS_KEY } from './get-alerts.ts';

/** PUT /alertas (administrators): replaces the events on and the recipients; answers as GET does. */
export async function updateAlerts(body: AlertasBody): Promise<Alertas> {
  return (await api.put<Alertas>('/alertas', body)).data;
}

export function useUpdateAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAlerts,
    onSuccess: (saved) => queryClient.setQueryData(ALERTS_KEY, saved),
  });
}
