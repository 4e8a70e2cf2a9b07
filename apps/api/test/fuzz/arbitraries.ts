import fc from 'fast-check';
import type { JsonSchema, Operation, Parameter } from './openapi.ts';

/**
 * Generators of requests for any operation of the OpenAPI document: values shaped by the operation's own
 * schemas (so many requests get past validation and reach the database), mixed with hostile ones.
 */

/** What exists in the fuzz world, so valid-looking values often name something real. */
export interface Known {
  panelIds: number[];
  classificationIds: number[];
  roleNames: string[];
  userIds: string[];
  emails: string[];
  usernames: string[];
  passwords: string[];
  /** Saved views and export jobs (UUIDs) of the seeded world. */
  viewIds: string[];
  exportIds: string[];
}

/** Texts that break, or have broken, servers that store, compare and show text. */
export const HOSTILE_TEXTS: readonly string[] = [
  '',
  ' ',
  '   ',
  '\t',
  '\n',
  '\r\n',
  '\u0000',
  'a\u0000b',
  '\u0000\u0000',
  '\u0001',
  'a\u0008b',
  '\u001b[31mvermelho',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\ud800',
  '\udfff',
  'a\ud800',
  '\udc00b',
  '\ud83d',
  '\ude00\ud83d',
  '😀',
  '👩‍👩‍👧‍👦',
  '🇧🇷',
  'e\u0301',
  'Z̴̡̢̛͖a̸l̷g̶o̵',
  '\u202eabc',
  '\u200f',
  '\u200b',
  '\u2066x\u2069',
  '\uffff',
  '\ufffe',
  '\ufffd',
  '𝕏',
  'İstanbul',
  'ß',
  'ﬀ',
  'ǅ',
  'Σσς',
  'ＡＢＣ',
  '٨',
  '८',
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}',
  '${7*7}',
  '<%= 7*7 %>',
  "'",
  '"',
  '`',
  '\\',
  "''",
  "'; drop table paineis; --",
  "' or '1'='1",
  '" or ""="',
  '1; select pg_sleep(5); --',
  "'); insert into usuarios values ('x'); --",
  'select * from usuarios',
  '%',
  '_',
  '%_%',
  '$1',
  '\\x00',
  "E'\\x00'",
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '../../etc/passwd',
  '..\\..\\windows',
  '%00',
  '%2e%2e%2f',
  '/',
  '?',
  '#',
  '&',
  '=',
  '+',
  ';',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  'true',
  '[]',
  '{}',
  '0',
  '-1',
  '1e309',
  '0x10',
];

/** Ids as a path segment or a query value may spell them; only plain digits are ids. */
export const HOSTILE_IDS: readonly string[] = [
  '0x1',
  '0x8',
  '1e0',
  '1e1',
  '+1',
  ' 1',
  '1 ',
  '01',
  '08',
  '1.0',
  '8.0',
  '1.',
  '.5',
  '-1',
  '-0',
  '0',
  '00',
  '2147483647',
  '2147483648',
  '4294967297',
  '9007199254740993',
  '9'.repeat(30),
  '9'.repeat(199),
  '1,2',
  '1;2',
  '[1]',
  'NaN',
  'Infinity',
  '١',
  '１',
  '1\u0000',
  'true',
  'null',
];

/** A well-formed string as UTF-8 percent-encoding; a lone surrogate as the bytes of WTF-8, which no UTF-8 decoder accepts. */
export function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const c = char.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

const hostileText = fc.constantFrom(...HOSTILE_TEXTS);

/** A text of a length around a limit, of one repeated character (astral ones count twice in JS). */
const longText = fc
  .tuple(
    fc.constantFrom(1, 99, 100, 101, 199, 200, 201, 253, 254, 255, 499, 500, 501, 1000, 20_000),
    fc.constantFrom('a', 'é', '😀', ' ', '\u0000', '<', "'"),
  )
  .map(([n, c]) => c.repeat(n));

/** Texts a person could type: accents, emoji, markup and SQL look-alikes, spaces to trim, no control characters. */
const niceWord = fc.constantFrom(
  'Vendas',
  'Relatório',
  'Gestão 2024',
  'São Paulo',
  'Área 51',
  'Ünïcödé',
  '数据',
  'مبيعات',
  'עברית',
  '\u202eRTL\u202c',
  '\u200fמימין\u200f',
  '😀',
  '👩‍👩‍👧‍👦 família',
  '<b>negrito</b>',
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  "O'Brien",
  '"aspas"',
  "'; drop table paineis; --",
  'select * from usuarios',
  '100%',
  'a_b',
  '$1',
  '\\',
  '&amp;',
  'e\u0301',
  '\uffff',
  'İ',
);
const edgeSpace = fc.constantFrom('', '', '', ' ', '  ', '\t', '\n', ' \r\n', '\u00a0', '\u3000', '\ufeff');

function niceText(max: number): fc.Arbitrary<string> {
  return fc
    .tuple(
      edgeSpace,
      fc.array(fc.oneof(niceWord, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 })), {
        minLength: 1,
        maxLength: 3,
      }),
      edgeSpace,
    )
    .map(([a, words, b]) => `${a}${words.join(' ').slice(0, Math.max(1, max - 2))}${b}`);
}

/** Any text: mostly typed-looking, often hostile. */
export function anyText(max = 100): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: niceText(max) },
    { weight: 3, arbitrary: hostileText },
    { weight: 1, arbitrary: longText },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
    {
      weight: 2,
      arbitrary: fc.tuple(niceWord, hostileText, niceWord).map(([a, b, c]) => `${a}${b}${c}`),
    },
  );
}

const numbers = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    2,
    8,
    1.5,
    -2.5,
    0.1,
    2_147_483_647,
    2_147_483_648,
    -2_147_483_649,
    1_000_000,
    1_000_001,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    1e21,
    1e308,
    -1e308,
    5e-324,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A JSON value of any kind, for where the schema wants another kind. */
export function hostileJson(depth = 0): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(hostileText, numbers, fc.boolean(), fc.constant(null), longText);
  if (depth >= 2) return leaf;
  return fc.oneof(
    { weight: 6, arbitrary: leaf },
    { weight: 1, arbitrary: fc.constantFrom([], {}, [[]], [{}], { '': '' }) },
    { weight: 1, arbitrary: fc.array(hostileJson(depth + 1), { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.constantFrom('a', 'nome', 'id', 'toString', 'valueOf'), hostileJson(depth + 1), {
        maxKeys: 3,
      }),
    },
  );
}

export interface Generation {
  known: Known;
  /** The share of values replaced by a hostile one, per node of the body (0 to 1). */
  hostility: number;
}

const GUID_PATTERN = '[0-9a-f]{8}';

function stringFor(schema: JsonSchema, name: string, g: Generation): fc.Arbitrary<string> {
  const max = schema.maxLength ?? 200;
  const { known } = g;
  const hostile = g.hostility >= 0.1;
  if (schema.format === 'email' || /email/i.test(name)) {
    const valid = fc.oneof(
      fc.constantFrom(...known.emails),
      fc.constantFrom(...known.emails).map((e) => ` ${e.toUpperCase()} `),
      fc
        .tuple(fc.stringMatching(/^[a-z0-9._+-]{1,20}$/), fc.constantFrom('empresa.com.br', 'x.io'))
        .map(([user, domain]) => `${user.replace(/^\.|\.$|\.(?=\.)/g, 'a')}@${domain}`),
    );
    if (!hostile) return valid;
    return fc.oneof(
      valid,
      fc.emailAddress(),
      fc.tuple(niceWord, fc.constantFrom('@empresa.com.br', '@', '')).map(([a, b]) => `${a}${b}`),
    );
  }
  if (schema.pattern?.includes(GUID_PATTERN)) {
    const valid = fc.oneof(
      fc.uuid(),
      fc.uuid().map((u) => ` ${u.toUpperCase()} `),
    );
    if (!hostile) return valid;
    return fc.oneof(
      valid,
      fc.uuid().map((u) => u.replaceAll('-', '')),
      fc.uuid().map((u) => `{${u}}`),
    );
  }
  if (/^(role|roleName|papel)$/.test(name)) {
    return fc.oneof(
      fc.constantFrom(...known.roleNames),
      fc.constantFrom(...known.roleNames).map((r) => ` ${r.toUpperCase()} `),
      someText(max),
    );
  }
  if (name === 'username') return fc.oneof(fc.constantFrom(...known.usernames), someText(max));
  if (name === 'password') return fc.oneof(fc.constantFrom(...known.passwords), someText(max));
  // The items of a body that is a list of strings with no format: user ids.
  if (name === 'body[]') {
    return fc.oneof(
      fc.constantFrom(...known.userIds),
      fc.constantFrom(...known.userIds).map((id) => ` ${id} `),
      anyText(200),
    );
  }
  return someText(max);
}

/** A text for a field: mostly one a person could type, now and then a hostile one. */
const someText = (max: number) =>
  fc.oneof({ weight: 3, arbitrary: niceText(max) }, { weight: 1, arbitrary: anyText(max) });

function numberFor(schema: JsonSchema, name: string, g: Generation): fc.Arbitrary<number> {
  const min = schema.minimum ?? -(2 ** 31);
  const max = schema.maximum ?? 2 ** 31;
  const ids = /classificacao/i.test(name) ? g.known.classificationIds : g.known.panelIds;
  const inRange = fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) });
  // An id field names something that exists, mostly; other numbers (ordem) take any value in range.
  if (!/id$/i.test(name)) return inRange;
  return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: inRange });
}

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

/** A value the schema accepts, mostly; each node is replaced by a hostile value at the given rate. */
export function valueFor(schema: JsonSchema, name: string, g: Generation, depth = 0): fc.Arbitrary<unknown> {
  const valid = validFor(schema, name, g, depth);
  const hostile = Math.round(g.hostility * 100);
  if (hostile <= 0) return valid;
  return fc.oneof({ weight: 100 - hostile, arbitrary: valid }, { weight: hostile, arbitrary: hostileJson(depth) });
}

function validFor(schema: JsonSchema, name: string, g: Generation, depth: number): fc.Arbitrary<unknown> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => validFor(s, name, g, depth)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const kinds = typesOf(schema);
  if (kinds.length > 1) return fc.oneof(...kinds.map((type) => validFor({ ...schema, type }, name, g, depth)));
  switch (kinds[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number':
      return numberFor(schema, name, g);
    case 'string':
      return stringFor(schema, name, g);
    case 'array':
      return fc.array(valueFor(schema.items ?? {}, `${name}[]`, g, depth + 1), {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object':
      return objectFor(schema, g, depth);
    default:
      return hostileJson(depth);
  }
}

function objectFor(schema: JsonSchema, g: Generation, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {}).map(([key, propSchema]) => {
    const value = valueFor(propSchema, key, g, depth + 1);
    // Optional fields are often left out; required ones now and then, when hostile.
    const leftOut = required.has(key) ? Math.round(g.hostility * 10) : 4;
    return [key, leftOut > 0 ? fc.option(value, { nil: undefined, freq: Math.max(1, 10 - leftOut) }) : value] as const;
  });
  return fc.tuple(...entries.map(([, arbitrary]) => arbitrary)).map((values) => {
    const out: Record<string, unknown> = {};
    entries.forEach(([key], i) => {
      if (values[i] !== undefined) out[key] = values[i];
    });
    return out;
  });
}

/** JSON texts no serializer writes, for the parser itself. */
const RAW_BODIES: readonly string[] = [
  '',
  ' ',
  'null',
  'true',
  '0',
  '"texto"',
  '[]',
  '{}',
  '{',
  '}',
  '[',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1} {"b":2}',
  'NaN',
  '\u0000',
  '\ufeff{}',
  '{"nome":"a\\u0000b"}',
  '{"nome":"\\ud800"}',
  '{"nome":"\\udc00\\ud800"}',
  '{"nome":1e400}',
  '{"classificacaoId":1e400}',
  '[{"painelId":1e400,"novaOrdem":1}]',
  '[{"painelId":-0,"novaOrdem":1.0}]',
  '{"nome":"x" /* comentário */}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"nome":"x","__proto__":{"polluted":1}}',
  '[{"__proto__":{"polluted":1}}]',
  `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
  `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
  `[${'"x",'.repeat(60_000)}"x"]`,
  `"${'a'.repeat(100_000)}"`,
  '1'.repeat(400),
];

/** Members put at the front of a JSON object's text: duplicate keys (the last one wins) and prototype keys. */
const EXTRA_MEMBERS = fc.array(
  fc.tuple(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'isAdmin', 'role', 'id', 'nome', 'nomePainel', ''),
    hostileJson(1),
  ),
  { minLength: 1, maxLength: 2 },
);

function withExtraMembers(json: string, members: Array<[string, unknown]>): string {
  if (!json.startsWith('{')) return json;
  const front = members.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',');
  return json === '{}' ? `{${front}}` : `{${front},${json.slice(1)}`;
}

const CONTENT_TYPES = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json;charset=UTF-8',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/json; x=',
      'application/vnd.api+json',
      'text/plain',
      'text/html',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      '*/*',
      'json',
      ';',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const ACCEPT_ENCODINGS = fc.oneof(
  { weight: 10, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('gzip', 'br', 'deflate', 'identity;q=0', '*;q=0', 'x-desconhecido', 'gzip;q=abc'),
  },
);

const RAW_SEGMENTS = fc.constantFrom(
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%80',
  '%ED%A0%80',
  '%2F',
  '..',
  '.',
  '%2e%2e',
  'a%2Fb',
  '%00',
  '%',
  '',
);

/** The UUIDs a path parameter names (a saved view, an export job), or null for a panel's or classification's id. */
function knownUuids(param: Parameter, g: Generation): string[] | null {
  if (param.name === 'visaoId') return g.known.viewIds;
  if (param.name === 'exportacaoId') return g.known.exportIds;
  return null;
}

function pathValue(param: Parameter, g: Generation): fc.Arbitrary<string> {
  const uuids = knownUuids(param, g);
  if (uuids) {
    const named = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...uuids) }, { weight: 2, arbitrary: fc.uuid() });
    // Nearly valid requests name what exists, or any UUID.
    if (g.hostility < 0.1) return named;
    const value = fc.oneof(
      { weight: 8, arbitrary: named },
      { weight: 3, arbitrary: fc.constantFrom(...uuids.map((u) => ` ${u.toUpperCase()} `)) },
      { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_IDS) },
      { weight: 2, arbitrary: anyText(40) },
    );
    return fc.oneof({ weight: 12, arbitrary: value.map(percentEncode) }, { weight: 1, arbitrary: RAW_SEGMENTS });
  }
  let value: fc.Arbitrary<string>;
  if (g.hostility < 0.1) {
    // Nearly valid requests name what exists (a role's name being any text).
    value =
      param.name === 'role'
        ? stringFor(param.schema, 'role', g)
        : fc
            .constantFrom(...(/classificacao/i.test(param.name) ? [0, ...g.known.classificationIds] : g.known.panelIds))
            .map(String);
    return value.map(percentEncode);
  }
  if (param.name === 'role') {
    value = fc.oneof(
      { weight: 5, arbitrary: stringFor(param.schema, 'role', g) },
      { weight: 3, arbitrary: anyText(100) },
    );
  } else {
    const ids = /classificacao/i.test(param.name) ? [0, ...g.known.classificationIds] : g.known.panelIds;
    value = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...ids).map(String) },
      { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_IDS) },
      { weight: 1, arbitrary: fc.integer({ min: -10, max: 2 ** 32 }).map(String) },
      { weight: 2, arbitrary: anyText(20) },
    );
  }
  return fc.oneof({ weight: 12, arbitrary: value.map(percentEncode) }, { weight: 1, arbitrary: RAW_SEGMENTS });
}

const QUERY_KEYS = fc.constantFrom(
  'papel',
  'papel[]',
  '__proto__',
  '__proto__[isAdmin]',
  'constructor',
  'id',
  'x'.repeat(300),
  '',
);

function queryString(op: Operation, g: Generation): fc.Arbitrary<string> {
  if (g.hostility < 0.1) {
    return fc
      .tuple(...op.queryParams.map((p) => fc.option(stringFor(p.schema, p.name, g), { nil: undefined })))
      .map((values) => values.map((v, i) => (v === undefined ? '' : `${op.queryParams[i]!.name}=${percentEncode(v)}`)))
      .map((pairs) => pairs.filter(Boolean).join('&'))
      .map((query) => (query ? `?${query}` : ''));
  }
  const declared = fc.tuple(
    ...op.queryParams.map((p) =>
      fc.option(
        fc.oneof(stringFor(p.schema, p.name, g), anyText(120)).map((v) => `${p.name}=${percentEncode(v)}`),
        { nil: undefined, freq: 2 },
      ),
    ),
  );
  const extra = fc.array(
    fc.oneof(
      fc.tuple(QUERY_KEYS, anyText(40)).map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`),
      fc.constantFrom(
        'papel',
        'papel=',
        '&',
        '=',
        'papel=%',
        'papel=%zz',
        'papel=a&papel=b',
        `papel=${'a'.repeat(15_000)}`,
      ),
    ),
    { maxLength: 2 },
  );
  return fc
    .tuple(declared, fc.option(extra, { nil: undefined, freq: 4 }))
    .map(([pairs, junk]) => [...pairs.filter((p) => p !== undefined), ...(junk ?? [])].join('&'))
    .map((query) => (query ? `?${query}` : ''));
}

export interface FuzzRequest {
  method: Operation['method'];
  url: string;
  /** The decoded path parameters, as the server reads them (undefined when a raw segment was sent). */
  params: Record<string, string | undefined>;
  headers: Record<string, string>;
  payload?: string;
}

/** Decodes a path segment as the router does; undefined when it cannot be decoded. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Requests for one operation. */
export function requestFor(op: Operation, g: Generation): fc.Arbitrary<FuzzRequest> {
  const params = fc.tuple(...op.pathParams.map((p) => pathValue(p, g)));
  const nearlyValid = g.hostility < 0.1;
  const body: fc.Arbitrary<string | undefined> = !op.body
    ? nearlyValid
      ? fc.constant(undefined)
      : fc.oneof(
          { weight: 8, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constantFrom('', '{}', '[]', '{"nome":"x"}', '\u0000', '{') },
        )
    : nearlyValid
      ? valueFor(op.body, 'body', g).map((v) => JSON.stringify(v) ?? 'null')
      : fc.oneof(
          { weight: 12, arbitrary: valueFor(op.body, 'body', g).map((v) => JSON.stringify(v) ?? 'null') },
          {
            weight: 2,
            arbitrary: fc
              .tuple(valueFor(op.body, 'body', g), EXTRA_MEMBERS)
              .map(([v, members]) => withExtraMembers(JSON.stringify(v) ?? 'null', members)),
          },
          { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES) },
          { weight: 1, arbitrary: fc.constant(undefined) },
        );
  const contentType = nearlyValid ? fc.constant('application/json') : CONTENT_TYPES;
  return fc
    .record({ params, query: queryString(op, g), body, contentType, acceptEncoding: ACCEPT_ENCODINGS })
    .map(({ params: segments, query, body: payload, contentType, acceptEncoding }) => {
      let path = op.path;
      const decoded: Record<string, string | undefined> = {};
      op.pathParams.forEach((p, i) => {
        path = path.replace(`{${p.name}}`, segments[i]!);
        decoded[p.name] = decodeSegment(segments[i]!);
      });
      const headers: Record<string, string> = {};
      if (payload !== undefined && contentType !== undefined) headers['content-type'] = contentType;
      if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
      return {
        method: op.method,
        url: path + query,
        params: decoded,
        headers,
        ...(payload === undefined ? {} : { payload }),
      };
    });
}
