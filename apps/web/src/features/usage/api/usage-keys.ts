/**
 * The query keys of '/uso'. Only this feature reads them, so they live here rather than in lib/query-keys.ts, which
 * the first screen loads.
 */
export const usageKeys = {
  perDay: (dias: number) => ['uso', 'por-dia', dias] as const,
  panels: (dias: number) => ['uso', 'paineis', dias] as const,
  panel: (id: number, dias: number) => ['uso', 'painel', id, dias] as const,
  withoutSignIn: (dias: number) => ['uso', 'sem-login', dias] as const,
};
