/**
 * What "fast" means for the API, at the sizes an organisation reaches: 2,000 panels in 40 classifications,
 * 25,000 directory users, 300 people linked to each panel. Latencies are p99 in milliseconds, measured
 * with 10 concurrent connections on the 2-core reference machine.
 */
export const SIZES = { panels: 2_000, classifications: 40, users: 25_000, linksPerPanel: 300, rlsPanels: 200 };

export const BUDGETS_P99_MS: Record<string, number> = {
  'GET /api/paineis/agrupados (admin, 2000 painéis)': 250,
  'GET /api/paineis/agrupados (usuário)': 100,
  'GET /api/paineis (usuário)': 100,
  'GET /api/paineis/{id}/dados': 50,
  'GET /api/usuarios365/ativos (25000 usuários)': 1_500,
  'GET /api/paineis/{id}/usuarios (300 vínculos)': 100,
  'GET /api/classificacoes/admin': 100,
};
