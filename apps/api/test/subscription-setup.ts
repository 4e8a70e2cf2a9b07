import { portalEnvironment } from '@paineis/microsoft-stand-ins/stand-ins';
import type { StandInPerson, StandIns } from '@paineis/microsoft-stand-ins/types';
import type { Db } from '../src/db/client.ts';
import { seedUsers } from '../src/modules/users/users.service.ts';

/** What the subscription durability test and bench share: their seeding and their servers' environment. */

/**
 * Stores the stand-in directory's people as portal users, as the directory sync would (members, role 'User'), so that
 * a server started on this database keeps them at its own sync.
 */
export async function seedDirectoryPeople(db: Db, people: StandInPerson[], origin: 'test' | 'bench'): Promise<void> {
  await seedUsers(
    db,
    people.map((p) => ({
      id: p.id,
      email: p.mail!,
      displayName: p.displayName,
      department: null,
      jobTitle: null,
      officeLocation: null,
      role: 'User' as const,
      upn: p.userPrincipalName,
      tipo: 'Member' as const,
    })),
    origin,
  );
}

/**
 * The environment of a server that delivers subscriptions through `smtpUrl`, or through Graph's sendMail from the
 * mailbox `mailSender`, to the stand-ins: no demo, no background syncs, its queue polled every 0.2 s. Each caller adds
 * its own instance's port, sender and limits.
 */
export const deliveryServerEnv = (options: {
  databaseUrl: string;
  jwtSecret: string;
  standIns: StandIns;
  smtpUrl?: string;
  mailSender?: string;
}): Record<string, string> => ({
  DATABASE_URL: options.databaseUrl,
  JWT_SECRET: options.jwtSecret,
  DEMO_MODE: 'false',
  GRAPH_SYNC_INTERVAL_MINUTES: '0',
  POWER_BI_REFRESH_INTERVAL_MINUTES: '0',
  POWER_BI_HEALTH_INTERVAL_MINUTES: '0',
  LOG_LEVEL: 'warn',
  PUBLIC_URL: 'https://paineis.empresa.com.br',
  ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {}),
  ...(options.mailSender ? { MAIL_SENDER: options.mailSender } : {}),
  SUBSCRIPTION_POLL_SECONDS: '0.2',
  ...portalEnvironment(options.standIns),
});
