import { sql } from 'drizzle-orm';
import { rows, type Db } from '../src/db/client.ts';

/** Per table (`schema.table`): its row count and an md5 of its rows, sorted; per sequence: its last value. */
export type Fingerprint = Record<string, string>;

/**
 * Everything stored in the database, as one comparable value: every table of every non-system schema (found
 * afresh each time, so a new table is included without anyone listing it) with its row count and a hash of a
 * stable dump of its rows, and every sequence's position. Two equal fingerprints mean no request changed a row.
 */
export async function fingerprint(db: Db): Promise<Fingerprint> {
  const tables = await rows<{ schema: string; name: string }>(
    db,
    sql`select table_schema as schema, table_name as name from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
        order by 1, 2`,
  );
  if (tables.length === 0) throw new Error('no tables to fingerprint');
  const perTable = sql.join(
    tables.map(
      ({ schema, name }) => sql`
        select ${`${schema}.${name}`}::text as name,
               count(*)::text || ' rows, md5 ' || md5(coalesce(string_agg(r::text, E'\n' order by r::text), '')) as value
        from ${sql.identifier(schema)}.${sql.identifier(name)} r`,
    ),
    sql` union all `,
  );
  const found = await rows<{ name: string; value: string }>(
    db,
    sql`${perTable}
        union all
        select 'sequence ' || schemaname || '.' || sequencename, coalesce(last_value::text, 'unused')
        from pg_sequences`,
  );
  return Object.fromEntries(found.map((r) => [r.name, r.value]));
}

/** The entries that differ, for a readable failure. */
export function fingerprintDiff(before: Fingerprint, after: Fingerprint): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return names
    .filter((n) => before[n] !== after[n])
    .map((n) => `${n}: ${before[n] ?? 'absent'} → ${after[n] ?? 'absent'}`);
}
