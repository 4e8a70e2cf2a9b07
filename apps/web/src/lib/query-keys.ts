/**
 * Query keys shared across features, so that a change in one (a classification deleted) can refresh
 * another (the grouped panel list) without the features importing each other.
 */
export const queryKeys = {
  panels: ['paineis'] as const,
  groupedPanels: ['paineis', 'agrupados'] as const,
  panel: (id: number) => ['paineis', id] as const,
  panelData: (id: number) => ['paineis', id, 'dados'] as const,
  linkedUsers: (id: number) => ['paineis', id, 'usuarios'] as const,
  rls: (id: number) => ['paineis', id, 'rls'] as const,
  linkedGroups: (id: number) => ['paineis', id, 'grupos'] as const,
  panelAccess: (id: number) => ['paineis', id, 'acesso'] as const,
  classifications: ['classificacoes'] as const,
  adminClassifications: ['classificacoes', 'admin'] as const,
  activeUsers: ['usuarios365', 'ativos'] as const,
  personAccess: (id: string) => ['usuarios365', id, 'acesso'] as const,
  groups: ['grupos365'] as const,
  favourites: ['favoritos'] as const,
  recents: ['recentes'] as const,
  savedViews: (id: number) => ['paineis', id, 'visoes'] as const,
  /** When each panel's data was last refreshed in Power BI (GET /paineis/atualizacoes). */
  freshness: ['paineis', 'atualizacoes'] as const,
  /** The last health check of each panel's report (GET /paineis/saude, admins). */
  panelHealth: ['paineis', 'saude'] as const,
  /** The person's own subscriptions (GET /assinaturas); a prefix of every subscription list, so changes refresh all. */
  subscriptions: ['assinaturas'] as const,
  /** Every subscription (GET /assinaturas/todas, admins). */
  allSubscriptions: ['assinaturas', 'todas'] as const,
  /** The demo outbox (GET /demonstracao/caixa-de-saida, admins, demo mode only). */
  demoOutbox: ['demonstracao', 'caixa-de-saida'] as const,
  /** How the server is set up (GET /configuracao): whether it runs in demo mode, among others. */
  configuration: ['configuracao'] as const,
  powerBiWorkspaces: ['powerbi', 'workspaces'] as const,
  powerBiReports: (workspaceId: string) => ['powerbi', 'workspaces', workspaceId, 'relatorios'] as const,
};

/** Whether a key is a person's access explanation (queryKeys.personAccess), whoever the person. */
export const isPersonAccessKey = (key: readonly unknown[]) => key[0] === 'usuarios365' && key[2] === 'acesso';
