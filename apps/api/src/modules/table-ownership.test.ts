import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getTableName, isTable } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../db/schema.ts';

/**
 * Each table is written by its owner alone, and read across modules only where decision 008 says so
 * (docs/decisions/008-api-modules-own-their-data.md): the reporting modules read any table; another module reads
 * one of another's only as listed there. The lint rule sees imports; this reads the SQL, raw and drizzle's builder,
 * and holds it to the tables of that record, so the record and the code cannot drift apart.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const decision = readFileSync(
  path.resolve(here, '../../../../docs/decisions/008-api-modules-own-their-data.md'),
  'utf8',
);

/** The rows of the record's markdown table under `heading`: its backquoted cells. */
function tableRows(heading: string): string[][] {
  const start = decision.indexOf(heading);
  if (start < 0) throw new Error(`a decisão 008 não tem "${heading}"`);
  const rows: string[][] = [];
  for (const line of decision.slice(start).split('\n').slice(1)) {
    if (rows.length > 0 && !line.trim().startsWith('|')) break;
    // Module names may have a hyphen ('power-bi').
    const cells = [...line.matchAll(/`([a-z_-]+)`/g)].map((m) => m[1]!);
    if (line.trim().startsWith('|') && cells.length >= 2) rows.push(cells);
  }
  return rows;
}

const owners = new Map(tableRows('Each table has one owner').map(([table, owner]) => [table!, owner!]));
const crossReads = new Set(tableRows('The reads across outside the reporting modules').map(([m, t]) => `${m}:${t}`));
const REPORTING = new Set(['usage', 'audit']);

/** drizzle's table objects by the name the code imports them under. */
const tablesByIdentifier = new Map(
  Object.entries(schema)
    .filter(([, value]) => isTable(value))
    .map(([name, table]) => [name, getTableName(table as Parameters<typeof getTableName>[0])]),
);
const tableNames = new Set(tablesByIdentifier.values());

/** The tables a source writes and reads: raw SQL and drizzle's builder, comments left out. */
export function tablesOf(source: string): { writes: Set<string>; reads: Set<string> } {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const writes = new Set<string>();
  const reads = new Set<string>();
  const add = (into: Set<string>, name: string | undefined) => {
    const table = tableNames.has(name ?? '') ? name! : tablesByIdentifier.get(name ?? '');
    if (table) into.add(table);
  };
  for (const m of code.matchAll(/\b(?:insert\s+into|delete\s+from)\s+([a-z_]+)/gi)) add(writes, m[1]);
  for (const m of code.matchAll(/\bupdate\s+([a-z_]+)\s+(?:as\s+[a-z_]+\s+|[a-z]\s+)?set\b/gi)) add(writes, m[1]);
  for (const m of code.matchAll(/\.(?:insert|update|delete)\(\s*([A-Za-z_]+)\s*\)/g)) add(writes, m[1]);
  for (const m of code.matchAll(/\b(?:from|join)\s+([a-z_]+)/gi)) add(reads, m[1]);
  for (const m of code.matchAll(/\.(?:from|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*([A-Za-z_]+)/g)) add(reads, m[1]);
  for (const table of writes) reads.delete(table);
  return { writes, reads };
}

/** Every module source but tests, by module. */
function moduleSources(): { module: string; file: string; source: string }[] {
  const found: { module: string; file: string; source: string }[] = [];
  for (const module of readdirSync(here, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
          found.push({ module: module.name, file: path.relative(here, full), source: readFileSync(full, 'utf8') });
        }
      }
    };
    walk(path.join(here, module.name));
  }
  return found;
}

describe('table ownership (decision 008)', () => {
  const sources = moduleSources();

  it('names an owner for every table of the schema', () => {
    const unowned = [...tableNames].filter((t) => t !== 'versoes_dados' && !owners.has(t));
    expect(unowned).toEqual([]);
    expect([...owners.keys()].filter((t) => !tableNames.has(t))).toEqual([]);
  });

  it('finds writes and reads in raw SQL and in the builder, and not in comments', () => {
    const found = tablesOf(`
      // insert into paineis is only a comment
      await db.insert(favoritos).values(x);
      await db.execute(sql\`update visoes_salvas set nome = 1 where id = 2\`);
      await db.select().from(usuarios).innerJoin(painelUsuarios, on);
      sql\`select 1 from classificacoes c left join paineis p on p.id = c.id\`;`);
    expect([...found.writes].sort()).toEqual(['favoritos', 'visoes_salvas']);
    expect([...found.reads].sort()).toEqual(['classificacoes', 'paineis', 'painel_usuarios', 'usuarios']);
  });

  it('keeps SQL in repositories', () => {
    const outside = sources
      .filter(({ file }) => !file.endsWith('.repository.ts'))
      .filter(({ source }) => /\bsql`|\bdb\.(?:select|insert|update|delete|execute)\(/.test(source))
      .map(({ file }) => file);
    expect(outside).toEqual([]);
  });

  it('lets only its owner write a table', () => {
    const trespass = sources.flatMap(({ module, file, source }) =>
      [...tablesOf(source).writes].filter((t) => owners.get(t) !== module).map((t) => `${file} escreve ${t}`),
    );
    expect(trespass).toEqual([]);
  });

  it('lets a module read another’s table only as a reporting module, or as the record lists', () => {
    const crossings = sources.flatMap(({ module, file, source }) =>
      [...tablesOf(source).reads]
        .filter((t) => owners.has(t) && owners.get(t) !== module)
        .filter((t) => !REPORTING.has(module) && !crossReads.has(`${module}:${t}`))
        .map((t) => `${file} lê ${t}`),
    );
    expect(crossings).toEqual([]);
  });
});
