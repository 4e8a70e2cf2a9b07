import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../src/db/client.ts';

/**
 * What every answer of the API must be, whatever it was sent (docs/requirements.md#error-responses), and a
 * fingerprint of the database to prove a refused request changed nothing.
 */

/** Messages Node, Fastify, zod and PostgreSQL give in English when nobody translated them. */
const ENGLISH =
  /\b(must|should|expected|received|required|invalid|unexpected|not found|error|failed|cannot|unable|exceeded|missing|unsupported|too (large|long|big|small)|bad request|internal server|forbidden|unauthori[sz]ed|route|body|querystring|params|headers|token|property|characters|greater|less than)\b/i;

/** Text of the database or of a stack trace, which must never reach a client. */
const LEAKS =
  /\b(select|insert|update|delete)\b[^.]{0,80}\b(from|into|set|where)\b|syntax error|violates|relation "|duplicate key|constraint "|null value in|invalid byte sequence|unterminated|\bpg_|column "|\bat [\w.<>$]+ \(|node:internal|\.(ts|js|mjs):\d+|\bError: |\bstack\b/i;

/** Portuguese: an accent, or one of the small words every Portuguese sentence has. */
const PORTUGUESE =
  /[áàâãéêíóôõúüç]|\b(não|deve|ser|de|da|do|dos|das|um|uma|ou|com|sem|no|na|nos|nas|os|as|o|a|e|em|por|para|ao|que|se)\b/i;

/** Removes what the client sent (and its trimmed, lower-case or shortened forms) from a message that echoes it. */
export function scrub(message: string, inputs: readonly string[]): string {
  let out = message;
  const variants = new Set<string>();
  for (const input of inputs) {
    for (const v of [input, input.trim(), input.toLowerCase(), input.trim().toLowerCase()]) {
      if (v.length >= 2) variants.add(v);
      if (v.length > 80) variants.add(v.slice(0, 80));
    }
  }
  // Longest first, so a shorter input inside a longer one does not break it up.
  for (const v of [...variants].sort((a, b) => b.length - a.length)) {
    out = out.split(v).join(' ');
    // A long input quoted cut short, as messages quote names ('…' after the part shown).
    for (let k = Math.min(v.length - 1, 200); k >= 10; k--) {
      const cut = `${v.slice(0, k)}…`;
      if (out.includes(cut)) out = out.split(cut).join(' ');
    }
  }
  return out;
}

/** Every string a request carries: path parameters, query, body values and keys. */
export function inputsOf(parts: { params: Record<string, string | undefined>; url: string; payload?: string }) {
  const inputs: string[] = [];
  for (const value of Object.values(parts.params)) if (value !== undefined) inputs.push(value);
  const query = parts.url.split('?')[1];
  if (query) {
    for (const pair of query.split('&')) {
      for (const piece of pair.split('=')) {
        try {
          inputs.push(decodeURIComponent(piece));
        } catch {
          inputs.push(piece);
        }
      }
    }
  }
  if (parts.payload !== undefined) {
    inputs.push(parts.payload);
    try {
      collectStrings(JSON.parse(parts.payload), inputs);
    } catch {
      // Not JSON: the whole text is the input.
    }
  }
  return inputs;
}

function collectStrings(value: unknown, into: string[]) {
  if (typeof value === 'string') into.push(value);
  else if (typeof value === 'number') into.push(String(value));
  else if (Array.isArray(value)) value.forEach((v) => collectStrings(v, into));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      collectStrings(v, into);
    }
  }
}

export interface Answer {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}

/** The problems with one answer, empty when it is as the API promises. */
export function problemsOf(answer: Answer, inputs: readonly string[]): string[] {
  const problems: string[] = [];
  const { statusCode, body } = answer;
  if (statusCode >= 500) problems.push(`status ${statusCode}`);
  if (statusCode < 400) return problems;
  const type = (answer.headers['content-type'] as string | undefined) ?? '';
  if (!/^application\/json\b/.test(type)) problems.push(`content-type '${type}' em vez de JSON`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [...problems, 'corpo não é JSON'];
  }
  const message = (parsed as { message?: unknown } | null)?.message;
  if (
    !parsed ||
    typeof parsed !== 'object' ||
    Object.keys(parsed).join() !== 'message' ||
    typeof message !== 'string'
  ) {
    return [...problems, 'corpo não é exatamente { message }'];
  }
  if (!message.trim()) problems.push('mensagem vazia');
  const own = scrub(message, inputs);
  if (ENGLISH.test(own)) problems.push(`mensagem em inglês: ${ENGLISH.exec(own)![0]}`);
  if (!PORTUGUESE.test(own)) problems.push('mensagem sem cara de português');
  if (LEAKS.test(own)) problems.push(`mensagem vaza detalhe interno: ${LEAKS.exec(own)![0]}`);
  return problems;
}

/** The tables of the database, but the cache versions (versoes_dados), which a statement bumps even when it changes no row. */
export async function tablesOf(db: Db): Promise<string[]> {
  const found = await rows<{ table_name: string }>(
    db,
    sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'versoes_dados'
        order by table_name`,
  );
  return found.map((r) => r.table_name);
}

/** Per table: the row count and an md5 of every row's text, in a stable order. */
export async function fingerprint(db: Db, tables: readonly string[]): Promise<Record<string, string>> {
  const parts = tables.map(
    (t) =>
      sql`select ${t} as t, count(*)::text || ':' || md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as f from ${sql.identifier(t)} x`,
  );
  const found = await rows<{ t: string; f: string }>(db, sql.join(parts, sql` union all `));
  return Object.fromEntries(found.map((r) => [r.t, r.f]));
}

/** The tables whose fingerprint differs. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((t) => before[t] !== after[t]);
}
