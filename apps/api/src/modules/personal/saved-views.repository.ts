import { and, eq, or, sql } from 'drizzle-orm';
import { MAX_VISOES_POR_PAINEL, SAVED_VIEW_MESSAGES, type VisaoSalva } from '@paineis/contract/personal';
import type { Db } from '../../db/client.ts';
import { PG_UNIQUE_VIOLATION, pgErrorCode } from '../../db/pg-errors.ts';
import { usuarios, visoesSalvas } from '../../db/schema.ts';
import { byNome } from '../../lib/collation.ts';
import { conflict, forbidden, notFound } from '../../lib/domain-failure.ts';
import { recordAudit, type AuditActor } from '../audit/audit.ts';

/**
 * Saved views (docs/requirements.md#personal): a person's named bookmark states of one panel, and the panel's own
 * views ('Visão do painel'), saved by administrators for everyone who may open the panel and audited.
 */

const columns = {
  id: visoesSalvas.id,
  painelId: visoesSalvas.painelId,
  usuarioId: visoesSalvas.usuarioId,
  nome: visoesSalvas.nome,
  estado: visoesSalvas.estado,
  pagina: visoesSalvas.pagina,
  doPainel: visoesSalvas.doPainel,
  criadaEm: visoesSalvas.criadaEm,
  atualizadaEm: visoesSalvas.atualizadaEm,
};
// With who saved it (a panel view names its administrator).
const withAuthor = { ...columns, autor: usuarios.displayName };

type Row = { usuarioId: string; autor?: string | null; criadaEm: Date; atualizadaEm: Date } & Omit<
  VisaoSalva,
  'propria' | 'salvaPor' | 'criadaEm' | 'atualizadaEm'
>;

const toVisao = ({ usuarioId, autor, ...r }: Row, viewerId: string): VisaoSalva => ({
  ...r,
  propria: !r.doPainel && usuarioId === viewerId,
  salvaPor: r.doPainel ? (autor ?? null) : null,
  criadaEm: r.criadaEm.toISOString(),
  atualizadaEm: r.atualizadaEm.toISOString(),
});

/** What the audit trail keeps of a panel view: never its state (up to 200,000 characters). */
const forAudit = (r: { nome: string; pagina: string | null; painelId: number }) => ({
  nome: r.nome,
  painel: r.painelId,
  pagina: r.pagina,
});

const notFoundView = () => notFound(SAVED_VIEW_MESSAGES.naoEncontrada);

/**
 * The unique indexes on (person, panel, lower(nome)) among a person's views, and on (panel, lower(nome)) among the
 * panel's views, as a 409, whichever request got there first.
 */
async function guardingName<T>(doPainel: boolean, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (pgErrorCode(error) === PG_UNIQUE_VIOLATION)
      throw conflict(doPainel ? SAVED_VIEW_MESSAGES.duplicadaDoPainel : SAVED_VIEW_MESSAGES.duplicada);
    throw error;
  }
}

/**
 * The panel's views and this person's own views of it: the panel's first, each group by name (pt-BR order: case and
 * accents ignored).
 */
export async function listSavedViews(db: Db, usuarioId: string, painelId: number): Promise<VisaoSalva[]> {
  const found = await db
    .select(withAuthor)
    .from(visoesSalvas)
    .leftJoin(usuarios, eq(usuarios.id, visoesSalvas.usuarioId))
    .where(
      and(
        eq(visoesSalvas.painelId, painelId),
        or(visoesSalvas.doPainel, and(eq(visoesSalvas.usuarioId, usuarioId), sql`not ${visoesSalvas.doPainel}`)),
      ),
    );
  return found
    .sort((a, b) => Number(b.doPainel) - Number(a.doPainel) || byNome(a, b) || a.id.localeCompare(b.id))
    .map((r) => toVisao(r, usuarioId));
}

/** Any view of this panel, by id, for whoever may open the panel (a shared link); 404 for a view of another panel. */
export async function findSavedView(db: Db, id: string, painelId: number, viewerId: string): Promise<VisaoSalva> {
  const [row] = await db
    .select(withAuthor)
    .from(visoesSalvas)
    .leftJoin(usuarios, eq(usuarios.id, visoesSalvas.usuarioId))
    .where(and(eq(visoesSalvas.id, id), eq(visoesSalvas.painelId, painelId)));
  if (!row) throw notFoundView();
  return toVisao(row, viewerId);
}

/** Who asks to change views: a panel view is administrators' only. */
export interface ViewEditor {
  id: string;
  isAdmin: boolean;
  actor: AuditActor;
}

export interface NewSavedView {
  nome: string;
  estado: string;
  pagina?: string | null | undefined;
  doPainel?: boolean | undefined;
}

/**
 * Saves a view, refused past MAX_VISOES_POR_PAINEL of this person on this panel (of the panel's views, for a panel
 * view). The count and the insert hold a lock of this person (or the panel's views) and panel until the transaction
 * ends, so two saves at once cannot both pass the limit. A panel view is an administrator's, and audited.
 */
export async function createSavedView(
  db: Db,
  editor: ViewEditor,
  painelId: number,
  view: NewSavedView,
): Promise<VisaoSalva> {
  const doPainel = view.doPainel ?? false;
  if (doPainel && !editor.isAdmin) throw forbidden(SAVED_VIEW_MESSAGES.doPainelSoAdministradores);
  const usuarioId = editor.id;
  const row = await guardingName(doPainel, () =>
    db.transaction(async (tx) => {
      const scope = doPainel ? 'painel' : usuarioId;
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`visoes/${scope}/${painelId}`}, 0))`);
      const [counted] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(visoesSalvas)
        .where(
          and(
            eq(visoesSalvas.painelId, painelId),
            doPainel
              ? visoesSalvas.doPainel
              : and(eq(visoesSalvas.usuarioId, usuarioId), sql`not ${visoesSalvas.doPainel}`),
          ),
        );
      if ((counted?.n ?? 0) >= MAX_VISOES_POR_PAINEL)
        throw conflict(doPainel ? SAVED_VIEW_MESSAGES.limiteDoPainel : SAVED_VIEW_MESSAGES.limite);
      const [created] = await tx
        .insert(visoesSalvas)
        .values({ usuarioId, painelId, nome: view.nome, estado: view.estado, pagina: view.pagina ?? null, doPainel })
        .returning(columns);
      if (doPainel)
        await recordAudit(tx, editor.actor, {
          objeto: 'visao_painel',
          acao: 'criacao',
          objetoId: created!.id,
          objetoNome: created!.nome,
          depois: forAudit(created!),
        });
      return created!;
    }),
  );
  return doPainel ? findSavedView(db, row.id, painelId, usuarioId) : toVisao(row, usuarioId);
}

/**
 * The view to change: one's own, or a panel view for an administrator (403 for anyone else); 404 for anyone else's
 * own view, as if it did not exist. Locked until the transaction ends.
 */
async function editableView(tx: Db, id: string, editor: ViewEditor, painelId: number) {
  const [row] = await tx
    .select(columns)
    .from(visoesSalvas)
    .where(and(eq(visoesSalvas.id, id), eq(visoesSalvas.painelId, painelId)))
    .for('update');
  if (!row || (!row.doPainel && row.usuarioId !== editor.id)) throw notFoundView();
  if (row.doPainel && !editor.isAdmin) throw forbidden(SAVED_VIEW_MESSAGES.doPainelSoAdministradores);
  return row;
}

/** Renames one's own view, or (an administrator) a panel view, audited. */
export async function renameSavedView(
  db: Db,
  id: string,
  editor: ViewEditor,
  painelId: number,
  nome: string,
): Promise<VisaoSalva> {
  await db.transaction(async (tx) => {
    const antes = await editableView(tx, id, editor, painelId);
    // A clash aborts the transaction, which the 409 rolls back.
    await guardingName(antes.doPainel, () =>
      tx
        .update(visoesSalvas)
        .set({ nome, atualizadaEm: sql`now()` })
        .where(eq(visoesSalvas.id, id)),
    );
    if (antes.doPainel)
      await recordAudit(tx, editor.actor, {
        objeto: 'visao_painel',
        acao: 'alteracao',
        objetoId: id,
        objetoNome: nome,
        antes: forAudit(antes),
        depois: forAudit({ ...antes, nome }),
      });
  });
  return findSavedView(db, id, painelId, editor.id);
}

/** Deletes one's own view, or (an administrator) a panel view, audited. */
export async function deleteSavedView(db: Db, id: string, editor: ViewEditor, painelId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const antes = await editableView(tx, id, editor, painelId);
    await tx.delete(visoesSalvas).where(eq(visoesSalvas.id, id));
    if (antes.doPainel)
      await recordAudit(tx, editor.actor, {
        objeto: 'visao_painel',
        acao: 'exclusao',
        objetoId: id,
        objetoNome: antes.nome,
        antes: forAudit(antes),
      });
  });
}
