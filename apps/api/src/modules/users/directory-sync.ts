import type { FastifyBaseLogger } from 'fastify';
import type { SyncResult } from '@paineis/contract/users';
import type { Database } from '../../db/client.ts';
import { type GraphClient, type GraphUser } from '../../integrations/microsoft-graph/graph-client.ts';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import { replaceDirectory, type DirectoryPerson } from './users.repository.ts';

function toRow(user: GraphUser): DirectoryPerson | null {
  const email = (user.mail ?? user.userPrincipalName)?.trim().toLowerCase();
  if (!user.id || !email) return null;
  return {
    id: user.id,
    email,
    displayName: user.displayName?.trim() || email,
    department: user.department?.trim() || null,
  };
}

/**
 * Copies the enabled users of Microsoft Graph into the users table. Everything is read before anything is
 * written, so a failure half-way leaves the previous data as it was; people who left are marked inactive,
 * never deleted, so their links come back if they do.
 */
export class DirectorySync {
  private running: Promise<SyncResult> | null = null;

  constructor(
    private readonly database: Database,
    private readonly graph: GraphClient,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Runs a sync, or joins the one under way. */
  run(): Promise<SyncResult> {
    this.running ??= this.sync().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Waits for a sync under way (on shutdown). */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async sync(): Promise<SyncResult> {
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
      const row = user.accountEnabled === false ? null : toRow(user);
      if (row) rows.set(row.id, row);
    }
    const list = [...rows.values()];
    const desativados = await replaceDirectory(this.database, list);
    const result = { ativos: list.length, desativados, duracaoMs: Date.now() - started };
    this.log.info(result, 'diretório sincronizado com o Microsoft Graph');
    return result;
  }
}
