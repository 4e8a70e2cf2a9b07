import { createHash } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { seedAuditHistory } from '../modules/audit/audit-history.ts';
import { insertClassification } from '../modules/classifications/classifications.repository.ts';
import { replaceGroupLinks } from '../modules/panels/panel-groups.repository.ts';
import { replaceLinks } from '../modules/panels/panel-users.repository.ts';
import { insertPanel } from '../modules/panels/panels.repository.ts';
import { replaceRls } from '../modules/panels/rls.repository.ts';
import { seedLastSignIns } from '../modules/auth/sign-ins.ts';
import { forgetUsageSnapshots, seedOpenings } from '../modules/usage/usage.ts';
import { seedGroups, seedUsers, type NewUser } from '../modules/users/users.service.ts';
import { nextOccurrence } from '../modules/subscriptions/schedule.ts';
import { insertSubscription, type NewSubscription } from '../modules/subscriptions/subscriptions.repository.ts';
import { isEmpty, lockDemoLoad } from './demo.repository.ts';
import { demoGroupId, demoGroups } from './demo-directory.ts';
import { demoHistory, type DemoClassificacao, type DemoPanel, type DemoPerson } from './demo-history.ts';
import { random } from './seeded-random.ts';

export const DEMO_DOMAIN = 'contoso.com.br';
/** The tenant's own domain, which UPNs take when the organisation's domain was not made their suffix. */
export const TENANT_DOMAIN = 'contoso.onmicrosoft.com';
/** The one Power BI workspace of the demo panels. */
export const DEMO_WORKSPACE_ID = demoGuid('workspace:Painéis Corporativos');
export const DEMO_ADMIN = {
  id: 'demo-admin',
  email: `demo.admin@${DEMO_DOMAIN}`,
  displayName: 'Ana Demonstração',
  role: 'Admin' as const,
  department: 'Tecnologia da Informação',
  jobTitle: 'Administradora do portal',
};
export const DEMO_USER = {
  id: 'demo-usuario',
  email: `demo.usuario@${DEMO_DOMAIN}`,
  displayName: 'Bruno Demonstração',
  role: 'User' as const,
  department: 'Comercial',
  jobTitle: 'Analista comercial',
};

/** The demo's two local accounts, with one password (the sign-in page offers them). */
export const DEMO_PASSWORD = 'demo';
export const DEMO_ACCOUNTS = [
  { username: 'demo.admin', user: DEMO_ADMIN },
  { username: 'demo.usuario', user: DEMO_USER },
] as const;

/**
 * A guest from a supplier's tenant (docs/decisions/013-identity-from-the-directory.md): in the directory her mail is
 * the address she was invited with and her UPN is made from it; she is seeded like everyone else, and the directory
 * sync brings in that UPN and her user type.
 */
export const DEMO_GUEST = {
  id: demoGuid('convidada:Marina Costa'),
  email: 'marina.costa@fornecedor.com.br',
  displayName: 'Marina Costa (convidada)',
  role: 'User' as const,
  department: null,
  jobTitle: 'Consultora externa',
  officeLocation: null,
};
/** Her UPN in the directory: a guest's is made from the address she was invited with. */
export const DEMO_GUEST_UPN = `${DEMO_GUEST.email.replace('@', '_')}#EXT#@${TENANT_DOMAIN}`;
/** The panel the guest is linked to, in its role 'Vendedor'. */
const GUEST_PANEL = 'Vendas por Região';

export const CLASSIFICACOES: { nome: string; descricao: string | null; ativo: boolean; paineis: string[] }[] = [
  {
    nome: 'Financeiro',
    descricao: 'Resultados, fluxo de caixa e orçamento da empresa.',
    ativo: true,
    paineis: [
      'Fluxo de Caixa Mensal',
      'DRE Consolidada',
      'Orçamento vs Realizado',
      'Contas a Pagar e Receber',
      'Indicadores de Liquidez',
      'Custos por Centro de Custo',
      'Inadimplência por Região',
    ],
  },
  {
    nome: 'Comercial',
    descricao: 'Vendas, metas e carteira de clientes por região.',
    ativo: true,
    paineis: [
      'Vendas por Região',
      'Metas da Equipe Comercial',
      'Funil de Oportunidades',
      'Ticket Médio por Canal',
      'Carteira de Clientes',
      'Ranking de Vendedores',
      'Sazonalidade de Vendas',
      'Devoluções e Trocas',
    ],
  },
  {
    nome: 'Recursos Humanos',
    descricao: 'Quadro de pessoal, rotatividade e treinamentos.',
    ativo: true,
    paineis: [
      'Quadro de Colaboradores',
      'Rotatividade (Turnover)',
      'Absenteísmo',
      'Treinamentos Realizados',
      'Pesquisa de Clima',
    ],
  },
  {
    nome: 'Operações',
    descricao: 'Produção, qualidade e eficiência das plantas.',
    ativo: true,
    paineis: [
      'Produção Diária',
      'OEE por Linha',
      'Paradas de Máquina',
      'Qualidade e Não Conformidades',
      'Consumo de Energia',
      'Manutenção Preventiva',
    ],
  },
  {
    nome: 'Logística',
    descricao: 'Estoques, entregas e frota.',
    ativo: true,
    paineis: [
      'Nível de Estoque',
      'Entregas no Prazo (OTIF)',
      'Custo de Frete',
      'Ocupação de Armazéns',
      'Rastreamento da Frota',
    ],
  },
  {
    nome: 'Projetos Encerrados',
    descricao: 'Painéis de projetos já concluídos, mantidos para consulta.',
    ativo: false,
    paineis: ['Implantação do ERP (2023)', 'Expansão Nordeste'],
  },
];

export const SEM_CLASSIFICACAO = ['Painel de Testes da Equipe de BI'];

/** Panels that use RLS, and their roles: each role sees its own slice of the report's data. */
export const RLS_ROLES: Record<string, string[]> = {
  'Vendas por Região': ['Gerente Regional', 'Vendedor', 'Diretoria'],
  'Metas da Equipe Comercial': ['Gerente Regional', 'Vendedor'],
  'Inadimplência por Região': ['Sul', 'Sudeste', 'Nordeste'],
  'Quadro de Colaboradores': ['RH Corporativo', 'Gestor de Área'],
  'Custos por Centro de Custo': ['Controladoria', 'Gestor de Centro de Custo'],
  'Produção Diária': ['Planta Campinas', 'Planta Joinville'],
};

const FIRST = [
  'Ana',
  'Beatriz',
  'Bruna',
  'Camila',
  'Carla',
  'Clara',
  'Daniela',
  'Débora',
  'Eduarda',
  'Fernanda',
  'Gabriela',
  'Helena',
  'Isabela',
  'Júlia',
  'Larissa',
  'Letícia',
  'Luana',
  'Manuela',
  'Mariana',
  'Natália',
  'Patrícia',
  'Rafaela',
  'Renata',
  'Sofia',
  'Tatiane',
  'Vitória',
  'André',
  'Antônio',
  'Bernardo',
  'Caio',
  'Carlos',
  'Daniel',
  'Diego',
  'Eduardo',
  'Felipe',
  'Fernando',
  'Gabriel',
  'Gustavo',
  'Henrique',
  'João',
  'José',
  'Leonardo',
  'Lucas',
  'Marcelo',
  'Mateus',
  'Miguel',
  'Paulo',
  'Pedro',
  'Rafael',
  'Ricardo',
  'Rodrigo',
  'Thiago',
  'Vinícius',
];
const LAST = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
  'Rocha',
  'Dias',
  'Nascimento',
  'Andrade',
  'Moreira',
  'Nunes',
  'Marques',
  'Machado',
  'Mendes',
  'Freitas',
  'Cardoso',
  'Ramos',
  'Gonçalves',
  'Santana',
  'Teixeira',
  'Araújo',
  'Moura',
  'Cavalcanti',
  'Monteiro',
  'Batista',
];
const DEPARTMENTS = [
  'Financeiro',
  'Comercial',
  'Recursos Humanos',
  'Operações',
  'Logística',
  'Tecnologia da Informação',
  'Marketing',
  'Jurídico',
  'Controladoria',
  'Suprimentos',
];
const TITLES = ['Analista', 'Analista Sênior', 'Coordenador(a)', 'Gerente', 'Especialista', 'Assistente', 'Diretor(a)'];
const OFFICES = ['São Paulo', 'Campinas', 'Joinville', 'Recife', 'Belo Horizonte', 'Porto Alegre'];

/** A stable GUID for a demo workspace or report, derived from its name. */
export function demoGuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.');

export type DemoUser = NewUser;

export function demoUsers(count: number, seed = 42): DemoUser[] {
  const rand = random(seed);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const users: DemoUser[] = [];
  const emails = new Set<string>();
  for (let i = 0; users.length < count; i++) {
    const first = pick(FIRST);
    const last = `${pick(LAST)} ${pick(LAST)}`;
    let email = `${slug(first)}.${slug(last.split(' ')[1]!)}@${DEMO_DOMAIN}`;
    if (emails.has(email)) email = `${slug(first)}.${slug(last.split(' ')[1]!)}${i}@${DEMO_DOMAIN}`;
    emails.add(email);
    users.push({
      id: demoGuid(`usuario:${i}:${seed}`),
      email,
      displayName: `${first} ${last}`,
      department: rand() < 0.05 ? null : pick(DEPARTMENTS),
      jobTitle: pick(TITLES),
      officeLocation: pick(OFFICES),
      role: 'User',
    });
  }
  return users;
}

/**
 * The UPN of the `index`th of demoUsers in the directory: most people's is their mail; one in 25 signs in as
 * `…@contoso.onmicrosoft.com`, so their RLS identity (the UPN) and the address RLS roles list (the mail) differ.
 */
export const demoUpn = (email: string, index: number) =>
  index % 25 === 1 ? email.replace(`@${DEMO_DOMAIN}`, `@${TENANT_DOMAIN}`) : email;

/**
 * Which demo groups open which demo panels: by classification, and panel by panel. The sales panels the browser
 * journeys change or count on (Vendas por Região, Sazonalidade, Devoluções, Ranking) are left to direct links, so a
 * link they take away is the person's access taken away.
 */
const GROUPS_OF_CLASSIFICATION: Record<string, string[]> = {
  Financeiro: ['Financeiro', 'Diretoria'],
  'Recursos Humanos': ['Recursos Humanos'],
  Operações: ['Operações'],
};
/** Sales panels opened by 'Comercial', whose people include the demo user (through 'Comercial - Sul'). */
const COMERCIAL_PANELS = ['Metas da Equipe Comercial', 'Carteira de Clientes'];
/** An RLS role that lists a group, beside its e-mails. */
const ROLE_GROUPS: { panel: string; role: string; group: string }[] = [
  { panel: 'Metas da Equipe Comercial', role: 'Vendedor', group: 'Comercial - Norte' },
  { panel: 'Quadro de Colaboradores', role: 'RH Corporativo', group: 'Recursos Humanos' },
];

/** The demo's Entra groups (demo-directory.ts) and their members, in the database before the first sync. */
async function seedDemoGroups(tx: Db): Promise<void> {
  const groups = demoGroups();
  const groupIds = new Set(groups.map((g) => g.id));
  await seedGroups(
    tx,
    groups.map((g) => ({
      id: g.id,
      nome: g.displayName,
      descricao: g.description ?? null,
      tipo: g.groupTypes?.includes('Unified') ? 'microsoft365' : 'seguranca',
    })),
    groups.flatMap((g) =>
      g.members.map((membroId) => ({
        grupoId: g.id,
        membroId,
        membroTipo: groupIds.has(membroId) ? ('grupo' as const) : ('usuario' as const),
      })),
    ),
  );
}

/**
 * The groups that open a demo panel (docs/decisions/018-access-by-group.md): each department's group its
 * classification's panels, 'Diretoria' the financial ones too, 'Comercial' two sales panels the demo user is also
 * linked to directly (so his list is the same either way, and 'Quem tem acesso' shows both reasons), and a group an
 * RLS role of the panel lists (ROLE_GROUPS).
 */
function groupsOpening(panel: DemoPanel): string[] {
  const names = [...(GROUPS_OF_CLASSIFICATION[panel.classificacao ?? ''] ?? [])];
  if (COMERCIAL_PANELS.includes(panel.nome) && panel.linked.includes(DEMO_USER.id)) names.push('Comercial');
  for (const { panel: nome, group } of ROLE_GROUPS) if (nome === panel.nome) names.push(group);
  return [...new Set(names)].map(demoGroupId);
}

/** The groups an RLS role of a demo panel lists (the demo user's own roles do not change). */
const roleGroups = (panel: string, role: string) =>
  ROLE_GROUPS.filter((r) => r.panel === panel && r.role === role).map((r) => demoGroupId(r.group));

/**
 * Loads the demo organisation into an empty database, with its last 90 days, up to `now`, of panel openings and audit
 * records (demo-history.ts). Returns false (and does nothing) otherwise.
 */
/**
 * Subscriptions to show (docs/requirements.md#subscriptions): the demo user's weekly PDF of an RLS panel, and an
 * administrator's monthly PowerPoint for the group 'Comercial' and the demo user.
 */
async function seedDemoSubscriptions(db: Db, panels: readonly DemoPanel[], now: Date): Promise<void> {
  const panelId = (nome: string) => panels.find((panel) => panel.nome === nome)!.id;
  const fields = { pagina: null, visaoId: null, fusoHorario: 'America/Sao_Paulo' };
  const subscriptions: NewSubscription[] = [
    {
      ...fields,
      painelId: panelId('Vendas por Região'),
      usuarioId: DEMO_USER.id,
      formato: 'PDF',
      frequencia: 'semanal',
      hora: '07:00',
      diaSemana: 1,
      diaMes: null,
      destinatarios: null,
      proximoEnvio: now,
    },
    {
      ...fields,
      painelId: panelId('Metas da Equipe Comercial'),
      usuarioId: DEMO_ADMIN.id,
      formato: 'PPTX',
      frequencia: 'mensal',
      hora: '08:00',
      diaSemana: null,
      diaMes: 1,
      destinatarios: { usuarios: [DEMO_USER.id], grupos: [demoGroupId('Comercial')] },
      proximoEnvio: now,
    },
  ];
  for (const subscription of subscriptions) {
    // Seeded, not made by anyone: the demo's audit trail is its own history (demo-history.ts).
    await insertSubscription(db, { ...subscription, proximoEnvio: nextOccurrence(subscription, now) }, null);
  }
}

export async function loadDemoData(db: Db, userCount = 300, now = new Date()): Promise<boolean> {
  const loaded = await db.transaction(async (tx) => {
    // Two instances starting together on one PostgreSQL: the second waits, then finds data.
    await lockDemoLoad(tx);
    if (!(await isEmpty(tx))) return false;
    const rand = random(7);
    const people = demoUsers(userCount);
    await seedUsers(
      tx,
      [DEMO_ADMIN, DEMO_USER].map((u) => ({ ...u, officeLocation: 'São Paulo' })),
      'demo',
    );
    await seedUsers(tx, [...people, DEMO_GUEST], 'demo');
    await seedDemoGroups(tx);

    const workspaceId = DEMO_WORKSPACE_ID;
    const history = { classificacoes: [] as DemoClassificacao[], panels: [] as DemoPanel[] };
    const groups = [
      ...CLASSIFICACOES.map((c) => ({ ...c })),
      { nome: null, descricao: null, ativo: true, paineis: SEM_CLASSIFICACAO },
    ];
    for (const group of groups) {
      let classificacaoId: number | null = null;
      if (group.nome) {
        classificacaoId = (
          await insertClassification(tx, { nome: group.nome, descricao: group.descricao, ativo: group.ativo })
        ).id;
        history.classificacoes.push({
          id: classificacaoId,
          nome: group.nome,
          descricao: group.descricao,
          ativo: group.ativo,
        });
      }
      for (const [i, nome] of group.paineis.entries()) {
        const reportId = demoGuid(`report:${nome}`);
        const usaRls = nome in RLS_ROLES;
        const ordem = i + 1;
        const id = await insertPanel(tx, { nomePainel: nome, workspaceId, reportId, usaRls, classificacaoId, ordem });
        history.panels.push({
          id,
          nome,
          classificacao: group.nome,
          classificacaoAtiva: group.ativo,
          ordem,
          workspaceId,
          reportId,
          usaRls,
          linked: [],
          roles: [],
        });
      }
    }

    for (const panel of history.panels) {
      const linked = people.filter(() => rand() < 0.08).map((u) => u.id);
      // The demo user sees most panels, but not all, so the difference between roles shows.
      if (rand() < 0.7 || panel.nome in RLS_ROLES) linked.push(DEMO_USER.id);
      if (panel.nome === GUEST_PANEL) linked.push(DEMO_GUEST.id);
      panel.linked = linked;
      await replaceLinks(tx, panel.id, linked);
      await replaceGroupLinks(tx, panel.id, groupsOpening(panel));
      const roles = RLS_ROLES[panel.nome];
      if (!roles) continue;
      const linkedEmails = people.filter((u) => linked.includes(u.id)).map((u) => u.email);
      for (const [posicao, roleName] of roles.entries()) {
        const emails = linkedEmails.filter((_, i) => i % roles.length === posicao);
        if (posicao === 0) emails.push(DEMO_USER.email);
        if (panel.nome === GUEST_PANEL && roleName === 'Vendedor') emails.push(DEMO_GUEST.email);
        panel.roles.push({ roleName, emails });
      }
      await replaceRls(
        tx,
        panel.id,
        panel.roles.map((role) => ({
          roleName: role.roleName,
          userEmails: role.emails,
          grupos: roleGroups(panel.nome, role.roleName),
        })),
      );
    }

    await seedDemoSubscriptions(tx, history.panels, now);

    const person = (u: { id: string; email: string }, upn = u.email): DemoPerson => ({ id: u.id, email: u.email, upn });
    const { views, audit } = demoHistory(
      {
        admin: person(DEMO_ADMIN),
        user: person(DEMO_USER),
        guest: person(DEMO_GUEST, DEMO_GUEST_UPN),
        people: people.map((u, i) => person(u, demoUpn(u.email, i))),
        ...history,
      },
      now,
    );
    await seedOpenings(tx, views);
    await seedLastSignIns(tx, await seedAuditHistory(tx, audit));
    return true;
  });
  // The views are in: '/uso' reads the past days again (a snapshot made before the load would not know them).
  if (loaded) forgetUsageSnapshots(db);
  return loaded;
}
