/** Every route of the web app (docs/requirements.md#screens); no other routes exist. */
export const paths = {
  login: '/login',
  home: '/',
  newPanel: '/cadastro',
  editPanel: (id: number | string) => `/editar/${id}`,
  viewer: (id: number | string) => `/visualizar/${id}`,
  classifications: '/classificacoes',
  usage: '/uso',
  audit: '/auditoria',
  access: '/acessos',
  importFromPowerBi: '/importar',
  subscriptions: '/assinaturas',
  allSubscriptions: '/assinaturas/todas',
  /** Where the link of a message whose file was too large to attach leads. */
  subscriptionFile: (id: string) => `/assinaturas/arquivos/${id}`,
  demoOutbox: '/caixa-de-saida',
  capacity: '/capacidade',
} as const;
