import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';

/** A migrated database of this test file's own, on the project's engine. */
export async function openTestDatabase(): Promise<Database> {
  if (inject('database') === 'postgres') {
    const url = inject('postgresUrl');
    const name = `paineis_t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const database = await openDatabase({ kind: 'postgres', url: target.toString(), poolSize: 4 });
    return {
      ...database,
      close: async () => {
        await database.close();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const snapshot = new Blob([readFileSync(inject('pgliteSnapshot'))]);
  return openDatabase({ kind: 'pglite', loadDataDir: snapshot });
}

/** Empties every table between tests; ids start again from 1. */
export async function resetDatabase(database: Database) {
  await database.db.execute(sql`
    truncate classificacoes, paineis, usuarios, painel_usuarios, painel_rls_roles,
             painel_rls_role_emails, tokens_revogados, contas_locais, tentativas_login,
             visualizacoes, exportacoes_dados, auditoria, ultimos_logins, favoritos, visoes_salvas, exportacoes,
             grupos, grupo_membros, painel_grupos, estado_sincronizacao,
             painel_datasets, datasets_atualizacao, datasets_agendamento, painel_saude, tarefas, instalacao,
             caixas_envio, vagas_envio, uso_caixa_envio, capacidade, capacidade_historico,
             alertas, alerta_usuarios, alerta_grupos, alerta_incidentes
             restart identity cascade`);
}
