/**
 * What "fast" means for the API at the sizes an organisation reaches: 2,000 panels in 40 classifications,
 * 25,000 directory users, 300 people linked to each panel. Budgets are p99 latencies in milliseconds with
 * 10 requests in flight at once on the 2-core reference machine, against the embedded database (the slower
 * of the two): a screen's data arrives within a blink for people, and within a second for the admin's
 * 25,000-person directory. A run fails when any call misses its budget or answers anything but 2xx.
 */
export const SIZES = { panels: 2_000, classifications: 40, users: 25_000, linksPerPanel: 300, rlsPanels: 200 };

export const BUDGETS_P99_MS: Record<string, number> = {
  'GET /api/paineis/agrupados (admin, 2000 painéis)': 500,
  'GET /api/paineis/agrupados (usuário)': 200,
  'GET /api/paineis (usuário)': 200,
  'GET /api/paineis/{id}/dados': 150,
  'GET /api/usuarios365/ativos (25000 usuários)': 1_500,
  'GET /api/paineis/{id}/usuarios (300 vínculos)': 300,
  'GET /api/classificacoes/admin': 150,
  // Power BI answers once; the embed token is then served from the cache until shortly before it expires.
  'GET /api/paineis/{id} (usuário abre um painel)': 150,
  'GET /api/paineis/{id}/token (usuário, RLS)': 150,
};
