import type {
  StandInDataset,
  StandInGroup,
  StandInPerson,
  StandInRefresh,
  StandInRefreshCycle,
  StandInReport,
  StandInWorkspace,
} from '@paineis/microsoft-stand-ins/types';
import {
  CLASSIFICACOES,
  DEMO_ADMIN,
  DEMO_GUEST,
  DEMO_GUEST_UPN,
  DEMO_USER,
  DEMO_WORKSPACE_ID,
  demoGuid,
  demoUpn,
  demoUsers,
  RLS_ROLES,
  SEM_CLASSIFICACAO,
} from './demo-data.ts';

/**
 * The demo organisation as the stand-in Entra ID and Graph know it: the same ids as the demo data. Most people's
 * UPN is their mail; one in 25 signs in as `…@contoso.onmicrosoft.com` (the second person on the sign-in page among
 * them), so the RLS identity (their UPN) and the address RLS roles list (their mail) differ; and a guest, whose ID
 * token's e-mail is her home tenant's, not the directory's (docs/decisions/013-identity-from-the-directory.md).
 */
export function demoDirectory(): StandInPerson[] {
  const people = demoUsers(300);
  return [
    {
      ...DEMO_ADMIN,
      mail: DEMO_ADMIN.email,
      userPrincipalName: DEMO_ADMIN.email,
      appRoles: ['Admin'],
      showOnSignIn: true,
    },
    { ...DEMO_USER, mail: DEMO_USER.email, userPrincipalName: DEMO_USER.email, showOnSignIn: true },
    ...people.map((p, i) => ({
      id: p.id,
      displayName: p.displayName,
      mail: p.email,
      userPrincipalName: demoUpn(p.email, i),
      department: p.department,
      jobTitle: p.jobTitle,
      officeLocation: p.officeLocation,
      showOnSignIn: i < 4,
    })),
    {
      ...DEMO_GUEST,
      mail: DEMO_GUEST.email,
      userPrincipalName: DEMO_GUEST_UPN,
      userType: 'Guest',
      emailClaim: 'mcosta@fornecedor.com.br',
      showOnSignIn: true,
    },
  ];
}

/** The demo's second Power BI workspace: reports that are not panels yet, for 'Importar do Power BI'. */
export const DEMO_FINANCE_WORKSPACE_ID = demoGuid('workspace:Relatórios Financeiros');

/** The demo's workspaces, as Power BI names them. */
export function demoWorkspaces(): StandInWorkspace[] {
  return [
    { id: DEMO_WORKSPACE_ID, name: 'Painéis Corporativos' },
    { id: DEMO_FINANCE_WORKSPACE_ID, name: 'Relatórios Financeiros' },
  ];
}

/**
 * The panel whose report the BI team deleted in Power BI: the panel stays in the portal, and the health check finds
 * it broken ('Indisponível' for admins; 'Este painel está temporariamente indisponível.' for whoever opens it).
 */
export const DEMO_DELETED_REPORT = 'Painel de Testes da Equipe de BI';

/**
 * Reports in Power BI that are not panels (yet), by workspace: one beside the panels' reports, four in the finance
 * workspace, two of them over one shared dataset ('Modelo Financeiro').
 */
const notYetPanels = (): { workspaceId: string; name: string; dataset: string }[] => [
  { workspaceId: DEMO_WORKSPACE_ID, name: 'Indicadores ESG', dataset: 'Indicadores ESG' },
  { workspaceId: DEMO_FINANCE_WORKSPACE_ID, name: 'Análise de Margem por Produto', dataset: 'Modelo Financeiro' },
  { workspaceId: DEMO_FINANCE_WORKSPACE_ID, name: 'Projeção de Receita', dataset: 'Modelo Financeiro' },
  { workspaceId: DEMO_FINANCE_WORKSPACE_ID, name: 'Conciliação Bancária Diária', dataset: 'Conciliação Bancária' },
  { workspaceId: DEMO_FINANCE_WORKSPACE_ID, name: 'Despesas Corporativas', dataset: 'Despesas Corporativas' },
];

const panelNames = () => [...CLASSIFICACOES.flatMap((c) => c.paineis), ...SEM_CLASSIFICACAO];

/**
 * The reports the stand-in Power BI holds in the demo: the panels' (RLS datasets where the panel uses RLS), but for
 * DEMO_DELETED_REPORT's, and the reports that are not panels yet.
 */
export function demoReports(): StandInReport[] {
  const panels = panelNames()
    .filter((nome) => nome !== DEMO_DELETED_REPORT)
    .map((nome) => ({
      workspaceId: DEMO_WORKSPACE_ID,
      reportId: demoGuid(`report:${nome}`),
      name: nome,
      datasetId: demoGuid(`dataset:${nome}`),
      rls: nome in RLS_ROLES,
    }));
  const others = notYetPanels().map(({ workspaceId, name, dataset }) => ({
    workspaceId,
    reportId: demoGuid(`report:${name}`),
    name,
    datasetId: demoGuid(`dataset:${dataset}`),
    rls: false,
  }));
  return [...panels, ...others];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long ago each panel's data was last refreshed, in turn: minutes, hours, past a day, days. */
const REFRESHED_AGO = [
  12 * MINUTE,
  2 * HOUR,
  47 * MINUTE,
  5 * HOUR,
  26 * HOUR,
  3 * HOUR + 30 * MINUTE,
  3 * DAY,
  8 * HOUR,
  20 * MINUTE,
  6 * DAY,
];

/** What Power BI wrote for the demo's failed refresh (serviceExceptionJson is its error as JSON text). */
const FAILED_REFRESH_ERROR = JSON.stringify({
  errorCode: 'DM_GWPipeline_Gateway_DataSourceAccessError',
  errorDescription:
    "Não foi possível acessar a fonte de dados 'SQL Financeiro' pelo gateway: as credenciais expiraram. Atualize as credenciais nas configurações do modelo semântico.",
});

/**
 * Two demo panels whose data the stand-in refreshes on a cycle that follows the clock (StandInRefreshCycle, a demo
 * device of the stand-in), so that refreshes, a failure and its recovery are seen within minutes of `npm start`. Both
 * are RLS panels the demo user is linked to, so he sees them and may subscribe to them; the admin's monthly
 * subscription is on the first.
 */
export const DEMO_REFRESH_CYCLES: Record<string, StandInRefreshCycle> = {
  // Every 3 minutes, 20 seconds each, never failing.
  'Metas da Equipe Comercial': { everyMs: 3 * 60_000, durationMs: 20_000 },
  // Every 4 minutes, 30 seconds each, every third failing (a timeout at the source, gone at the next): one failure and
  // its recovery every 12 minutes.
  'Produção Diária': {
    everyMs: 4 * 60_000,
    durationMs: 30_000,
    failEvery: 3,
    failure: JSON.stringify({
      errorCode: 'ModelRefresh_ShortMessage_ProcessingError',
      errorDescription:
        "Erro de fonte de dados: o tempo limite da consulta à fonte 'MES Produção' expirou. Tabela: Apontamentos de Produção.",
    }),
  },
};

/**
 * The demo's datasets as the stand-in Power BI describes them, relative to `now`: every state the portal shows.
 * 'DRE Consolidada' failed its last refresh (40 min ago, after a good one yesterday); 'Orçamento vs Realizado' is
 * refreshing now; 'Custos por Centro de Custo' had its last refresh cancelled; 'Pesquisa de Clima' is an import model
 * with no schedule (not refreshable, refreshed by hand three weeks ago); 'Paradas de Máquina' is DirectQuery and
 * 'Consumo de Energia' a live connection (no refresh: real time); those of DEMO_REFRESH_CYCLES refresh on their cycle,
 * following the clock; the rest refreshed at varied times, from minutes to days ago, twice a day on schedule.
 */
export function demoDatasets(now = Date.now()): StandInDataset[] {
  const at = (ago: number) => new Date(now - ago).toISOString();
  /** A scheduled refresh that ended `ago` ago, after `took`. */
  const completed = (ago: number, took = 4 * MINUTE): StandInRefresh => ({
    status: 'Completed',
    refreshType: 'Scheduled',
    startTime: at(ago + took),
    endTime: at(ago),
  });
  const special: Record<string, Omit<StandInDataset, 'datasetId'>> = {
    'DRE Consolidada': {
      refreshes: [
        {
          status: 'Failed',
          refreshType: 'Scheduled',
          startTime: at(43 * MINUTE),
          endTime: at(40 * MINUTE),
          serviceExceptionJson: FAILED_REFRESH_ERROR,
        },
        completed(DAY),
      ],
    },
    'Orçamento vs Realizado': {
      refreshes: [{ status: 'Unknown', refreshType: 'ViaApi', startTime: at(6 * MINUTE) }, completed(DAY + HOUR)],
    },
    // Cancelled through the enhanced refresh API: the data is as of yesterday's refresh.
    'Custos por Centro de Custo': {
      refreshes: [
        { status: 'Cancelled', refreshType: 'ViaEnhancedApi', startTime: at(25 * MINUTE), endTime: at(22 * MINUTE) },
        completed(DAY),
      ],
    },
    // An import model with no schedule, refreshed by hand weeks ago: Power BI calls it not refreshable, yet its data
    // is old, not real time.
    'Pesquisa de Clima': { isRefreshable: false, refreshes: [{ ...completed(21 * DAY), refreshType: 'OnDemand' }] },
    'Paradas de Máquina': { storageMode: 'DirectQuery', refreshes: [] },
    'Consumo de Energia': { storageMode: 'LiveConnection', refreshes: [] },
  };
  const datasets = new Map<string, StandInDataset>();
  const names = [
    ...panelNames().filter((nome) => nome !== DEMO_DELETED_REPORT),
    ...notYetPanels().map((r) => r.dataset),
  ];
  names.forEach((name, index) => {
    const datasetId = demoGuid(`dataset:${name}`);
    if (datasets.has(datasetId)) return;
    const ago = REFRESHED_AGO[index % REFRESHED_AGO.length]!;
    datasets.set(datasetId, {
      datasetId,
      name,
      refreshes: [completed(ago), completed(ago + 12 * HOUR)],
      ...special[name],
      ...(DEMO_REFRESH_CYCLES[name] ? { refreshCycle: DEMO_REFRESH_CYCLES[name] } : {}),
    });
  });
  return [...datasets.values()];
}

/** The demo's Entra groups, by name: their ids are stable GUIDs derived from it. */
export const demoGroupId = (displayName: string) => demoGuid(`grupo:${displayName}`);

/** The offices of the southern and northern sales teams (the others' salespeople report to 'Comercial' itself). */
const SUL = ['Joinville', 'Porto Alegre'];
const NORTE = ['Recife'];
const LEADERSHIP = ['Coordenador(a)', 'Gerente', 'Diretor(a)'];

/**
 * The demo organisation's groups in Entra ID, as the stand-in Graph serves them: security groups by department,
 * 'Comercial' holding the regional groups 'Comercial - Sul' and 'Comercial - Norte' (and its leaders in the other
 * offices directly), 'Diretoria' (the directors and demo.admin) and a Microsoft 365 group. demo.usuario is a direct
 * member of 'Comercial - Sul' only, so he belongs to 'Comercial' through it. No group holds app roles: the app
 * role assignments stay as they are.
 */
export function demoGroups(): StandInGroup[] {
  const people = demoDirectory().filter((p) => p.id !== DEMO_ADMIN.id && p.id !== DEMO_USER.id);
  const ids = (list: StandInPerson[]) => list.map((p) => p.id);
  const inDepartment = (department: string) => people.filter((p) => p.department === department);
  const sales = inDepartment('Comercial');
  const sul = sales.filter((p) => SUL.includes(p.officeLocation ?? ''));
  const norte = sales.filter((p) => NORTE.includes(p.officeLocation ?? ''));
  const leaders = sales.filter((p) => !sul.includes(p) && !norte.includes(p) && LEADERSHIP.includes(p.jobTitle ?? ''));
  const security = (displayName: string, description: string, members: string[]): StandInGroup => ({
    id: demoGroupId(displayName),
    displayName,
    description,
    securityEnabled: true,
    mailEnabled: false,
    groupTypes: [],
    members,
  });
  return [
    security('Comercial', 'Toda a área comercial: as equipes regionais e a liderança de vendas.', [
      demoGroupId('Comercial - Sul'),
      demoGroupId('Comercial - Norte'),
      ...ids(leaders),
    ]),
    security('Comercial - Sul', 'Equipe comercial de Joinville e Porto Alegre.', [DEMO_USER.id, ...ids(sul)]),
    security('Comercial - Norte', 'Equipe comercial de Recife.', ids(norte)),
    security('Financeiro', 'Finanças, tesouraria e contabilidade.', ids(inDepartment('Financeiro'))),
    security('Diretoria', 'Diretoras e diretores de todas as áreas.', [
      DEMO_ADMIN.id,
      ...ids(people.filter((p) => p.jobTitle === 'Diretor(a)')),
    ]),
    security(
      'Tecnologia',
      'Tecnologia da informação: sistemas, dados e infraestrutura.',
      ids(inDepartment('Tecnologia da Informação')),
    ),
    security(
      'Recursos Humanos',
      'Pessoas e cultura: recrutamento, folha e benefícios.',
      ids(inDepartment('Recursos Humanos')),
    ),
    security('Operações', 'Operações e processos.', ids(inDepartment('Operações'))),
    {
      id: demoGroupId('Projeto Expansão'),
      displayName: 'Projeto Expansão',
      description: 'Grupo do Microsoft 365 do projeto de expansão para novas regiões, com a consultora externa.',
      securityEnabled: false,
      mailEnabled: true,
      groupTypes: ['Unified'],
      mail: 'projeto.expansao@contoso.com.br',
      // Public, as Microsoft 365 groups are made unless told otherwise: anyone may join it, and the screens say so.
      visibility: 'Public',
      members: [...ids(norte.slice(0, 3)), ...ids(inDepartment('Operações').slice(0, 2)), DEMO_GUEST.id],
    },
  ];
}
