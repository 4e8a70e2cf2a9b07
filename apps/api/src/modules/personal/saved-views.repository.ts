import { and, eq, sql } from 'drizzle-orm';
import { MAX_VISOES_POR_PAINEL, SAVED_VIEW_MESSAGES, type VisaoSalva } from '@paineis/contract/personal';
import type { Db } from '../../db/client.ts';
import { PG_UNIQUE_VIOLATION, pgErrorCode } from '../../db/pg-errors.ts';
import { visoesSalvas } from '../../db/schema.ts';
import { byNome } from '../../lib/collation.ts';
import { conflict, notFound } from '../../lib/domain-failure.ts';

/** Saved views (docs/requirements.md#personal): a person's named bookmark states of one panel. */

const columns = {
  id: visoesSalvas.id,
  painelId: visoesSalvas.painelId,
  usuarioId: visoesSalvas.usuarioId,
  nome: visoesSalvas.nome,
  estado: visoesSalvas.estado,
  pagina: visoesSalvas.pagina,
  criadaEm: visoesSalvas.criadaEm,
  atualizadaEm: visoesSalvas.atualizadaEm,
};

type Row = { usuarioId: string; criadaEm: Date; atualizadaEm: Date } & Omit<
  VisaoSalva,
  'propria' | 'criadaEm' | 'atualizadaEm'
>;

const toVisao = ({ usuarioId, ...r }: Row, viewerId: string): VisaoSalva => ({
  ...r,
  propria: usuarioId === viewerId,
  criadaEm: r.criadaEm.toISOString(),
  atualizadaEm: r.atualizadaEm.toISOString(),
});

const notFoundView = () => notFound(SAVED_VIEW_MESSAGES.naoEncontrada);

/** The unique index on (person, panel, lower(nome)) as a 409, whichever request got there first. */
async function guardingName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) throw conflict(SAVED_VIEW_MESSAGES.duplicada);
    throw error;
  }
}

/** This person's views of one panel, by name (pt-BR order: case and accents ignored). */
export async function listOwnSavedViews(db: Db, usuarioId: string, painelId: number): Promise<VisaoSalva[]> {
  const found = await db
    .select(columns)
    .from(visoesSalvas)
    .where(and(eq(visoesSalvas.usuarioId, usuarioId), eq(visoesSalvas.painelId, painelId)));
  return found.sort((a, b) => byNome(a, b) || a.id.localeCompare(b.id)).map((r) => toVisao(r, usuarioId));
}

/** Any view of this panel, by id, for whoever may open the panel (a shared link); 404 for a view of another panel. */
export async function findSavedView(db: Db, id: string, painelId: number, viewerId: string): Promise<VisaoSalva> {
  const [row] = await db
    .select(columns)
    .from(visoesSalvas)
    .where(and(eq(visoesSalvas.id, id), eq(visoesSalvas.painelId, painelId)));
  if (!row) throw notFoundView();
  return toVisao(row, viewerId);
}

export interface NewSavedView {
  nome: string;
  estado: string;
  pagina?: string | null | undefined;
}

/**
 * Saves a view, refused past MAX_VISOES_POR_PAINEL of this person on this panel. The count and the insert hold a
 * lock of this person and panel until the transaction ends, so two saves at once cannot both pass the limit.
 */
export async function createSavedView(
  db: Db,
  usuarioId: string,
  painelId: number,
  view: NewSavedView,
): Promise<VisaoSalva> {
  const row = await guardingName(() =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`visoes/${usuarioId}/${painelId}`}, 0))`);
      const [counted] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(visoesSalvas)
        .where(and(eq(visoesSalvas.usuarioId, usuarioId), eq(visoesSalvas.painelId, painelId)));
      if ((counted?.n ?? 0) >= MAX_VISOES_POR_PAINEL) throw conflict(SAVED_VIEW_MESSAGES.limite);
      const [created] = await tx
        .insert(visoesSalvas)
        .values({ usuarioId, painelId, nome: view.nome, estado: view.estado, pagina: view.pagina ?? null })
        .returning(columns);
      return created!;
    }),
  );
  return toVisao(row, usuarioId);
}

/** Renames one of this person's views; 404 for anyone else's (as if it did not exist). */
export async function renameSavedView(
  db: Db,
  id: string,
  usuarioId: string,
  painelId: number,
  nome: string,
): Promise<VisaoSalva> {
  const [row] = await guardingName(() =>
    db
      .update(visoesSalvas)
      .set({ nome, atualizadaEm: sql`now()` })
      .where(and(eq(visoesSalvas.id, id), eq(visoesSalvas.usuarioId, usuarioId), eq(visoesSalvas.painelId, painelId)))
      .returning(columns),
  );
  if (!row) throw notFoundView();
  return toVisao(row, usuarioId);
}

/** Deletes one of this person's views; 404 for anyone else's. */
export async function deleteSavedView(db: Db, id: string, usuarioId: string, painelId: number): Promise<void> {
  const deleted = await db
    .delete(visoesSalvas)
    .where(and(eq(visoesSalvas.id, id), eq(visoesSalvas.usuarioId, usuarioId), eq(visoesSalvas.painelId, painelId)))
    .returning({ id: visoesSalvas.id });
  if (deleted.length === 0) throw notFoundView();
}
