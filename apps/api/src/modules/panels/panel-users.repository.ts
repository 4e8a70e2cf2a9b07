import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { UsuarioVinculado } from '@paineis/contract/users';
import type { Db } from '../../db/client.ts';
import { painelUsuarios, usuarios } from '../../db/schema.ts';
import { unknownIds } from '../../lib/domain-failure.ts';
import { auditedPanelChange, requirePanel } from './panel-lookup.repository.ts';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit.ts';

export async function linkedUsers(db: Db, painelId: number): Promise<UsuarioVinculado[]> {
  // nome_ordenacao: pt-BR reading order ('Álvaro' before 'Bruno'), not byte order.
  return db
    .select({ id: usuarios.id, email: usuarios.email, displayName: usuarios.displayName })
    .from(painelUsuarios)
    .innerJoin(usuarios, eq(usuarios.id, painelUsuarios.usuarioId))
    .where(eq(painelUsuarios.painelId, painelId))
    .orderBy(asc(usuarios.nomeOrdenacao), asc(usuarios.id));
}

/** The people linked to an existing panel (404 otherwise). */
export async function panelLinkedUsers(db: Db, painelId: number): Promise<UsuarioVinculado[]> {
  await requirePanel(db, painelId);
  return linkedUsers(db, painelId);
}

/** Replaces an existing panel's whole set of linked users, all or nothing; answers the new set. */
export async function replacePanelLinks(
  db: Db,
  painelId: number,
  userIds: string[],
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<UsuarioVinculado[]> {
  // The audit trail names each person linked or unlinked, by id, with their e-mail.
  const forAudit = async (tx: Db) => ({
    usuarios: Object.fromEntries((await linkedUsers(tx, painelId)).map((u) => [u.id, u.email])),
  });
  await auditedPanelChange(db, painelId, actor, 'vinculos', forAudit, (tx) => replaceLinks(tx, painelId, userIds));
  return linkedUsers(db, painelId);
}

/** Replaces the panel's whole set of linked users; every id must be a known user. Call inside a transaction. */
export async function replaceLinks(db: Db, painelId: number, userIds: string[]): Promise<void> {
  const ids = [...new Set(userIds)];
  if (ids.length > 0) {
    const found = new Set(
      (await db.select({ id: usuarios.id }).from(usuarios).where(inArray(usuarios.id, ids))).map((r) => r.id),
    );
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw unknownIds('Usuários', missing);
  }
  await db.delete(painelUsuarios).where(eq(painelUsuarios.painelId, painelId));
  if (ids.length > 0) {
    await db.execute(sql`
      insert into painel_usuarios (painel_id, usuario_id)
      select ${painelId}, unnest(${sql.param(ids)}::text[])`);
  }
}

/** The ids of the people linked to a panel. */
export async function linkedUserIds(db: Db, painelId: number): Promise<string[]> {
  const found = await db
    .select({ id: painelUsuarios.usuarioId })
    .from(painelUsuarios)
    .where(eq(painelUsuarios.painelId, painelId));
  return found.map((r) => r.id);
}

/** The ids of the panels a person is linked to directly. */
export async function panelsLinkedTo(db: Db, usuarioId: string): Promise<Set<number>> {
  const found = await db
    .select({ id: painelUsuarios.painelId })
    .from(painelUsuarios)
    .where(eq(painelUsuarios.usuarioId, usuarioId));
  return new Set(found.map((r) => r.id));
}
