import type { StandInPerson, StandInReport } from '@paineis/microsoft-stand-ins/types';
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
