import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../src/db/client.ts';

/**
 * A copy of every table's rows, restored table by table: after a request changed the database, only the
 * tables it changed (and those whose rows refer to them) are put back, so each fuzzed request starts from
 * the same world at the cost of a few statements.
 */
export interface WorldCopy {
  /** Tables parents first (a table after every table it refers to). */
  order: string[];
  /** The tables whose rows refer to each table. */
  children: Map<string, string[]>;
  /** The columns written back (generated ones are left to the database). */
  columns: Map<string, string[]>;
  /** Per table, its serial columns' sequences. */
  sequences: Map<string, Array<{ column: string; sequence: string }>>;
  data: Map<string, string>;
}

export async function copyWorld(db: Db, tables: readonly string[]): Promise<WorldCopy> {
  const links = await rows<{ child: string; parent: string }>(
    db,
    sql`select c.relname as child, p.relname as parent
        from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
        where k.contype = 'f'`,
  );
  const children = new Map<string, string[]>(tables.map((t) => [t, []]));
  for (const { child, parent } of links) if (child !== parent) children.get(parent)?.push(child);
  const order: string[] = [];
  const visit = (table: string) => {
    if (order.includes(table)) return;
    for (const { child, parent } of links) if (child === table && parent !== table) visit(parent);
    if (tables.includes(table)) order.push(table);
  };
  tables.forEach(visit);

  const columnRows = await rows<{
    table_name: string;
    column_name: string;
    is_generated: string;
    column_default: string | null;
  }>(
    db,
    sql`select table_name, column_name, is_generated, column_default from information_schema.columns
        where table_schema = 'public' order by ordinal_position`,
  );
  const columns = new Map<string, string[]>();
  const sequences = new Map<string, Array<{ column: string; sequence: string }>>();
  for (const c of columnRows) {
    if (!tables.includes(c.table_name) || c.is_generated === 'ALWAYS') continue;
    columns.set(c.table_name, [...(columns.get(c.table_name) ?? []), c.column_name]);
    const sequence = /^nextval\('([^']+)'/.exec(c.column_default ?? '')?.[1];
    if (sequence)
      sequences.set(c.table_name, [...(sequences.get(c.table_name) ?? []), { column: c.column_name, sequence }]);
  }
  const data = new Map<string, string>();
  for (const table of tables) {
    const [row] = await rows<{ data: unknown }>(
      db,
      sql`select coalesce(json_agg(x), '[]'::json) as data from ${sql.identifier(table)} x`,
    );
    data.set(table, typeof row!.data === 'string' ? row!.data : JSON.stringify(row!.data));
  }
  return { order, children, columns, sequences, data };
}

/** Puts back the tables given, and every table whose rows refer to them (emptied with them). */
export async function restoreWorld(db: Db, copy: WorldCopy, changed: readonly string[]): Promise<void> {
  const affected = new Set<string>();
  const add = (table: string) => {
    if (affected.has(table)) return;
    affected.add(table);
    copy.children.get(table)?.forEach(add);
  };
  changed.forEach(add);
  const tables = copy.order.filter((t) => affected.has(t));
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`truncate ${sql.join(
        tables.map((t) => sql.identifier(t)),
        sql`, `,
      )} cascade`,
    );
    for (const table of tables) {
      const data = copy.data.get(table)!;
      if (data !== '[]') {
        const cols = sql.join(
          copy.columns.get(table)!.map((c) => sql.identifier(c)),
          sql`, `,
        );
        await tx.execute(
          sql`insert into ${sql.identifier(table)} (${cols}) select ${cols} from json_populate_recordset(null::${sql.identifier(table)}, ${data}::json)`,
        );
      }
      for (const { column, sequence } of copy.sequences.get(table) ?? []) {
        await tx.execute(
          sql`select setval(${sequence}, coalesce((select max(${sql.identifier(column)}) from ${sql.identifier(table)}), 0) + 1, false)`,
        );
      }
    }
  });
}
