import type { StandInPerson } from '@paineis/microsoft-stand-ins/types';
import { DEMO_ADMIN, DEMO_USER, demoUsers } from './demo-data.ts';

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
