import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client.ts';
import type { TaskClaims } from './task-runner.ts';

/**
 * The claims of the cluster tasks, one row each in `tarefas` (migration 0013), written at a task's first claim. Each
 * step is one statement, so two instances asking together cannot both get a task, on PostgreSQL and PGlite alike; the
 * database's clock decides every lease, so the instances' clocks need not agree.
 */
export class DatabaseTaskClaims implements TaskClaims {
  constructor(private readonly db: Db) {}

  async claim(name: string, holder: string, options: { leaseMs: number; spacingMs: number | null; full: boolean }) {
    const lease = options.leaseMs / 1000;
    const spacing = options.spacingMs === null ? null : options.spacingMs / 1000;
    const claimed = await rows<{ nome: string }>(
      this.db,
      sql`insert into tarefas as t (nome, ocupada_ate, ocupada_por, iniciada_em)
          values (${name}, now() + make_interval(secs => ${lease}::double precision), ${holder},
                  case when ${options.full}::boolean then now() end)
          on conflict (nome) do update
             set ocupada_ate = excluded.ocupada_ate, ocupada_por = excluded.ocupada_por,
                 iniciada_em = coalesce(excluded.iniciada_em, t.iniciada_em)
           where t.ocupada_ate < now()
             and (${spacing}::double precision is null or t.iniciada_em is null
                  or t.iniciada_em <= now() - make_interval(secs => ${spacing}::double precision))
          returning nome`,
    );
    return claimed.length > 0;
  }

  async renew(name: string, holder: string, leaseMs: number) {
    const renewed = await rows<{ nome: string }>(
      this.db,
      sql`update tarefas set ocupada_ate = now() + make_interval(secs => ${leaseMs / 1000}::double precision)
           where nome = ${name} and ocupada_por = ${holder}
          returning nome`,
    );
    return renewed.length > 0;
  }

  async release(name: string, holder: string) {
    await this.db.execute(
      sql`update tarefas set ocupada_ate = '-infinity', ocupada_por = null, terminada_em = now()
           where nome = ${name} and ocupada_por = ${holder}`,
    );
  }
}
