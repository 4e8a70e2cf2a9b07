import type { FastifyBaseLogger } from 'fastify';
import type { SyncResult } from '@paineis/contract/users';
import type { Database } from '../../db/client.ts';
import { type GraphClient, type GraphUser } from '../../integrations/microsoft-graph/graph-client.ts';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import { syncGroups } from './group-sync.ts';
import { markConfiguredAdmins, replaceDirectory, type DirectoryPerson } from './users.repository.ts';

/**
 * A Graph user as the portal stores them (docs/decisions/013-identity-from-the-directory.md): the e-mail is Graph's
 * mail, else the UPN, lower-cased; the UPN is kept as Graph spells it; a userType other than Member or Guest is
 * none. Null for a user without id or any address.
 */
export function toDirectoryPerson(user: GraphUser): DirectoryPerson | null {
  const upn = user.userPrincipalName?.trim() || null;
  const email = (user.mail?.trim() || upn)?.toLowerCase();
  if (!user.id || !email) return null;
  return {
    id: user.id,
    email,
    upn,
    tipo: user.userType === 'Member' || user.userType === 'Guest' ? user.userType : null,
    displayName: user.displayName?.trim() || email,
    department: user.department?.trim() || null,
    jobTitle: user.jobTitle?.trim() || null,
    officeLocation: user.officeLocation?.trim() || null,
  };
}

/**
 * Copies the enabled users of Microsoft Graph into the users table. Everything is read before anything is
 * written, so a failure half-way leaves the previous data as it was; people who left are marked inactive,
 * never deleted, so their links come back if they do. Run as the background task 'diretorio'
 * (plugins/background-tasks.ts), which runs it on one instance at a time.
 */
export class DirectorySync {
  constructor(
    private readonly database: Database,
    private readonly graph: GraphClient,
    private readonly log: FastifyBaseLogger,
    private readonly admins: {
      /** The portal's application (client) id in Entra, whose app role `Admin` makes administrators. */
      appId: string;
      /** ADMIN_USERS: administrators by configuration, also when they first arrive through the sync. */
      users: string[];
    },
  ) {}

  /**
   * Who holds the Entra app role `Admin`, or null when Graph would not say: the people are still synced,
   * and roles stay as they are until a sync can read them (a missing Graph permission must not demote anyone).
   */
  private async adminHolders(): Promise<Set<string> | null> {
    try {
      return await this.graph.appRoleHolders(this.admins.appId, 'Admin');
    } catch (error) {
      const failed = error instanceof MicrosoftError ? error : null;
      this.log.error(
        { err: error, graphStatus: failed?.status, graphCode: failed?.code, graphRequestId: failed?.requestId },
        'não foi possível ler quem tem o papel de aplicativo Admin no Graph; papéis mantidos. ' +
          'O aplicativo precisa das permissões Application.Read.All e GroupMember.Read.All.',
      );
      return null;
    }
  }

  async sync(): Promise<SyncResult> {
    const started = Date.now();
    let users: GraphUser[];
    try {
      users = await this.graph.listActiveUsers();
    } catch (error) {
      const failed = error instanceof MicrosoftError ? error : new MicrosoftError('graph', 'malformed', String(error));
      this.log.error(
        { err: failed, graphStatus: failed.status, graphRequestId: failed.requestId },
        'sincronização do diretório falhou; dados anteriores mantidos',
      );
      throw failed;
    }
    const rows = new Map<string, DirectoryPerson>();
    for (const user of users) {
      const row = user.accountEnabled === false ? null : toDirectoryPerson(user);
      if (row) rows.set(row.id, row);
    }
    const list = [...rows.values()];
    const changes = await replaceDirectory(this.database, list, await this.adminHolders());
    await markConfiguredAdmins(this.database.db, this.admins.users);
    const groups = await syncGroups(this.database, this.graph, this.log);
    const result = {
      ativos: list.length,
      desativados: changes.desativados,
      grupos: groups,
      duracaoMs: Date.now() - started,
    };
    this.log.info({ ...result, administradores: changes.admins }, 'diretório sincronizado com o Microsoft Graph');
    return result;
  }
}
