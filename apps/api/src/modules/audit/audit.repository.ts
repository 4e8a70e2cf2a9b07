import { and, desc, eq, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  TAMANHO_PAGINA_AUDITORIA,
  type AcaoAuditoria,
  type Mudanca,
  type ObjetoAuditoria,
  type PaginaAuditoria,
} from '@paineis/contract/audit';
import type { Db } from '../../db/client.ts';
import { auditoria } from '../../db/schema.ts';

export interface AuditRow {
  usuarioId: string | null;
  usuario: string | null;
  endereco: string | null;
  objeto: ObjetoAuditoria;
  objetoId: string | null;
  objetoNome: string | null;
  acao: AcaoAuditoria;
  mudancas: Mudanca[];
}

export async function insertAudit(db: Db, row: AuditRow): Promise<void> {
  await db.insert(auditoria).values(row);
}

/**
 * Records of the past, in one statement whose one parameter is the rows as JSON (as the views are written), in the
 * order given: their ids follow that order, and the pages are read by id.
 */
export async function insertPastAudit(db: Db, records: (AuditRow & { momento: Date })[]): Promise<void> {
  if (records.length === 0) return;
  await db.execute(sql`
    insert into auditoria (momento, usuario_id, usuario, endereco, objeto, objeto_id, objeto_nome, acao, mudancas)
    select momento, usuario_id, usuario, endereco, objeto, objeto_id, objeto_nome, acao, mudancas
    from json_to_recordset(${JSON.stringify(
      records.map((r, n) => ({
        n,
        momento: r.momento.toISOString(),
        usuario_id: r.usuarioId,
        usuario: r.usuario,
        endereco: r.endereco,
        objeto: r.objeto,
        objeto_id: r.objetoId,
        objeto_nome: r.objetoNome,
        acao: r.acao,
        mudancas: r.mudancas,
      })),
    )}::json) as r(n int, momento timestamptz, usuario_id text, usuario text, endereco text, objeto text,
                   objeto_id text, objeto_nome text, acao text, mudancas jsonb)
    order by n`);
}

export interface AuditFilter {
  usuario?: string | undefined;
  objeto?: ObjetoAuditoria | undefined;
  acao?: AcaoAuditoria | undefined;
  antesDe?: number | undefined;
}

/** LIKE's own characters, taken literally. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Newest first, a page at a time (keyset on id: a new record never shifts the pages already read). */
export async function auditPage(db: Db, filter: AuditFilter): Promise<PaginaAuditoria> {
  const where: SQL[] = [];
  if (filter.usuario) {
    const like = `%${literal(filter.usuario)}%`;
    where.push(or(eq(auditoria.usuarioId, filter.usuario), ilike(auditoria.usuario, like))!);
  }
  if (filter.objeto) where.push(eq(auditoria.objeto, filter.objeto));
  if (filter.acao) where.push(eq(auditoria.acao, filter.acao));
  if (filter.antesDe !== undefined) where.push(lt(auditoria.id, filter.antesDe));
  const found = await db
    .select()
    .from(auditoria)
    .where(and(...where))
    .orderBy(desc(auditoria.id))
    .limit(TAMANHO_PAGINA_AUDITORIA + 1);
  const page = found.slice(0, TAMANHO_PAGINA_AUDITORIA);
  return {
    registros: page.map((r) => ({
      id: r.id,
      momento: r.momento.toISOString(),
      usuarioId: r.usuarioId,
      usuario: r.usuario,
      endereco: r.endereco,
      objeto: r.objeto as ObjetoAuditoria,
      objetoId: r.objetoId,
      objetoNome: r.objetoNome,
      acao: r.acao as AcaoAuditoria,
      mudancas: r.mudancas as Mudanca[],
    })),
    proxima: found.length > TAMANHO_PAGINA_AUDITORIA ? page.at(-1)!.id : null,
  };
}

/** Records older than the retention period go (the background job). */
export async function purgeAuditBefore(db: Db, before: Date): Promise<void> {
  await db.delete(auditoria).where(sql`${auditoria.momento} < ${before.toISOString()}`);
}
