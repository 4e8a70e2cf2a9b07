import { asc, eq, sql } from 'drizzle-orm';
import type { Classificacao, ClassificacaoAdmin } from '@paineis/contract/classifications';
import type { Db } from '../../db/client.ts';
import { VersionedCache } from '../../db/versioned-cache.ts';
import { PreparedJson } from '../../lib/prepared-json.ts';
import { classificacoes, paineis } from '../../db/schema.ts';
import { PG_UNIQUE_VIOLATION, pgErrorCode } from '../../db/pg-errors.ts';
import { byNome } from '../../lib/collation.ts';
import { conflict } from '../../lib/domain-failure.ts';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit/audit.ts';

const columns = {
  id: classificacoes.id,
  nome: classificacoes.nome,
  descricao: classificacoes.descricao,
  ativo: classificacoes.ativo,
  dataCadastro: classificacoes.dataCadastro,
};

type Row = { id: number; nome: string; descricao: string | null; ativo: boolean; dataCadastro: Date };

const toClassificacao = (r: Row): Classificacao => ({ ...r, dataCadastro: r.dataCadastro.toISOString() });

async function listActive(db: Db): Promise<Classificacao[]> {
  const rows = await db.select(columns).from(classificacoes).where(eq(classificacoes.ativo, true));
  return rows.map(toClassificacao).sort(byNome);
}

async function listWithCounts(db: Db): Promise<ClassificacaoAdmin[]> {
  const rows = await db
    .select({ ...columns, quantidadePaineis: sql<number>`count(${paineis.id})::int` })
    .from(classificacoes)
    .leftJoin(paineis, eq(paineis.classificacaoId, classificacoes.id))
    .groupBy(classificacoes.id)
    .orderBy(asc(classificacoes.id));
  return rows.map((r) => ({ ...toClassificacao(r), quantidadePaineis: r.quantidadePaineis })).sort(byNome);
}

const activeJson = new VersionedCache(['paineis'], async (db) => new PreparedJson(await listActive(db)));
const withCountsJson = new VersionedCache(['paineis'], async (db) => new PreparedJson(await listWithCounts(db)));

/** The same lists as bytes, made once per change of classifications or panels (both are data set 'paineis'). */
export const listActiveJson = (db: Db) => activeJson.get(db);
export const listWithCountsJson = (db: Db) => withCountsJson.get(db);

export async function findClassification(db: Db, id: number): Promise<Classificacao | null> {
  const [row] = await db.select(columns).from(classificacoes).where(eq(classificacoes.id, id));
  return row ? toClassificacao(row) : null;
}

export interface ClassificationInput {
  nome: string;
  descricao?: string | null | undefined;
  ativo?: boolean | undefined;
}

const duplicateName = (nome: string) => conflict(`Já existe uma classificação com o nome '${nome}'.`);

/** Turns the unique index on lower(nome) into a 409, whichever request got there first. */
async function guardingName<T>(nome: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) throw duplicateName(nome);
    throw error;
  }
}

/** What the audit trail keeps of a classification. */
const forAudit = (c: Row) => ({ nome: c.nome, descricao: c.descricao, ativo: c.ativo });

/** A new classification's row, without an audit record: createClassification's part, and the demo's seeding. */
export async function insertClassification(db: Db, input: ClassificationInput): Promise<Row> {
  const [created] = await db
    .insert(classificacoes)
    .values({ nome: input.nome, descricao: input.descricao || null, ativo: input.ativo ?? true })
    .returning(columns);
  return created!;
}

export async function createClassification(
  db: Db,
  input: ClassificationInput,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<Classificacao> {
  const row = await guardingName(input.nome, () =>
    db.transaction(async (tx) => {
      const created = await insertClassification(tx, input);
      await recordAudit(tx, actor, {
        objeto: 'classificacao',
        acao: 'criacao',
        objetoId: created.id,
        objetoNome: created.nome,
        depois: forAudit(created),
      });
      return created;
    }),
  );
  return toClassificacao(row);
}

export async function updateClassification(
  db: Db,
  id: number,
  input: ClassificationInput,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<Classificacao | null> {
  const row = await guardingName(input.nome, () =>
    db.transaction(async (tx) => {
      const [before] = await tx.select(columns).from(classificacoes).where(eq(classificacoes.id, id)).for('update');
      if (!before) return null;
      const [after] = await tx
        .update(classificacoes)
        .set({
          nome: input.nome,
          descricao: input.descricao || null,
          ...(input.ativo === undefined ? {} : { ativo: input.ativo }),
        })
        .where(eq(classificacoes.id, id))
        .returning(columns);
      await recordAudit(tx, actor, {
        objeto: 'classificacao',
        acao: 'alteracao',
        objetoId: id,
        objetoNome: after!.nome,
        antes: forAudit(before),
        depois: forAudit(after!),
      });
      return after!;
    }),
  );
  return row ? toClassificacao(row) : null;
}

/** Its panels stay, with no classification (the foreign key sets them to null). */
export async function deleteClassification(db: Db, id: number, actor: AuditActor = SYSTEM_ACTOR): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [deleted] = await tx.delete(classificacoes).where(eq(classificacoes.id, id)).returning(columns);
    if (!deleted) return false;
    await recordAudit(tx, actor, {
      objeto: 'classificacao',
      acao: 'exclusao',
      objetoId: id,
      objetoNome: deleted.nome,
      antes: forAudit(deleted),
    });
    return true;
  });
}
