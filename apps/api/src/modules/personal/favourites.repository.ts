import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { favoritos } from '../../db/schema.ts';

/** Each person's favourite panels (docs/requirements.md#personal). */

export async function favouritePanelIds(db: Db, usuarioId: string): Promise<Set<number>> {
  const found = await db
    .select({ painelId: favoritos.painelId })
    .from(favoritos)
    .where(eq(favoritos.usuarioId, usuarioId));
  return new Set(found.map((r) => r.painelId));
}

/** Idempotent: a favourite already there stays as it was. */
export async function addFavourite(db: Db, usuarioId: string, painelId: number): Promise<void> {
  await db.insert(favoritos).values({ usuarioId, painelId }).onConflictDoNothing();
}

/** Idempotent: removing one that is not there changes nothing. */
export async function removeFavourite(db: Db, usuarioId: string, painelId: number): Promise<void> {
  await db.delete(favoritos).where(and(eq(favoritos.usuarioId, usuarioId), eq(favoritos.painelId, painelId)));
}
