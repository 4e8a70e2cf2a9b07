import { fixedEmbedding } from '../fixed-embedding.ts';
import fc from 'fast-check';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { portalEnvironment, startStandIns } from '@paineis/microsoft-stand-ins/stand-ins';
import { sameRoleName } from '@paineis/contract/text';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { Db } from '../../src/db/client.ts';
import { upsertLocalAccount } from '../../src/modules/auth/local-accounts.repository.ts';
import { signSessionToken } from '../../src/modules/auth/tokens.ts';
import { testConfig } from '../context.ts';
import { openTestDatabase, resetDatabase } from '../database.ts';
import { classificacao, createAdmin, createUser, link, panel } from '../fixtures.ts';
import { requestFor, type FuzzRequest, type Known } from './arbitraries.ts';
import { operationsOf, takesInput, type Operation } from './openapi.ts';
import { copyWorld, restoreWorld, type WorldCopy } from './world.ts';
import { changedTables, fingerprint, inputsOf, problemsOf, tablesOf, type Answer } from './oracle.ts';

/**
 * Property-based fuzzing of every operation of the OpenAPI document that takes input (path, query or body),
 * as an administrator and as a user, with values shaped by the operation's schemas and hostile ones mixed in
 * (arbitraries.ts). For every request: no 5xx; a 4xx is exactly `{ message }`, in Portuguese, leaking no SQL
 * or stack; a refused request, or any GET, leaves the database as it was; an accepted text comes back as it
 * was sent, but for the normalisation the contract promises (trim; GUIDs and e-mails also lower-cased).
 *
 * FUZZ_SEED=<n> replays a run (the seed is printed at the start); FUZZ_REQUESTS=<n> changes how many requests
 * are fuzzed (default 5000). Runs on PGlite only: the PostgreSQL project would double the time for the same
 * code paths (the database-specific refusals, like U+0000, are proven in both by the route tests).
 */

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 5000);
if (!Number.isSafeInteger(SEED) || SEED < 0)
  throw new Error(`FUZZ_SEED deve ser um inteiro positivo: '${process.env.FUZZ_SEED}'.`);
if (!Number.isSafeInteger(REQUESTS) || REQUESTS < 1) {
  throw new Error(`FUZZ_REQUESTS deve ser um inteiro positivo: '${process.env.FUZZ_REQUESTS}'.`);
}

const KNOWN: Known = {
  panelIds: [1, 2, 3, 4],
  classificationIds: [1, 2, 3],
  roleNames: ['Sul', 'Norte'],
  userIds: ['fuzz-admin', 'fuzz-user', 'fuzz-outro'],
  emails: ['ana@empresa.com.br', 'bruno@empresa.com.br', 'admin@empresa.com.br'],
  usernames: ['fuzz.admin', ' FUZZ.ADMIN '],
  passwords: ['senha-do-fuzz'],
  // Ana's and the admin's saved views and export jobs (seedWorld gives them these ids).
  viewIds: ['5a1e0000-0000-4000-8000-000000000001', '5a1e0000-0000-4000-8000-000000000002'],
  exportIds: ['e0e00000-0000-4000-8000-000000000001', 'e0e00000-0000-4000-8000-000000000002'],
};
/** The admin and Ana, as seedWorld stores them and the fuzzer's tokens name them. */
const FUZZ_ADMIN = {
  id: 'fuzz-admin',
  email: 'admin@empresa.com.br',
  displayName: 'Admin Fuzz',
  role: 'Admin',
} as const;
const FUZZ_USER = { id: 'fuzz-user', email: 'ana@empresa.com.br', displayName: 'Ana Fuzz', role: 'User' } as const;
const WORKSPACE = '11111111-1111-4111-8111-111111111111';
const report = (n: number) => `22222222-2222-4222-8222-00000000000${n}`;

const embedding = fixedEmbedding('token-do-fuzz');

const onPglite = inject('database') === 'pglite';

/**
 * The app and the operations of its OpenAPI document, built while the tests are collected: one test each. Exports
 * go to the stand-in Power BI (its export jobs are done at their first status request); openings keep the fixed
 * embedding, which is faster.
 */
async function prepare() {
  const standIns = await startStandIns({
    people: [],
    exportDurationMs: 0,
    reports: [1, 2, 3, 4].map((n) => ({
      workspaceId: WORKSPACE,
      reportId: report(n),
      name: `Relatório ${n}`,
      datasetId: `33333333-3333-4333-8333-00000000000${n}`,
      rls: n === 2,
    })),
  });
  const config = testConfig({
    ...portalEnvironment(standIns),
    GRAPH_SYNC_INTERVAL_MINUTES: '0',
    LOGIN_MAX_DELAY_SECONDS: '0',
  });
  const database = await openTestDatabase();
  const app = await buildApp({ config, database, ownsDatabase: false, logger: false, embedding });
  await app.ready();
  const doc = await app.inject({ method: 'GET', url: '/api/docs/json' });
  return { database, app, config, standIns, operations: operationsOf(doc.json()).filter(takesInput) };
}
const prepared = onPglite ? await prepare() : null;

describe.skipIf(!prepared)('fuzzing every operation that takes input', () => {
  const { database, app, config, standIns, operations } =
    prepared ?? ({ operations: [] } as unknown as NonNullable<typeof prepared>);
  const db: Db = database?.db;
  let tables: string[];
  let world: WorldCopy;
  const tokens: Record<'admin' | 'user', string> = { admin: '', user: '' };
  /** The fingerprint of the world every request starts from, and the database's now. */
  let pristine: Record<string, string> = {};
  let current: Record<string, string> = {};
  /** Every request sent, and those the fuzzer made up (the rest read accepted writes back). */
  let requests = 0;
  let fuzzed = 0;
  let started = 0;
  /** Where the time goes: requests, fingerprints, new worlds. */
  const spent = { requests: 0, fingerprints: 0, worlds: 0, newWorlds: 0 };
  const timed = async <T>(what: 'requests' | 'fingerprints' | 'worlds', work: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await work();
    } finally {
      spent[what] += performance.now() - t;
    }
  };
  const statuses = new Map<number, number>();
  const statusesByOperation: Record<string, Record<number, number>> = {};
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).join();

  /** The world every run starts from: three people, three classifications, four panels, two RLS roles, a local account. */
  async function seedWorld() {
    await resetDatabase(database);
    await createAdmin(db, FUZZ_ADMIN);
    await createUser(db, FUZZ_USER);
    await createUser(db, { id: 'fuzz-outro', email: 'bruno@empresa.com.br', displayName: 'Bruno Fuzz' });
    await classificacao(db, 'Vendas', { descricao: 'Relatórios\ncomerciais' });
    await classificacao(db, 'Compras');
    await classificacao(db, 'Inativa', { ativo: false });
    await panel(db, { nomePainel: 'Metas', classificacaoId: 1, ordem: 1, reportId: report(1) });
    await panel(db, {
      nomePainel: 'Regional',
      classificacaoId: 1,
      ordem: 2,
      reportId: report(2),
      usaRls: true,
      rlsConfigurations: [
        { roleName: 'Sul', userEmails: ['ana@empresa.com.br'] },
        { roleName: 'Norte', userEmails: [] },
      ],
    });
    await panel(db, { nomePainel: 'Avulso', ordem: 1, reportId: report(3) });
    await panel(db, { nomePainel: 'Oculto', classificacaoId: 2, ordem: 1, reportId: report(4) });
    for (const id of [1, 2, 3]) await link(db, id, ['fuzz-user']);
    await db.execute(sql`
      insert into visoes_salvas (id, painel_id, usuario_id, nome, estado, pagina) values
        (${KNOWN.viewIds[0]}, 1, 'fuzz-user', 'Visão da Ana', 'estado', 'ReportSection1'),
        (${KNOWN.viewIds[1]}, 2, 'fuzz-admin', 'Visão do admin', 'estado', null)`);
  }

  /** An export job of each of Ana and the admin in the stand-in, recorded under the known ids. */
  async function startExports() {
    for (const [i, token] of [tokens.user, tokens.admin].entries()) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/paineis/1/exportacoes',
        headers: { authorization: `Bearer ${token}` },
        payload: { formato: i === 0 ? 'PDF' : 'PPTX' },
      });
      expect(res.statusCode).toBe(202);
      await db.execute(
        sql`update exportacoes set id = ${KNOWN.exportIds[i]} where id = ${res.json<{ id: string }>().id}`,
      );
    }
  }

  beforeAll(async () => {
    tables = await tablesOf(db);
    await seedWorld();
    // A local account, so a sign-in can succeed.
    await upsertLocalAccount(db, {
      username: 'fuzz.admin',
      password: 'senha-do-fuzz',
      user: { ...FUZZ_ADMIN, source: 'local' },
    });
    tokens.admin = (await signSessionToken(config.jwt, FUZZ_ADMIN)).token;
    tokens.user = (await signSessionToken(config.jwt, FUZZ_USER)).token;
    await startExports();
    world = await copyWorld(db, tables);
    pristine = await fingerprint(db, tables);
    current = pristine;
    console.warn(
      `fuzz: seed ${SEED} (FUZZ_SEED=${SEED} repete esta execução), ${REQUESTS} requisições em ${operations.length} operações`,
    );
    started = performance.now();
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
    await standIns?.close();
  });

  function decoded(body: Buffer, encoding: unknown): Buffer {
    if (encoding === 'gzip') return gunzipSync(body);
    if (encoding === 'br') return brotliDecompressSync(body);
    if (encoding === 'deflate') return inflateSync(body);
    return body;
  }

  async function send(
    req: Pick<FuzzRequest, 'method' | 'url' | 'headers' | 'payload'>,
    token?: string,
  ): Promise<Answer & { json: () => any }> {
    requests += 1;
    const res = await app.inject({
      method: req.method,
      url: req.url,
      headers: { ...req.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(req.payload === undefined ? {} : { payload: req.payload }),
    });
    // Views of panels are written in the background: written now, so they land with the request that made them.
    await app.openingRecorder.flush();
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    // A large answer comes compressed when the request accepts it (as a browser's does): read back, it is unpacked.
    const json = () => JSON.parse(decoded(res.rawPayload, res.headers['content-encoding']).toString('utf8'));
    return { statusCode: res.statusCode, body: res.body, headers: res.headers, json };
  }

  const get = (url: string) => send({ method: 'GET', url, headers: {} }, tokens.admin);

  /**
   * Changes a refused request or a read may make, by design: a failed sign-in is counted (sign-in throttling) and
   * audited; opening a panel is recorded (docs/requirements.md#usage).
   */
  const allowedChange = (op: Operation, status: number, table: string) =>
    (op.key === 'POST /api/auth/login' &&
      (status === 401 || status === 429) &&
      (table === 'tentativas_login' || table === 'auditoria')) ||
    (op.key === 'GET /api/paineis/{id}' && status < 400 && table === 'visualizacoes');

  // What the contract promises to keep of a text: all of it, trimmed; GUIDs and e-mails lower-cased too.
  const text = (v: string) => v.trim();
  const optional = (v: string | null | undefined) => (v == null ? null : v.trim() || null);
  const lower = (v: string) => v.trim().toLowerCase();
  const emails = (list: string[]) => [...new Set(list.map(lower))].sort();
  const rls = (configs: Array<{ roleName: string; userEmails: string[] }>) =>
    configs.map((c) => ({ roleName: text(c.roleName), userEmails: emails(c.userEmails) }));

  /** Each difference between what the server keeps and what it was sent, code unit by code unit. */
  function differences(what: string, actual: unknown, expected: unknown): string[] {
    const a = JSON.stringify(actual);
    const e = JSON.stringify(expected);
    return a === e ? [] : [`${what}: guardado ${a.slice(0, 300)}, esperado ${e.slice(0, 300)}`];
  }

  /** After an accepted write, reads it back: every text as sent, but for the promised normalisation. */
  const readBacks: Record<
    string,
    (req: FuzzRequest, sent: any, res: Answer & { json: () => any }) => Promise<string[]>
  > = {
    'POST /api/classificacoes': async (_req, sent, res) => readClassification(res.json().id, sent, res.json()),
    'PUT /api/classificacoes/{id}': async (req, sent, res) =>
      readClassification(Number(req.params.id), sent, res.json()),
    'POST /api/paineis': async (_req, sent, res) => readPanel(res.json().id, sent),
    'PUT /api/paineis/{id}': async (req, sent) => readPanel(Number(req.params.id), sent),
    'POST /api/paineis/{id}/rls': async (req, sent, res) => {
      const stored = (await get(`/api/paineis/${req.params.id}/rls`)).json();
      return [...differences('resposta', res.json(), stored), ...differences('rls', sortedRls(stored), rls(sent))];
    },
    'POST /api/paineis/{id}/rls/roles/{role}/usuarios': async (req, sent, res) => {
      const url = req.url.split('?')[0]!;
      const stored = (await get(url)).json();
      const roles: string[] = (await get(`/api/paineis/${req.params.id}/rls/roles`)).json();
      const role = text(req.params.role!);
      return [
        ...differences('resposta', [...res.json()].sort(), emails(sent)),
        ...differences('e-mails do papel', [...stored].sort(), emails(sent)),
        ...(roles.some((r) => sameRoleName(r, role)) ? [] : [`papel '${role}' não está em ${JSON.stringify(roles)}`]),
      ];
    },
    // A saved view keeps its state exactly as sent (an opaque bookmark), its name and page trimmed.
    'POST /api/paineis/{id}/visoes': async (req, sent, res) => readView(Number(req.params.id), res.json().id, sent),
    'PATCH /api/paineis/{id}/visoes/{visaoId}': async (req, sent, res) =>
      differences(
        'nome da visão',
        (await get(`/api/paineis/${req.params.id}/visoes/${res.json().id}`)).json().nome,
        text(sent.nome),
      ),
    'POST /api/paineis/{id}/usuarios': async (req, sent, res) => {
      const stored = (await get(`/api/paineis/${req.params.id}/usuarios`)).json();
      const ids = [...new Set((sent as string[]).map(text))].sort();
      return [
        ...differences(
          'resposta',
          res
            .json()
            .map((u: { id: string }) => u.id)
            .sort(),
          ids,
        ),
        ...differences('vínculos', stored.map((u: { id: string }) => u.id).sort(), ids),
      ];
    },
  };

  const sortedRls = (configs: Array<{ roleName: string; userEmails: string[] }>) =>
    configs.map((c) => ({ roleName: c.roleName, userEmails: [...c.userEmails].sort() }));

  async function readClassification(id: number, sent: any, answered: any) {
    const stored = (await get(`/api/classificacoes/${id}`)).json();
    const expected = { nome: text(sent.nome), descricao: optional(sent.descricao) };
    return [
      ...differences('classificação', { nome: stored.nome, descricao: stored.descricao }, expected),
      ...differences('resposta', answered, stored),
      ...(typeof sent.ativo === 'boolean' ? differences('ativo', stored.ativo, sent.ativo) : []),
    ];
  }

  async function readView(painelId: number, id: string, sent: any) {
    const stored = (await get(`/api/paineis/${painelId}/visoes/${id}`)).json();
    const expected = {
      nome: text(sent.nome),
      estado: text(sent.estado),
      pagina: sent.pagina == null ? null : text(sent.pagina),
    };
    return differences('visão', { nome: stored.nome, estado: stored.estado, pagina: stored.pagina }, expected);
  }

  async function readPanel(id: number, sent: any) {
    const stored = (await get(`/api/paineis/${id}/dados`)).json();
    const expected = {
      nomePainel: text(sent.nomePainel),
      workspaceId: lower(sent.workspaceId),
      reportId: lower(sent.reportId),
      usaRls: sent.usaRls ?? false,
      classificacaoId: sent.classificacaoId || 0,
      ...(sent.ordem === undefined ? {} : { ordem: sent.ordem }),
      ...(sent.rlsConfigurations === undefined ? {} : { rlsConfigurations: rls(sent.rlsConfigurations) }),
    };
    const actual = Object.fromEntries(
      Object.keys(expected).map((k) => [k, k === 'rlsConfigurations' ? sortedRls(stored[k]) : stored[k]]),
    );
    return differences('painel', actual, expected);
  }

  /** One fuzzed request, checked. */
  async function attempt(op: Operation, caller: 'admin' | 'user', req: FuzzRequest) {
    const dirty = changedTables(pristine, current);
    if (dirty.length > 0) {
      spent.newWorlds += 1;
      await timed('worlds', () => restoreWorld(db, world, dirty));
      current = pristine;
    }
    const before = current;
    fuzzed += 1;
    const res = await timed('requests', () => send(req, tokens[caller]));
    // What the request asked of the background (a panel created or saved is checked at once) is its doing too, and
    // must not land in the next request's fingerprint.
    await app.tasks.idle();
    const problems = problemsOf(res, inputsOf(req));
    const after = await timed('fingerprints', () => fingerprint(db, tables));
    // Known before any check can throw, so the next attempt (fast-check's shrinking too) starts from a clean world.
    current = after;
    if (res.statusCode >= 400 || op.method === 'GET') {
      const changed = changedTables(before, after).filter((t) => !allowedChange(op, res.statusCode, t));
      if (changed.length > 0) problems.push(`${res.statusCode} mudou o banco: ${changed.join(', ')}`);
    }
    if (Object.getOwnPropertyNames(Object.prototype).join() !== prototypeKeys)
      problems.push('Object.prototype poluído');
    // An id in an address is plain decimal digits (no sign, space, point, exponent, hex or leading zero): any
    // other spelling opens nothing.
    for (const param of op.pathParams) {
      const value = req.params[param.name];
      // A saved view's or an export's id is a UUID, in its one spelling (either case).
      const isUuid = param.name === 'visaoId' || param.name === 'exportacaoId';
      const isId = !isUuid && (param.name === 'id' || /Id$/.test(param.name));
      if (isId && value !== undefined && !/^(0|[1-9][0-9]*)$/.test(value) && res.statusCode < 300) {
        problems.push(`o id '${value}' foi aceito (${res.statusCode})`);
      }
      if (
        isUuid &&
        value !== undefined &&
        !/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(value) &&
        res.statusCode < 300
      ) {
        problems.push(`o id '${value}' foi aceito (${res.statusCode})`);
      }
    }
    const tally = (statusesByOperation[op.key] ??= {});
    tally[res.statusCode] = (tally[res.statusCode] ?? 0) + 1;
    const readBack = readBacks[op.key];
    if (readBack && res.statusCode < 300 && req.payload !== undefined) {
      problems.push(...(await readBack(req, JSON.parse(req.payload), res)));
    }
    if (problems.length > 0) {
      throw new Error(
        `${problems.join('; ')}\n  ${caller}: ${req.method} ${req.url.slice(0, 300)}\n  cabeçalhos: ${JSON.stringify(req.headers)}` +
          `\n  corpo: ${JSON.stringify(req.payload?.slice(0, 300))}\n  resposta ${res.statusCode}: ${res.body.slice(0, 300)}`,
      );
    }
  }

  it('reads the operations from the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(15);
    expect(operations.map((op) => op.key)).toEqual(
      expect.arrayContaining(['POST /api/classificacoes', 'PUT /api/paineis/{id}', 'POST /api/auth/login']),
    );
  });

  operations.forEach((op, index) => {
    it(op.key, { timeout: 300_000 }, async () => {
      const perOperation = Math.ceil(REQUESTS / operations.length);
      // Administrators reach every route's code; users mostly meet the permission check.
      const runs = { admin: Math.ceil((perOperation * 2) / 3), user: perOperation - Math.ceil((perOperation * 2) / 3) };
      for (const [i, caller] of (['admin', 'user'] as const).entries()) {
        const seed = (SEED + index * 7919 + i * 104_729) % 2 ** 31;
        const arbitrary = fc.oneof(
          requestFor(op, { known: KNOWN, hostility: 0.25 }),
          // Nearly valid requests (only their texts hostile now and then), so many are accepted and read back.
          requestFor(op, { known: KNOWN, hostility: 0 }),
        );
        try {
          await fc.assert(
            fc.asyncProperty(arbitrary, (req) => attempt(op, caller, req)),
            { seed, numRuns: runs[caller] },
          );
        } catch (error) {
          const { message, cause } = error as Error;
          throw new Error(
            `${op.key} como ${caller} (FUZZ_SEED=${SEED}):\n${(cause as Error | undefined)?.message ?? ''}\n${message}`,
          );
        }
      }
    });
  });

  it(`fuzzed at least ${REQUESTS} requests`, () => {
    const seconds = (performance.now() - started) / 1000;
    const byStatus = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    const ms = (what: 'requests' | 'fingerprints' | 'worlds') => `${what} ${(spent[what] / 1000).toFixed(1)} s`;
    console.warn(
      `fuzz: ${fuzzed} requisições geradas (${requests} com as releituras) em ${seconds.toFixed(1)} s (seed ${SEED}); ${byStatus}; ` +
        `${ms('requests')}, ${ms('fingerprints')}, ${ms('worlds')} (${spent.newWorlds} mundos novos)`,
    );
    for (const [key, tally] of Object.entries(statusesByOperation)) {
      console.warn(
        `  ${key}: ${Object.entries(tally)
          .map(([s, n]) => `${s}: ${n}`)
          .join(', ')}`,
      );
    }
    expect(fuzzed).toBeGreaterThanOrEqual(REQUESTS);
  });
});
