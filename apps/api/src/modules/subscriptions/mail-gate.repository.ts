import { and, asc, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { GraphMailLimits } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { caixasEnvio, usoCaixaEnvio, vagasEnvio } from '../../db/schema.ts';

/**
 * Outlook's limits on one mailbox's sendMail, kept by every instance together (mail-gate.ts): a place among the
 * requests in flight, the requests and bytes of the last windows, and a pause every instance honours after a 429.
 * One transaction per place taken, serialised on the mailbox's row. Times are the caller's `now`, as in the queue.
 */

/** A place taken: release it when the request ends. */
export interface MailPlace {
  caixa: string;
  vaga: number;
  /** The request's row in the windows, counted from the moment the place is taken until the request ends. */
  usoId: number;
}

/** A place now, or how long to wait before asking again (null: until a place is released). */
export type PlaceAnswer = { place: MailPlace } | { waitMs: number | null };

const later = (a: Date, ms: number) => new Date(a.getTime() + ms);

export async function takeMailPlace(
  db: Db,
  input: { caixa: string; instance: string; bytes: number; limits: GraphMailLimits; leaseMs: number; now: Date },
): Promise<PlaceAnswer> {
  const { caixa, instance, bytes, limits, leaseMs, now } = input;
  return db.transaction(async (tx) => {
    await tx.insert(caixasEnvio).values({ caixa }).onConflictDoNothing();
    const [mailbox] = await tx
      .select({ pausadaAte: caixasEnvio.pausadaAte })
      .from(caixasEnvio)
      .where(eq(caixasEnvio.caixa, caixa))
      .for('update');
    if (mailbox?.pausadaAte && mailbox.pausadaAte > now) {
      return { waitMs: mailbox.pausadaAte.getTime() - now.getTime() };
    }

    const uploadMs = limits.uploadWindowSeconds * 1000;
    const requestsMs = limits.requestsWindowSeconds * 1000;
    const longest = Math.max(uploadMs, requestsMs);
    await tx
      .delete(usoCaixaEnvio)
      .where(and(eq(usoCaixaEnvio.caixa, caixa), lte(usoCaixaEnvio.em, later(now, -longest))));
    const [windows] = await tx
      .select({
        bytes: sql<number>`coalesce(sum(${usoCaixaEnvio.bytes}) filter (where ${usoCaixaEnvio.em} > ${later(now, -uploadMs)}), 0)::bigint`,
        firstUpload: sql<Date | null>`min(${usoCaixaEnvio.em}) filter (where ${usoCaixaEnvio.em} > ${later(now, -uploadMs)})`,
        requests: sql<number>`(count(*) filter (where ${usoCaixaEnvio.em} > ${later(now, -requestsMs)}))::int`,
        firstRequest: sql<Date | null>`min(${usoCaixaEnvio.em}) filter (where ${usoCaixaEnvio.em} > ${later(now, -requestsMs)})`,
      })
      .from(usoCaixaEnvio)
      .where(eq(usoCaixaEnvio.caixa, caixa));
    const uploaded = Number(windows?.bytes ?? 0);
    const until = (first: Date | string | null | undefined, windowMs: number) =>
      // The oldest request leaves the window then; the next look may find room (or wait for the next one).
      Math.max(1, new Date(first ?? now).getTime() + windowMs - now.getTime());
    // A single request larger than the whole budget goes on its own, into an empty window.
    if (uploaded > 0 && uploaded + bytes > limits.uploadBytes) return { waitMs: until(windows?.firstUpload, uploadMs) };
    if ((windows?.requests ?? 0) >= limits.requests) return { waitMs: until(windows?.firstRequest, requestsMs) };

    // The mailbox's places, made on first use (and when the configured concurrency grows).
    await tx.execute(
      sql`insert into vagas_envio (caixa, vaga) select ${caixa}, n from generate_series(0, ${limits.concurrency - 1}) as n
          on conflict do nothing`,
    );
    const [free] = await tx
      .select({ vaga: vagasEnvio.vaga })
      .from(vagasEnvio)
      .where(
        and(
          eq(vagasEnvio.caixa, caixa),
          lt(vagasEnvio.vaga, limits.concurrency),
          or(isNull(vagasEnvio.ocupadaAte), lte(vagasEnvio.ocupadaAte, now)),
        ),
      )
      .orderBy(asc(vagasEnvio.vaga))
      .limit(1);
    if (!free) return { waitMs: null };
    await tx
      .update(vagasEnvio)
      .set({ ocupadaPor: instance, ocupadaAte: later(now, leaseMs) })
      .where(and(eq(vagasEnvio.caixa, caixa), eq(vagasEnvio.vaga, free.vaga)));
    const [uso] = await tx.insert(usoCaixaEnvio).values({ caixa, em: now, bytes }).returning({ id: usoCaixaEnvio.id });
    return { place: { caixa, vaga: free.vaga, usoId: uso!.id } };
  });
}

/**
 * The request ended: its place is free again. Graph took it (`taken`): it counts from `now`, when Graph had all of it,
 * so that it leaves the windows no sooner than Graph's own count lets it go. Graph refused it unread (429, 413): it
 * does not count.
 */
export async function releaseMailPlace(
  db: Db,
  place: MailPlace,
  instance: string,
  outcome: { taken: boolean; now: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(vagasEnvio)
      .set({ ocupadaPor: null, ocupadaAte: null })
      .where(
        and(eq(vagasEnvio.caixa, place.caixa), eq(vagasEnvio.vaga, place.vaga), eq(vagasEnvio.ocupadaPor, instance)),
      );
    if (outcome.taken) await tx.update(usoCaixaEnvio).set({ em: outcome.now }).where(eq(usoCaixaEnvio.id, place.usoId));
    else await tx.delete(usoCaixaEnvio).where(eq(usoCaixaEnvio.id, place.usoId));
  });
}

/** Graph asked to wait (429): no instance sends as this mailbox before `until`. */
export async function pauseMailbox(db: Db, caixa: string, until: Date): Promise<void> {
  await db
    .insert(caixasEnvio)
    .values({ caixa, pausadaAte: until })
    .onConflictDoUpdate({
      target: caixasEnvio.caixa,
      // The longer of two pauses stands (greatest ignores a null).
      set: { pausadaAte: sql`greatest(${caixasEnvio.pausadaAte}, excluded.pausada_ate)` },
    });
}
