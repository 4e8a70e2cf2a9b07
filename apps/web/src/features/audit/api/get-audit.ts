import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { AcaoAuditoria, ObjetoAuditoria } from '@paineis/contract/usage-audit-constants';
import type { PaginaAuditoria } from '@paineis/contract/audit';
import { api } from '../../../lib/api-client.ts';

/** The filters of GET /auditoria; an absent one filters nothing. */
export interface AuditFilters {
  /** Part of the person's e-mail, or their id. */
  usuario?: string;
  objeto?: ObjetoAuditoria;
  acao?: AcaoAuditoria;
}

/** GET /auditoria: 50 records, newest first; `antesDe` (the last page's `proxima`) asks for the next 50. */
export async function getAuditPage(filters: AuditFilters, antesDe?: number): Promise<PaginaAuditoria> {
  const { data } = await api.get<PaginaAuditoria>('/auditoria', { params: { ...filters, antesDe } });
  return data;
}

/** The pages read so far under the current filters; other filters start again from the first page. */
export function useAudit(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: ['auditoria', filters],
    queryFn: ({ pageParam }) => getAuditPage(filters, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.proxima ?? undefined,
    // Changes are recorded as they are made: the page shows them as of its opening.
    staleTime: 0,
    // Nor are other filters' pages kept: back to earlier filters is their first page again, not every page read.
    gcTime: 0,
    // The last filters' records stay on screen until the new ones arrive, rather than a spinner at every keystroke.
    placeholderData: keepPreviousData,
  });
}
