import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PeriodoUso } from '@paineis/contract/usage-audit-constants';
import type { UsoSemLogin } from '@paineis/contract/usage';
import { api } from '../../../lib/api-client.ts';
import { usageKeys } from './usage-keys.ts';

/** GET /uso/sem-login?dias=N: the active people who have not signed in during the period (every one of them). */
export async function getPeopleWithoutSignIn(dias: PeriodoUso): Promise<UsoSemLogin> {
  const { data } = await api.get<UsoSemLogin>('/uso/sem-login', { params: { dias } });
  return data;
}

export function usePeopleWithoutSignIn(dias: PeriodoUso) {
  return useQuery({
    queryKey: usageKeys.withoutSignIn(dias),
    queryFn: () => getPeopleWithoutSignIn(dias),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}
