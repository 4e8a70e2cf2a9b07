import { readFileSync } from 'node:fs';

/**
 * The access matrix of docs/requirements.md#access-matrix (in #server-permissions), read from the document
 * itself: changing a status there changes what access-matrix.test.ts expects.
 */

export const REQUIREMENTS = new URL('../../../docs/requirements.md', import.meta.url);

export type Access = 'public' | 'user' | 'admin';

/** The callers of the matrix, numbered as the document numbers them. */
export type CallerNumber = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10;

export interface MatrixRow {
  /** `METHOD /path`, the path as the OpenAPI document spells it. */
  key: string;
  method: string;
  path: string;
  access: Access;
  /** The status each caller gets. */
  status: Record<CallerNumber, number>;
}

const HEADER = ['route', 'access', '1–7', '8 not linked', '9 linked', '10 admin'];

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

/** Parses the matrix out of the requirements (or of `text`, for a test of the parser); throws on any malformed row. */
export function readAccessMatrix(text: string = readFileSync(REQUIREMENTS, 'utf8')): Map<string, MatrixRow> {
  const start = text.indexOf('<a id="access-matrix"></a>');
  if (start < 0) throw new Error('docs/requirements.md has no <a id="access-matrix"> anchor');
  const next = text.indexOf('\n<a id="', start + 1);
  const section = text.slice(start, next < 0 ? undefined : next);
  const lines = section.split('\n').filter((l) => l.trimStart().startsWith('|'));
  if (lines.length < 3) throw new Error('the access matrix has no table');
  const [header, separator, ...body] = lines;
  if (JSON.stringify(cells(header!)) !== JSON.stringify(HEADER)) {
    throw new Error(`unexpected access matrix header: ${header}; expected the columns ${HEADER.join(' | ')}`);
  }
  if (!cells(separator!).every((c) => /^:?-+:?$/.test(c))) throw new Error(`not a table separator: ${separator}`);

  const matrix = new Map<string, MatrixRow>();
  for (const line of body) {
    const [route, access, shared, notLinked, linked, admin, ...extra] = cells(line);
    const match = /^`(GET|POST|PUT|PATCH|DELETE) (\/\S*)`$/.exec(route ?? '');
    if (!match || extra.length > 0) throw new Error(`malformed access matrix row: ${line}`);
    if (access !== 'public' && access !== 'user' && access !== 'admin') {
      throw new Error(`unknown access "${access}" in: ${line}`);
    }
    const statuses = [shared, notLinked, linked, admin].map((c) => {
      if (!/^\d{3}$/.test(c ?? '')) throw new Error(`not a status: "${c}" in: ${line}`);
      return Number(c);
    }) as [number, number, number, number];
    const [refused, eight, nine, ten] = statuses;
    const key = `${match[1]} ${match[2]}`;
    if (matrix.has(key)) throw new Error(`route listed twice in the access matrix: ${key}`);
    matrix.set(key, {
      key,
      method: match[1]!,
      path: match[2]!,
      access,
      status: {
        1: refused,
        2: refused,
        3: refused,
        4: refused,
        5: refused,
        6: refused,
        7: refused,
        8: eight,
        9: nine,
        10: ten,
      },
    });
  }
  return matrix;
}

/**
 * The same matrix as the section's prose states its rules, to catch a mistyped cell: public rows answer all
 * alike; user rows 401 / 404 on a panel of the path (or of the body, or on someone else's subscription), else their
 * success status (200 for a read); admin rows 401 / 403 / 403 / 2xx. Every POST, PUT, PATCH and DELETE outside
 * /api/auth is for administrators, but the writes people make on what is their own: the viewer's report of its load
 * times, favourites, saved views, exports (docs/requirements.md#personal), the record of a visual's data exported
 * (docs/requirements.md#viewer-data-export) and subscriptions (docs/requirements.md#subscriptions).
 */
export const USER_WRITES: Record<string, number> = {
  'POST /api/paineis/{id}/visualizacoes/{visualizacaoId}': 202,
  'PUT /api/favoritos/{painelId}': 204,
  'DELETE /api/favoritos/{painelId}': 204,
  'POST /api/paineis/{id}/visoes': 201,
  'PATCH /api/paineis/{id}/visoes/{visaoId}': 200,
  'DELETE /api/paineis/{id}/visoes/{visaoId}': 204,
  'POST /api/paineis/{id}/exportacoes': 202,
  'POST /api/paineis/{id}/exportacoes-dados': 201,
  'POST /api/assinaturas': 201,
  'PATCH /api/assinaturas/{id}': 200,
  'DELETE /api/assinaturas/{id}': 204,
  'POST /api/assinaturas/{id}/enviar-agora': 202,
};
/**
 * 404 to a user not linked to the panel though no panel is in the path: a subscription names its panel in the body,
 * and a subscription or its file is its owner's alone (caller 8 calls with the linked user's).
 */
const NOT_THEIRS = (row: MatrixRow) =>
  row.key === 'POST /api/assinaturas' ||
  row.path.startsWith('/api/assinaturas/{id}') ||
  row.path.startsWith('/api/assinaturas/arquivos/');
/** Removing a favourite reveals nothing and must work after losing the panel: 204 to anyone signed in. */
const ANSWERS_EVERY_USER = new Set(['DELETE /api/favoritos/{painelId}']);

export function ruleBreaches(row: MatrixRow): string[] {
  const breaches: string[] = [];
  const s = row.status;
  const is = (caller: CallerNumber, expected: number) => {
    if (s[caller] !== expected)
      breaches.push(`${row.key}: caller ${caller} should be ${expected}, the table says ${s[caller]}`);
  };
  const notFoundToOthers =
    row.path.startsWith('/api/paineis/{id}') || row.path.includes('{painelId}') || NOT_THEIRS(row);
  const success = USER_WRITES[row.key] ?? 200;
  if (row.access === 'public') {
    for (const c of [8, 9, 10] as const) is(c, s[1]);
  } else if (row.access === 'user') {
    is(1, 401);
    is(8, notFoundToOthers && !ANSWERS_EVERY_USER.has(row.key) ? 404 : success);
    is(9, success);
    is(10, success);
  } else {
    is(1, 401);
    is(8, 403);
    is(9, 403);
    if (s[10] < 200 || s[10] > 299)
      breaches.push(`${row.key}: an administrator should succeed, the table says ${s[10]}`);
  }
  if (
    row.method !== 'GET' &&
    !row.path.startsWith('/api/auth/') &&
    !(row.key in USER_WRITES) &&
    row.access !== 'admin'
  ) {
    breaches.push(`${row.key}: a ${row.method} is for administrators, the table says ${row.access}`);
  }
  return breaches;
}
