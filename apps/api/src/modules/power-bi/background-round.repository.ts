import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.ts';

/** The background rounds over Power BI, one row each in rodadas_powerbi (migration 0011). */
export type RoundName = 'atualizacoes' | 'saude';

/**
 * Claims a round for this instance: only while no instance holds it (its lease has passed) and, for a timed round,
 * when none started within `spacingSeconds` (0: on demand, whenever none runs). One UPDATE, so two instances asking
 * together cannot both get it, on PostgreSQL and PGlite alike. The lease outlives a crashed holder by `leaseSeconds`.
 */
export async function claimRound(db: Db, name: RoundName, spacingSeconds: number, leaseSeconds: number) {
  const claimed = await rows<{ nome: string }>(
    db,
    sql`update rodadas_powerbi
           set ocupada_ate = now() + make_interval(secs => ${leaseSeconds}), iniciada_em = now()
         where nome = ${name}
           and ocupada_ate < now()
           and (iniciada_em is null or iniciada_em <= now() - make_interval(secs => ${spacingSeconds}))
     returning nome`,
  );
  return claimed.length > 0;
}

/** Lets the next round start, on any instance. */
export async function releaseRound(db: Db, name: RoundName): Promise<void> {
  await db.execute(sql`update rodadas_powerbi set ocupada_ate = '-infinity' where nome = ${name}`);
}
