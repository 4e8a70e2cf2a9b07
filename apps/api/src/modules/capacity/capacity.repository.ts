import { desc, eq, gt, lte, sql } from 'drizzle-orm';
import type { EstadoCapacidade, MotivoCapacidade, PoliticaCapacidade } from '@paineis/contract/capacity';
import type { Db } from '../../db/client.ts';
import { capacidade, capacidadeHistorico } from '../../db/schema.ts';
import { recordAudit, type AuditActor, type AuditChange } from '../audit/audit.ts';

/** The capacity's one row (id 1) and its history: every statement of the capacity module. */

const ROW = 1;

export interface CapacityRow {
  /** As stored: the service reads it through the contract's schema. */
  politica: unknown;
  estado: string | null;
  sku: string | null;
  skuBase: string | null;
  lidoEm: Date | null;
  mensagem: string | null;
  ultimaAtividade: Date | null;
}

export interface CapacityChange {
  em: Date;
  estado: EstadoCapacidade;
  sku: string | null;
  motivo: MotivoCapacidade;
  pessoa: string | null;
  detalhe: string | null;
}
export type StoredChange = CapacityChange & { id: number };

/** Who changed it and how, for the audit trail, written in the same transaction as the change. */
export interface AuditedBy {
  actor: AuditActor;
  change: AuditChange;
}

export async function capacityRow(db: Db): Promise<CapacityRow | null> {
  const [row] = await db
    .select({
      politica: capacidade.politica,
      estado: capacidade.estado,
      sku: capacidade.sku,
      skuBase: capacidade.skuBase,
      lidoEm: capacidade.lidoEm,
      mensagem: capacidade.mensagem,
      ultimaAtividade: capacidade.ultimaAtividade,
    })
    .from(capacidade)
    .where(eq(capacidade.id, ROW));
  return row ?? null;
}

const upsert = (db: Db, set: Partial<typeof capacidade.$inferInsert>) =>
  db
    .insert(capacidade)
    .values({ id: ROW, ...set })
    .onConflictDoUpdate({ target: capacidade.id, set });

export async function savePolicy(db: Db, politica: PoliticaCapacidade, audited: AuditedBy): Promise<void> {
  await db.transaction(async (tx) => {
    await upsert(tx, { politica });
    await recordAudit(tx, audited.actor, audited.change);
  });
}

/** The state last read from Azure, and Azure's reason when it could not be read. */
export async function saveReading(
  db: Db,
  reading: { estado: EstadoCapacidade; sku: string | null; lidoEm: Date; mensagem: string | null },
): Promise<void> {
  await upsert(db, reading);
}

export async function saveSkuBase(db: Db, skuBase: string | null): Promise<void> {
  await upsert(db, { skuBase });
}

/** The last activity that needed the capacity: never moved back by an instance whose clock or news is older. */
export async function touchActivity(db: Db, at: Date): Promise<void> {
  await db
    .insert(capacidade)
    .values({ id: ROW, ultimaAtividade: at })
    .onConflictDoUpdate({
      target: capacidade.id,
      set: { ultimaAtividade: sql`greatest(${capacidade.ultimaAtividade}, excluded.ultima_atividade)` },
    });
}

const changeColumns = {
  id: capacidadeHistorico.id,
  em: capacidadeHistorico.em,
  estado: capacidadeHistorico.estado,
  sku: capacidadeHistorico.sku,
  motivo: capacidadeHistorico.motivo,
  pessoa: capacidadeHistorico.pessoa,
  detalhe: capacidadeHistorico.detalhe,
};
// The columns are text: only the service writes them, with the contract's values.
const typed = (rows: { estado: string; motivo: string }[]) => rows as StoredChange[];

/** A change of state, with its audit record when a person made it. */
export async function recordChange(db: Db, change: CapacityChange, audited?: AuditedBy): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(capacidadeHistorico).values(change);
    if (audited) await recordAudit(tx, audited.actor, audited.change);
  });
}

export async function lastChange(db: Db): Promise<StoredChange | null> {
  const rows = await db.select(changeColumns).from(capacidadeHistorico).orderBy(desc(capacidadeHistorico.id)).limit(1);
  return typed(rows)[0] ?? null;
}

/** Newest first. */
export async function latestChanges(db: Db, limit: number): Promise<StoredChange[]> {
  return typed(
    await db.select(changeColumns).from(capacidadeHistorico).orderBy(desc(capacidadeHistorico.id)).limit(limit),
  );
}

/** The changes after `from`, oldest first, preceded by the last one at or before it (the state `from` began in). */
export async function changesFrom(db: Db, from: Date): Promise<StoredChange[]> {
  const [before, after] = await Promise.all([
    db
      .select(changeColumns)
      .from(capacidadeHistorico)
      .where(lte(capacidadeHistorico.em, from))
      .orderBy(desc(capacidadeHistorico.em), desc(capacidadeHistorico.id))
      .limit(1),
    db
      .select(changeColumns)
      .from(capacidadeHistorico)
      .where(gt(capacidadeHistorico.em, from))
      .orderBy(capacidadeHistorico.em, capacidadeHistorico.id),
  ]);
  return typed([...before, ...after]);
}

/** Changes written as they are, oldest first (the demo's past month). */
export async function seedChanges(db: Db, changes: readonly CapacityChange[]): Promise<void> {
  for (let i = 0; i < changes.length; i += 500) {
    await db.insert(capacidadeHistorico).values(changes.slice(i, i + 500));
  }
}
