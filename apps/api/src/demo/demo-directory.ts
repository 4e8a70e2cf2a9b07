import type { StandInGroup, StandInPerson, StandInReport } from '@paineis/microsoft-stand-ins/types';
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

/** The demo panels' reports as the stand-in Power BI knows them: RLS datasets where the panel uses RLS. */
export function demoReports(): StandInReport[] {
  return [...CLASSIFICACOES.flatMap((c) => c.paineis), ...SEM_CLASSIFICACAO].map((nome) => ({
    workspaceId: DEMO_WORKSPACE_ID,
    reportId: demoGuid(`report:${nome}`),
    name: nome,
    datasetId: demoGuid(`dataset:${nome}`),
    rls: nome in RLS_ROLES,
  }));
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
      members: [...ids(norte.slice(0, 3)), ...ids(inDepartment('Operações').slice(0, 2)), DEMO_GUEST.id],
    },
  ];
}
