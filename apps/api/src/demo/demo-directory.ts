import type { StandInPerson, StandInReport } from '@paineis/microsoft-stand-ins/types';
import {
  CLASSIFICACOES,
  DEMO_ADMIN,
  DEMO_USER,
  DEMO_WORKSPACE_ID,
  demoGuid,
  demoUsers,
  RLS_ROLES,
  SEM_CLASSIFICACAO,
} from './demo-data.ts';

/** The demo organisation as the stand-in Entra ID and Graph know it: the same ids as the demo data. */
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
      userPrincipalName: p.email,
      department: p.department,
      jobTitle: p.jobTitle,
      officeLocation: p.officeLocation,
      showOnSignIn: i < 4,
    })),
  ];
}

export const DEMO_PASSWORD = 'demo';
export const DEMO_ACCOUNTS = [
  { username: 'demo.admin', user: DEMO_ADMIN },
  { username: 'demo.usuario', user: DEMO_USER },
] as const;

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
