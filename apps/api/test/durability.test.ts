import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseTarget } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { createUser } from './fixtures.ts';
import { seededRandom } from './random.ts';
import { printServerOutputOnFailure, startServer, type ServerProcess } from './server-process.ts';

/**
 * Durability: a real server process, a stream of writes over HTTP, SIGKILL at a random moment, a
 * restart on the same data; 20 times. Every write the server acknowledged (answered 2xx) must be there after the
 * restart. A write that was in flight at the kill (sent, no answer) may have happened or not, but whole: a
 * replacement leaves either the last acknowledged state or the one in flight, never an older one or a mix; a
 * creation leaves either nothing or the whole thing. Each lane of writes sends one request at a time, so at most
 * one write per lane is in flight at the kill, and "what is allowed" is exact.
 *
 * On the embedded database (PGlite in a temporary DATA_DIR) in the api:pglite project, and on PostgreSQL (a
 * database of its own, created and dropped here) in the api:postgres project.
 */

const engine = inject('database');
const RESTARTS = 20;
const ADMIN = { username: 'admin.duravel', password: 'senha-do-admin-duravel-123' };
const WORKSPACE = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const ROLE_NAMES = ['Sul', 'Norte', 'Leste', 'Oeste', 'Centro'];
const REORDERED = 8;
const USERS = 10;
const SEED = Number(process.env.DURABILITY_SEED ?? Date.now() % 1_000_000);

type Rls = { roleName: string; userEmails: string[]; grupos?: string[] }[];
type Order = Record<number, number>;
interface PanelRecord {
  nomePainel: string;
  reportId: string;
  classificacaoId: number;
  rls: Rls;
}
type InFlightCreate = { kind: 'classificacao'; nome: string } | ({ kind: 'painel' } & PanelRecord) | undefined;

/** A state replaced whole by each write: the last acknowledged one, and the one in flight if any. */
class Replaced<T> {
  inFlight: T | undefined;
  acked = 0;
  inFlightAtKill = 0;
  inFlightApplied = 0;
  constructor(
    readonly name: string,
    public last: T,
  ) {}
}

/** As the API answers it: e-mails sorted, and the groups (none here). */
const sortedRls = (rls: Rls): Rls =>
  rls.map((r) => ({ roleName: r.roleName, userEmails: [...r.userEmails].sort(), grupos: r.grupos ?? [] }));

describe(`${engine}: acknowledged writes survive SIGKILL, ${RESTARTS} restarts (seed ${SEED})`, () => {
  const random = seededRandom(SEED);
  const servers: ServerProcess[] = [];
  printServerOutputOnFailure(() => servers);
  let env: Record<string, string>;
  let dataDir: string | undefined;
  let pgAdmin: pg.Client | undefined;
  let databaseName: string | undefined;

  beforeAll(async () => {
    // The people to link exist before the first start: users come from the directory, not from this API.
    let target: DatabaseTarget;
    const common = {
      JWT_SECRET: 'segredo-de-sessao-da-durabilidade-0123456789',
      DEMO_MODE: 'false',
      PORTAL_ADMIN_USERNAME: ADMIN.username,
      PORTAL_ADMIN_PASSWORD: ADMIN.password,
      GRAPH_SYNC_INTERVAL_MINUTES: '0',
      LOG_LEVEL: 'warn',
    };
    if (engine === 'postgres') {
      pgAdmin = new pg.Client({ connectionString: inject('postgresUrl') });
      await pgAdmin.connect();
      const name = `paineis_dur_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      await pgAdmin.query(`create database ${name}`);
      databaseName = name;
      const url = new URL(inject('postgresUrl'));
      url.pathname = `/${name}`;
      target = { kind: 'postgres', url: url.toString(), poolSize: 2 };
      env = { ...common, DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: '4' };
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), 'paineis-durability-'));
      target = { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') };
      env = { ...common, DATA_DIR: dataDir };
    }
    const database = await openDatabase(target);
    try {
      await migrateDatabase(database);
      for (let i = 0; i < USERS; i++) await createUser(database.db);
    } finally {
      await database.close();
    }
  });

  afterAll(async () => {
    // SIGKILL exits at once; bounded all the same, so a stuck process cannot hold the run.
    const bounded = (p: Promise<unknown>) => Promise.race([p, new Promise((r) => setTimeout(r, 5000))]);
    await Promise.all(servers.map((s) => bounded(s.kill())));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (databaseName) await pgAdmin?.query(`drop database if exists ${databaseName} with (force)`);
    await pgAdmin?.end();
  });

  it('every acknowledged write is there after each SIGKILL and restart', { timeout: 240_000 }, async () => {
    const began = Date.now();
    // Ready within 30 s: about 1.5 s on an idle machine, 4 to 6 s with other test runs on its two cores.
    const start = () => startServer(env, { readyWithinMs: 30_000, onSpawn: (s) => servers.push(s) });
    let server = await start();
    let token = '';
    const violations: string[] = [];
    /** Acknowledged writes found missing, each once (a replacement: its state after one restart). */
    const lost = new Set<string>();

    /** One request; undefined when no answer came (the server died under it). */
    const http = async (method: 'GET' | 'POST' | 'PUT', urlPath: string, body?: unknown) => {
      try {
        const response = await fetch(server.url + urlPath, {
          method,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        });
        const text = await response.text();
        return { status: response.status, text, json: <T>() => JSON.parse(text) as T };
      } catch {
        return undefined;
      }
    };
    const read = async <T>(urlPath: string): Promise<T> => {
      const res = await http('GET', urlPath);
      expect(res?.status, `GET ${urlPath}: ${res?.text}`).toBe(200);
      return res!.json<T>();
    };

    // --- setup, acknowledged like any write: the admin's session, a classification of 8 panels to reorder ---
    const login = await http('POST', '/api/auth/login', ADMIN);
    expect(login?.status).toBe(200);
    token = login!.json<{ token: string }>().token;
    const users = (await read<{ id: string }[]>('/api/usuarios365/ativos')).map((u) => u.id);
    expect(users.length).toBeGreaterThanOrEqual(USERS);
    const k = await http('POST', '/api/classificacoes', { nome: 'Reordenada' });
    expect(k?.status).toBe(201);
    const reorderedClass = k!.json<{ id: number }>().id;
    const classes = new Map<number, string>([[reorderedClass, 'Reordenada']]);
    const panels = new Map<number, PanelRecord>();
    const reordered: number[] = [];
    for (let i = 1; i <= REORDERED; i++) {
      const body = {
        nomePainel: `Ordem ${i}`,
        workspaceId: WORKSPACE,
        reportId: randomUUID(),
        classificacaoId: reorderedClass,
        ordem: i,
      };
      const res = await http('POST', '/api/paineis', body);
      expect(res?.status).toBe(201);
      const id = res!.json<{ id: number }>().id;
      reordered.push(id);
      panels.set(id, { ...body, rls: [] });
    }
    const painelId = reordered[0]!;
    const order = new Replaced<Order>('order', Object.fromEntries(reordered.map((id, i) => [id, i + 1])));
    const rls = new Replaced<Rls>('rls', []);
    const links = new Replaced<string[]>('links', []);
    const created = { classificacoes: 0, paineis: 0, inFlightAtKill: 0, inFlightApplied: 0 };

    // --- the writers: four lanes, each one request at a time, until the kill ---
    let stopped = false;
    let seq = 0;
    let rlsTag = 0;
    let inFlightCreate: InFlightCreate;
    let createdThisCycle: number[] = [];

    /**
     * Sends one write: its answer when acknowledged; null when refused (a violation: none of these writes has a
     * reason to be, and then it did not happen); undefined when no answer came, so it stays in flight.
     */
    async function write(label: string, method: 'POST', urlPath: string, body: unknown, expected: number) {
      const res = await http(method, urlPath, body);
      if (!res) {
        if (!stopped) violations.push(`${label}: no answer before the kill`);
        return undefined;
      }
      if (res.status !== expected) {
        violations.push(`${label}: ${res.status} ${res.text}`);
        return null;
      }
      return res;
    }

    async function replacing<T>(aspect: Replaced<T>, next: () => T, urlPath: string, body: (s: T) => unknown) {
      while (!stopped) {
        const state = next();
        aspect.inFlight = state;
        const res = await write(aspect.name, 'POST', urlPath, body(state), aspect.name === 'order' ? 204 : 200);
        if (res === null) aspect.inFlight = undefined;
        if (!res) return;
        aspect.last = state;
        aspect.inFlight = undefined;
        aspect.acked++;
      }
    }

    async function creating() {
      while (!stopped) {
        seq++;
        if (seq % 5 === 1) {
          const nome = `Classe ${seq}`;
          inFlightCreate = { kind: 'classificacao', nome };
          const res = await write('classificacao', 'POST', '/api/classificacoes', { nome }, 201);
          if (res === null) inFlightCreate = undefined;
          if (!res) return;
          classes.set(res.json<{ id: number }>().id, nome);
          created.classificacoes++;
        } else {
          const choices = [0, ...[...classes.keys()].filter((id) => id !== reorderedClass)];
          const record: PanelRecord = {
            nomePainel: `Durável ${seq}`,
            reportId: randomUUID(),
            classificacaoId: random.pick(choices),
            rls: randomRls(`c${seq}`),
          };
          inFlightCreate = { kind: 'painel', ...record };
          const res = await write(
            'painel',
            'POST',
            '/api/paineis',
            {
              nomePainel: record.nomePainel,
              workspaceId: WORKSPACE,
              reportId: record.reportId,
              usaRls: true,
              classificacaoId: record.classificacaoId,
              rlsConfigurations: record.rls,
            },
            201,
          );
          if (res === null) inFlightCreate = undefined;
          if (!res) return;
          const id = res.json<{ id: number }>().id;
          panels.set(id, record);
          createdThisCycle.push(id);
          created.paineis++;
        }
        inFlightCreate = undefined;
      }
    }

    function randomRls(tag: string): Rls {
      return random
        .shuffle(ROLE_NAMES)
        .slice(0, random.int(1, 3))
        .map((roleName, j) => ({
          roleName,
          userEmails: Array.from({ length: random.int(0, 2) }, (_, n) => `${tag}.${j}.${n}@empresa.com.br`),
        }));
    }
    const randomOrder = (): Order => {
      const ordens = random.shuffle(reordered.map((_, i) => i + 1));
      return Object.fromEntries(reordered.map((id, i) => [id, ordens[i]!]));
    };

    /** A panel's roles, or its answer when it has none to give (a missing panel is reported, not thrown). */
    const rolesOf = async (id: number): Promise<Rls | string> => {
      const res = await http('GET', `/api/paineis/${id}/rls`);
      return res?.status === 200 ? res.json<Rls>() : `${res?.status ?? 'no answer'} ${res?.text ?? ''}`;
    };

    // --- after each restart: what must be there ---
    async function verify(cycle: number) {
      const where = `restart ${cycle}`;
      const classesNow = new Map(
        (await read<{ id: number; nome: string }[]>('/api/classificacoes/admin')).map((c) => [c.id, c.nome]),
      );
      for (const [id, nome] of classes) {
        if (classesNow.get(id) !== nome) {
          lost.add(`classification ${id}`);
          violations.push(`${where}: acknowledged classification ${id} '${nome}' is ${classesNow.get(id) ?? 'gone'}`);
        }
      }
      for (const [id, nome] of classesNow) {
        if (classes.has(id)) continue;
        if (inFlightCreate?.kind === 'classificacao' && inFlightCreate.nome === nome) {
          classes.set(id, nome);
          created.inFlightApplied++;
        } else violations.push(`${where}: classification ${id} '${nome}' was never written`);
      }

      type Listed = { id: number; nomePainel: string; reportId: string; classificacaoId: number; ordem: number };
      const panelsNow = new Map((await read<Listed[]>('/api/paineis')).map((p) => [p.id, p]));
      for (const [id, want] of panels) {
        const got = panelsNow.get(id);
        const same =
          got?.nomePainel === want.nomePainel &&
          got.reportId === want.reportId &&
          got.classificacaoId === want.classificacaoId;
        if (!same) {
          lost.add(`panel ${id}`);
          violations.push(`${where}: acknowledged panel ${id} ${JSON.stringify(want)} is ${JSON.stringify(got)}`);
        }
      }
      const toCheckRls = [...createdThisCycle];
      for (const [id, got] of panelsNow) {
        if (panels.has(id)) continue;
        const flight = inFlightCreate;
        if (
          flight?.kind === 'painel' &&
          flight.nomePainel === got.nomePainel &&
          flight.reportId === got.reportId &&
          flight.classificacaoId === got.classificacaoId
        ) {
          panels.set(id, flight);
          toCheckRls.push(id);
          created.inFlightApplied++;
        } else violations.push(`${where}: panel ${id} '${got.nomePainel}' was never written`);
      }
      // A panel is created with its roles in one transaction: all of them, or no panel.
      for (const id of toCheckRls) {
        const got = await rolesOf(id);
        if (!isDeepStrictEqual(got, sortedRls(panels.get(id)!.rls))) {
          lost.add(`panel ${id}`);
          violations.push(`${where}: panel ${id}'s roles ${JSON.stringify(got)} are not the ones it was created with`);
        }
      }

      const orderNow: Order = Object.fromEntries(
        [...panelsNow.values()].filter((p) => p.classificacaoId === reorderedClass).map((p) => [p.id, p.ordem]),
      );
      settle(where, order, orderNow, (a, b) => isDeepStrictEqual(a, b));
      settle(where, rls, await read<Rls>(`/api/paineis/${painelId}/rls`), (a, b) =>
        isDeepStrictEqual(sortedRls(a), sortedRls(b)),
      );
      const linkedNow = (await read<{ id: string }[]>(`/api/paineis/${painelId}/usuarios`)).map((u) => u.id);
      settle(where, links, linkedNow, (a, b) => isDeepStrictEqual([...new Set(a)].sort(), [...new Set(b)].sort()));
      inFlightCreate = undefined;
      createdThisCycle = [];
    }

    /** The state found must be the last acknowledged one or the one in flight; it is the baseline from now on. */
    function settle<T>(where: string, aspect: Replaced<T>, found: T, same: (a: T, b: T) => boolean) {
      if (aspect.inFlight !== undefined) aspect.inFlightAtKill++;
      if (same(found, aspect.last)) {
        // Also when the one in flight equals it: nothing to tell apart.
      } else if (aspect.inFlight !== undefined && same(found, aspect.inFlight)) {
        aspect.inFlightApplied++;
      } else {
        lost.add(`${aspect.name} at ${where}`);
        violations.push(
          `${where}: ${aspect.name} is ${JSON.stringify(found)}, neither the last acknowledged ` +
            `${JSON.stringify(aspect.last)} nor the one in flight ${JSON.stringify(aspect.inFlight)}`,
        );
      }
      aspect.last = found;
      aspect.inFlight = undefined;
    }

    const startTimes: number[] = [];
    for (let cycle = 1; cycle <= RESTARTS; cycle++) {
      stopped = false;
      const lanes = [
        creating(),
        replacing(order, randomOrder, '/api/paineis/reorder', (o) =>
          random.shuffle(Object.entries(o).map(([id, novaOrdem]) => ({ painelId: Number(id), novaOrdem }))),
        ),
        replacing(
          rls,
          () => randomRls(`r${++rlsTag}`),
          `/api/paineis/${painelId}/rls`,
          (s) => s,
        ),
        replacing(
          links,
          () => random.shuffle(users).slice(0, random.int(0, 6)),
          `/api/paineis/${painelId}/usuarios`,
          (s) => s,
        ),
      ];
      await new Promise((resolve) => setTimeout(resolve, random.int(200, 1500)));
      stopped = true;
      await server.kill();
      await Promise.all(lanes);
      if (inFlightCreate) created.inFlightAtKill++;

      server = await start();
      startTimes.push(server.readyAfterMs);
      await verify(cycle);
    }

    // Last, every created panel's roles, not only those of the latest cycle (the replaced ones are settled).
    for (const [id, record] of panels) {
      if (id === painelId) continue;
      const got = await rolesOf(id);
      if (!isDeepStrictEqual(got, sortedRls(record.rls))) {
        lost.add(`panel ${id}`);
        violations.push(`end: panel ${id}'s roles ${JSON.stringify(got)} are not ${JSON.stringify(record.rls)}`);
      }
    }
    await server.stop();

    const acked = created.classificacoes + created.paineis + order.acked + rls.acked + links.acked;
    const inFlight = created.inFlightAtKill + order.inFlightAtKill + rls.inFlightAtKill + links.inFlightAtKill;
    const applied = created.inFlightApplied + order.inFlightApplied + rls.inFlightApplied + links.inFlightApplied;
    startTimes.sort((a, b) => a - b);
    process.stdout.write(
      `\ndurability on ${engine}: ${RESTARTS} SIGKILLs and restarts, ${acked} writes acknowledged ` +
        `(${created.classificacoes} classifications, ${created.paineis} panels, ${order.acked} reorders, ` +
        `${rls.acked} RLS replacements, ${links.acked} link replacements), ${lost.size} lost; ` +
        `${inFlight} in flight at a kill, ${applied} of them applied; ` +
        `ready again after ${startTimes[0]}–${startTimes.at(-1)} ms (median ${startTimes[RESTARTS >> 1]}); ` +
        `${((Date.now() - began) / 1000).toFixed(1)} s in all (seed ${SEED})\n`,
    );
    expect(violations).toEqual([]);
    expect([...lost]).toEqual([]);
    expect(acked).toBeGreaterThan(RESTARTS * 4);
  });
});
