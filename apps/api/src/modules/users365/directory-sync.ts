import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { SyncResult } from '@paineis/contract/users';
import type { Database } from '../../db/client.ts';
import { type GraphError, type GraphClient, type GraphUser } from '../../integrations/microsoft-graph/graph-client.ts';

interface DirectoryRow {
  id: string;
  email: string;
  displayName: string;
  department: string | null;
}

function toRow(user: GraphUser): DirectoryRow | null {
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
      this.log.error(
        { err: error, graphStatus: (error as GraphError).status, graphRequestId: (error as GraphError).requestId },
        'sincronização do diretório falhou; dados anteriores mantidos',
      );
      throw error;
    }
    const rows = new Map<string, DirectoryRow>();
    for (const user of users) {
      const row = user.accountEnabled === false ? null : toRow(user);
      if (row) rows.set(row.id, row);
    }
    const list = [...rows.values()];
    const ids = list.map((r) => r.id);
    const desativados = await this.database.db.transaction(async (tx) => {
      // Instances of the API on one PostgreSQL take turns.
      if (this.database.kind === 'postgres') await tx.execute(sql`select pg_advisory_xact_lock(7301954)`);
      for (let i = 0; i < list.length; i += 5000) {
        const batch = list.slice(i, i + 5000);
        const col = <K extends keyof DirectoryRow>(k: K) => sql.param(batch.map((r) => r[k]));
        await tx.execute(sql`
          insert into usuarios (id, email, display_name, department, source, active)
          select id, email, display_name, department, 'entra', true
          from unnest(${col('id')}::text[], ${col('email')}::text[], ${col('displayName')}::text[],
                      ${col('department')}::text[]) as t(id, email, display_name, department)
          on conflict (id) do update set
            email = excluded.email, display_name = excluded.display_name, department = excluded.department,
            source = 'entra', active = true, data_atualizacao = now()
          where (usuarios.email, usuarios.display_name, usuarios.department, usuarios.source, usuarios.active)
            is distinct from (excluded.email, excluded.display_name, excluded.department, 'entra', true)`);
      }
      const gone = await tx.execute(sql`
        update usuarios set active = false, data_atualizacao = now()
        where source = 'entra' and active and not (id = any(${sql.param(ids)}::text[]))
        returning id`);
      return (gone as { rows: unknown[] }).rows.length;
    });
    const result = { ativos: list.length, desativados, duracaoMs: Date.now() - started };
    this.log.info(result, 'diretório sincronizado com o Microsoft Graph');
    return result;
  }
}
