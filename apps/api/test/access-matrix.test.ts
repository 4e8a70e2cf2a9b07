import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import { SignJWT, UnsecuredJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StandInReport } from '@paineis/microsoft-stand-ins/types';
import type { DemoUser } from '../src/demo/demo-data.ts';
import type { PowerBiEmbeddingService } from '../src/integrations/power-bi/power-bi-embedding-service.ts';
import { rows } from '../src/db/client.ts';
import { hashPassword } from '../src/modules/auth/passwords.ts';
import { signSessionToken } from '../src/modules/auth/tokens.ts';
import { ensureLocalAccountUser } from '../src/modules/users/users.service.ts';
import { ADMIN_ONLY, SESSION_INVALID } from '../src/plugins/auth.ts';
import { readAccessMatrix, ruleBreaches, type CallerNumber } from './access-matrix.ts';
import { TEST_SECRET, useTestApp } from './context.ts';
import { resetDatabase } from './database.ts';
import { fingerprint, fingerprintDiff, type Fingerprint } from './db-fingerprint.ts';
import { classificacao, createAdmin, createUser, link, panelOver, seedGroups } from './fixtures.ts';
import { microsoftConfig, person, TEST_CAPACITY, useStandIns } from './microsoft.ts';
import { PANEL_NOT_FOUND } from '@paineis/contract/panels';
import { ASSINATURA_MESSAGES } from '@paineis/contract/subscriptions';
import { demoOutboxOf } from '../src/demo/demo-outbox.ts';
import { identityOf } from '../src/modules/subscriptions/recipients.ts';
import { DEFAULT_POLICY } from '../src/modules/capacity/capacity-policy.ts';

/**
 * Every route of the OpenAPI document, called as each of the ten callers of
 * docs/requirements.md#access-matrix, answers the status that table gives; and no refused call (401, 403, 404)
 * changes a row of any table or reaches Microsoft. The expectations are read from the document itself.
 */

const WORKSPACE = '0a0a0a0a-0000-4000-8000-00000000000a';
const REPORT: StandInReport = {
  workspaceId: WORKSPACE,
  reportId: '0b0b0b0b-0000-4000-8000-00000000000a',
  name: 'Vendas por Região',
  datasetId: '0c0c0c0c-0000-4000-8000-00000000000a',
  rls: true,
};
/** A report of the same workspace that is not a panel yet, for the import. */
const IMPORTABLE: StandInReport = {
  workspaceId: WORKSPACE,
  reportId: '0b0b0b0b-0000-4000-8000-00000000000c',
  name: 'Metas Trimestrais',
  datasetId: '0c0c0c0c-0000-4000-8000-00000000000c',
  rls: false,
};
const ROLE = 'Gestor';
const GROUP = '0d0d0d0d-0000-4000-8000-000000000001';
/** A view of a panel, as the viewer would report on one (none by this id exists: the report then changes nothing). */
const VIEW_ID = '0b6f2f4e-3c1a-4d8e-9a57-2f1e6c0d9b31';
const LOCAL = { username: 'maria.local', password: 'senha-forte-da-matriz-1' };
/** The mailbox the portal sends its subscriptions from, through Graph's sendMail (the stand-in's). */
const SENDER = person('d1d1d1d1-0000-4000-8000-000000000001', 'Pessoa do Diretório');
const REFUSAL_MESSAGE: Record<number, string> = {
  401: SESSION_INVALID,
  403: ADMIN_ONLY,
  404: PANEL_NOT_FOUND,
};
/** A subscription, and a subscription's file, are their owner's: anyone else's is 404 with their own message. */
function refusalMessage(path: string, status: number): string | undefined {
  if (status === 404 && path.startsWith('/api/assinaturas/arquivos/')) return ASSINATURA_MESSAGES.arquivoNaoEncontrado;
  if (status === 404 && path.startsWith('/api/assinaturas/')) return ASSINATURA_MESSAGES.naoEncontrada;
  return REFUSAL_MESSAGE[status];
}

interface Route {
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
}

interface Seeded {
  /** The stand-in's Azure capacity, put as each action's call needs it (an outside change, as in the Azure portal). */
  capacity: { pause(): void; resume(): void };
  admin: DemoUser;
  linked: DemoUser;
  unlinked: DemoUser;
  panelId: number;
  classificacaoId: number;
  /** A saved view and an export job of the linked user's and of the admin's own (each calls with theirs). */
  views: { linked: string; admin: string };
  exports: { linked: string; admin: string };
  /** Likewise a subscription of each, and a file of each from a delivery of theirs. */
  subscriptions: { linked: string; admin: string };
  files: { linked: string; admin: string };
  /** Each caller's Authorization headers (several ways of being that caller for some). */
  callers: Record<CallerNumber, Record<string, string>[]>;
  /** The database right after seeding: every cell starts from it. */
  state: Fingerprint;
}

/** What an allowed caller sends (the same goes to refused callers), and which stand-in it must reach. */
interface Call {
  body?: unknown;
  reaches?: 'powerBi' | 'graph';
}

/**
 * One entry per route of the OpenAPI document: a route missing here fails the test, as one missing from the
 * document's table does. Bodies are valid, so a refusal is the permission's, never the validation's.
 */
const CALLS: Record<string, (s: Seeded) => Call> = {
  'GET /healthz': () => ({}),
  'GET /readyz': () => ({}),
  'GET /api/auth/microsoft-login': () => ({}),
  'GET /api/auth/microsoft-callback': () => ({}),
  'POST /api/auth/login': () => ({ body: LOCAL }),
  'POST /api/auth/logout-complete': () => ({}),

  'GET /api/paineis': () => ({}),
  'GET /api/paineis/agrupados': () => ({}),
  'GET /api/paineis/proxima-ordem': () => ({}),
  'GET /api/paineis/proxima-ordem/{classificacaoId}': () => ({}),
  'GET /api/paineis/{id}': () => ({ reaches: 'powerBi' }),
  'GET /api/paineis/{id}/token': () => ({ reaches: 'powerBi' }),
  'POST /api/paineis': (s) => ({
    body: {
      nomePainel: 'Metas',
      workspaceId: WORKSPACE,
      reportId: '0b0b0b0b-0000-4000-8000-00000000000b',
      usaRls: false,
      classificacaoId: s.classificacaoId,
    },
  }),
  'PUT /api/paineis/{id}': (s) => ({
    body: {
      nomePainel: 'Vendas por Região (revisto)',
      workspaceId: WORKSPACE,
      reportId: REPORT.reportId,
      usaRls: true,
      classificacaoId: s.classificacaoId,
    },
  }),
  'DELETE /api/paineis/{id}': () => ({}),
  'POST /api/paineis/reorder': (s) => ({ body: [{ painelId: s.panelId, novaOrdem: 2 }] }),
  'GET /api/paineis/{id}/dados': () => ({}),
  'GET /api/paineis/{id}/configuracoes': () => ({}),

  'GET /api/paineis/{id}/rls': () => ({}),
  'POST /api/paineis/{id}/rls': (s) => ({
    body: [{ roleName: ROLE, userEmails: [s.linked.email, 'outra.pessoa@empresa.com.br'] }],
  }),
  'DELETE /api/paineis/{id}/rls': () => ({}),
  'GET /api/paineis/{id}/rls/roles': () => ({}),
  'GET /api/paineis/{id}/rls/roles/{role}/usuarios': () => ({}),
  'POST /api/paineis/{id}/rls/roles/{role}/usuarios': (s) => ({
    body: [s.linked.email, 'outra.pessoa@empresa.com.br'],
  }),
  'GET /api/paineis/{id}/usuarios': () => ({}),
  'POST /api/paineis/{id}/usuarios': (s) => ({ body: [s.linked.id, s.unlinked.id] }),
  'GET /api/paineis/{id}/grupos': () => ({}),
  'POST /api/paineis/{id}/grupos': () => ({ body: [GROUP] }),

  'GET /api/classificacoes': () => ({}),
  'POST /api/classificacoes': () => ({ body: { nome: 'Financeiro', descricao: null } }),
  'GET /api/classificacoes/admin': () => ({}),
  'GET /api/classificacoes/{id}': () => ({}),
  'PUT /api/classificacoes/{id}': () => ({ body: { nome: 'Comercial e Vendas', descricao: 'Vendas', ativo: true } }),
  'DELETE /api/classificacoes/{id}': () => ({}),

  'GET /api/usuarios365/ativos': () => ({}),
  'POST /api/usuarios365/sincronizar': () => ({ reaches: 'graph' }),
  'GET /api/grupos365': () => ({}),
  'GET /api/paineis/{id}/acesso': () => ({}),
  'GET /api/usuarios365/{id}/acesso': () => ({}),

  'GET /api/powerbi/workspaces': () => ({ reaches: 'powerBi' }),
  'GET /api/powerbi/workspaces/{workspaceId}/relatorios': () => ({ reaches: 'powerBi' }),
  'POST /api/paineis/importar': (s) => ({
    body: {
      classificacaoId: s.classificacaoId,
      relatorios: [{ workspaceId: WORKSPACE, reportId: IMPORTABLE.reportId }],
    },
    reaches: 'powerBi',
  }),
  'GET /api/paineis/atualizacoes': () => ({}),
  // Both start a round in the background (202): the test waits for it before the next cell.
  'POST /api/paineis/atualizacoes/verificar': () => ({}),
  'GET /api/paineis/saude': () => ({}),
  'POST /api/paineis/saude/verificar': () => ({}),

  'POST /api/paineis/{id}/visualizacoes/{visualizacaoId}': () => ({ body: { carregadoMs: 1200, renderizadoMs: 1800 } }),
  'GET /api/uso/por-dia': () => ({}),
  'GET /api/uso/paineis': () => ({}),
  'GET /api/uso/paineis/{id}': () => ({}),
  'GET /api/uso/sem-login': () => ({}),
  'GET /api/auditoria': () => ({}),

  'GET /api/favoritos': () => ({}),
  'PUT /api/favoritos/{painelId}': () => ({}),
  'DELETE /api/favoritos/{painelId}': () => ({}),
  'GET /api/recentes': () => ({}),
  'GET /api/paineis/{id}/visoes': () => ({}),
  'POST /api/paineis/{id}/visoes': () => ({ body: { nome: 'Região Sul', estado: 'estado-do-marcador', pagina: 'P1' } }),
  'GET /api/paineis/{id}/visoes/{visaoId}': () => ({}),
  'PATCH /api/paineis/{id}/visoes/{visaoId}': () => ({ body: { nome: 'Minha visão (revista)' } }),
  'DELETE /api/paineis/{id}/visoes/{visaoId}': () => ({}),
  'POST /api/paineis/{id}/exportacoes': () => ({ body: { formato: 'PDF' }, reaches: 'powerBi' }),
  'GET /api/paineis/{id}/exportacoes/{exportacaoId}': () => ({ reaches: 'powerBi' }),
  'GET /api/paineis/{id}/exportacoes/{exportacaoId}/arquivo': () => ({ reaches: 'powerBi' }),
  'POST /api/paineis/{id}/exportacoes-dados': () => ({
    body: { pagina: 'P1', visual: 'graficoVendasMes', tipo: 'subjacentes', linhas: 12 },
  }),

  'POST /api/assinaturas': (s) => ({
    body: { painelId: s.panelId, formato: 'PDF', frequencia: 'semanal', diaSemana: 1, hora: '07:30' },
  }),
  'GET /api/assinaturas': () => ({}),
  'GET /api/assinaturas/todas': () => ({}),
  'PATCH /api/assinaturas/{id}': () => ({ body: { ativa: false } }),
  'DELETE /api/assinaturas/{id}': () => ({}),
  // Queued only: the deliveries' worker is not started here, so nothing reaches Power BI or Graph.
  'POST /api/assinaturas/{id}/enviar-agora': () => ({}),
  'GET /api/assinaturas/arquivos/{id}': () => ({}),
  'GET /api/demonstracao/caixa-de-saida': () => ({}),
  'GET /api/demonstracao/caixa-de-saida/{id}/anexos/{indice}': () => ({}),
  'GET /api/alertas': () => ({}),
  'PUT /api/alertas': () => ({ body: { eventos: [], destinatarios: { usuarios: [], grupos: [] } } }),
  'GET /api/configuracao': () => ({}),
  // Each action on a capacity in the state it acts on (the stand-in's Azure ends each at once).
  'GET /api/capacidade': () => ({}),
  'GET /api/capacidade/historico': () => ({}),
  'PUT /api/capacidade/politica': () => ({ body: DEFAULT_POLICY }),
  'POST /api/capacidade/pausar': (s) => {
    s.capacity.resume();
    return { body: { motivo: 'Fim do expediente' } };
  },
  'POST /api/capacidade/retomar': (s) => {
    s.capacity.pause();
    return { body: { motivo: 'Fechamento do mês' } };
  },
  'PUT /api/capacidade/sku': (s) => {
    s.capacity.resume();
    return { body: { sku: 'A2' } };
  },
};

const CALLER_NAMES: Record<CallerNumber, string> = {
  1: 'anonymous',
  2: 'malformed token',
  3: 'bad signature',
  4: 'alg none',
  5: 'expired',
  6: 'revoked',
  7: 'wrong issuer or audience',
  8: 'user not linked',
  9: 'user linked',
  10: 'admin',
};
const CALLER_NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

const CAPACITY = TEST_CAPACITY;

describe('access matrix: every route of the OpenAPI document × every kind of caller', () => {
  const standIns = useStandIns({
    people: [SENDER],
    reports: [REPORT, IMPORTABLE],
    // An export is done at its first status request: its file is there for the matrix's download.
    exportDurationMs: 0,
    // The capacity's operations end at once: 'pausar' leaves it paused, 'retomar' running again.
    capacities: [CAPACITY],
    capacityTimings: { resumeMs: 0, suspendMs: 0, scaleMs: 0 },
  });
  // The capacity's clock runs ahead by more than its reading's few seconds at every look: each call reads Azure.
  let capacityNow = Date.now();
  // Sending through Graph (MAIL_SENDER), with the demo outbox over the stand-in, as demo mode has them.
  const ctx = useTestApp(() => ({
    config: microsoftConfig(standIns.current, {
      MAIL_SENDER: SENDER.mail!,
      POWER_BI_CAPACITY_ID: standIns.current.capacities.resourceId(CAPACITY.name),
    }),
    capacity: { clock: () => (capacityNow += 10_000) },
    powerBiOptions: { timeoutMs: 2000, sleep: async () => undefined },
    graphOptions: { sleep: async () => undefined },
    demoOutbox: demoOutboxOf(standIns.current.graph),
  }));
  const matrix = readAccessMatrix();
  let routes: Route[] = [];
  let passwordHash: string;
  /** A message of the demo outbox, with an attachment. */
  let sentMessageId: string;

  beforeAll(async () => {
    passwordHash = await hashPassword(LOCAL.password);
    await ctx.app.mail!.send({
      to: { address: 'vinculada@empresa.com.br', name: 'Pessoa Vinculada' },
      subject: 'Vendas por Região — 27/11/2026',
      html: '<p>Segue o relatório.</p>',
      text: 'Segue o relatório.',
      attachment: { filename: 'Vendas por Região.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF') },
      deliveryKey: 'matriz/vinculada',
    });
    sentMessageId = standIns.current.graph.sentMail()[0]!.id;
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, Record<string, unknown>> }>();
    routes = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((m) => {
        const method = m.toUpperCase() as Route['method'];
        return { key: `${method} ${path}`, method, path };
      }),
    );
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  /** A token with the server's claims for `user`, with any part changed. */
  function forge(user: DemoUser, changes: { secret?: string; issuer?: string; audience?: string } = {}) {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ name: user.email, email: user.email, role: user.role, displayName: user.displayName })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setJti(crypto.randomUUID())
      .setIssuer(changes.issuer ?? ctx.config.jwt.issuer)
      .setAudience(changes.audience ?? ctx.config.jwt.audience)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode(changes.secret ?? TEST_SECRET));
  }

  /** The known state every cell starts from: a panel with RLS and links, its classification, four people. */
  async function seed(): Promise<Seeded> {
    await resetDatabase(ctx.database);
    // Running, so that the seed's exports are served (a cell's 'pausar' may have left it paused).
    const arm = standIns.current.capacities;
    const capacity = { pause: () => arm.pause(CAPACITY.name), resume: () => arm.resume(CAPACITY.name) };
    capacity.resume();
    const admin = await createAdmin(ctx.db, { id: 'matriz-admin', email: 'admin.matriz@empresa.com.br' });
    const linked = await createUser(ctx.db, { id: 'matriz-vinculada', email: 'vinculada@empresa.com.br' });
    const unlinked = await createUser(ctx.db, { id: 'matriz-sem-vinculo', email: 'sem.vinculo@empresa.com.br' });
    const c = await classificacao(ctx.db, 'Comercial');
    const p = await panelOver(ctx.db, REPORT, {
      nomePainel: 'Vendas por Região',
      classificacaoId: c.id,
      usaRls: true,
      // Both people are in the role: the unlinked one is refused for the missing link alone.
      rlsConfigurations: [{ roleName: ROLE, userEmails: [linked.email, unlinked.email] }],
    });
    await link(ctx.db, p.id, [linked.id]);
    // A group with nobody in it, for the group links: linking it changes no one's access.
    await seedGroups(ctx.database, [{ id: GROUP, nome: 'Grupo da matriz' }]);
    // A local account for POST /api/auth/login (hashed once: argon2 is slow on purpose).
    await ensureLocalAccountUser(ctx.db, {
      id: 'local:maria',
      email: 'maria.local@empresa.com.br',
      displayName: 'Maria Local',
      role: 'User',
      source: 'local',
    });
    await ctx.db.execute(
      sql`insert into contas_locais (usuario_id, username, senha_hash) values ('local:maria', ${LOCAL.username}, ${passwordHash})`,
    );

    const tokenOf = async (user: DemoUser, ttl?: number) => (await signSessionToken(ctx.config.jwt, user, ttl)).token;
    // A saved view and an export job of each of the two people who may open the panel.
    const own = async (user: DemoUser, kind: 'visoes' | 'exportacoes', body: object) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/paineis/${p.id}/${kind}`,
        headers: bearer(await tokenOf(user)),
        payload: body,
      });
      expect(res.statusCode).toBeLessThan(300);
      return res.json<{ id: string }>().id;
    };
    const views = {
      linked: await own(linked, 'visoes', { nome: 'Minha visão', estado: 'estado-1' }),
      admin: await own(admin, 'visoes', { nome: 'Minha visão', estado: 'estado-2' }),
    };
    const exports = {
      linked: await own(linked, 'exportacoes', { formato: 'PDF' }),
      admin: await own(admin, 'exportacoes', { formato: 'PPTX' }),
    };
    const subscribe = async (user: DemoUser) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/assinaturas',
        headers: bearer(await tokenOf(user)),
        payload: { painelId: p.id, formato: 'PDF', frequencia: 'diaria', hora: '08:00' },
      });
      expect(res.statusCode).toBe(201);
      return res.json<{ id: string }>().id;
    };
    const subscriptions = { linked: await subscribe(linked), admin: await subscribe(admin) };
    // A file of a delivery too large to attach, as the deliveries keep one for its recipient: rendered with their identity.
    const file = async (usuarioId: string, assinaturaId: string) => {
      const identidade = (await identityOf(ctx.db, p.id, usuarioId, ctx.config.rlsUsername))!.key;
      const [row] = await rows<{ id: string }>(
        ctx.db,
        sql`
        with envio as (
          insert into envios_assinatura (assinatura_id, ocorrencia, estado) values (${assinaturaId}, now(), 'enviado')
          returning id
        ), arquivo as (
          insert into arquivos_assinatura (envio_id, identidade, nome, tipo, conteudo, tamanho, expira_em)
          select id, ${identidade}, 'Vendas por Região.pdf', 'application/pdf', ${Buffer.from('%PDF')}, 4, now() + interval '7 days'
          from envio returning id
        )
        insert into arquivo_destinatarios (arquivo_id, usuario_id) select id, ${usuarioId} from arquivo
        returning arquivo_id as id`,
      );
      return row!.id;
    };
    const files = {
      linked: await file(linked.id, subscriptions.linked),
      admin: await file(admin.id, subscriptions.admin),
    };
    const revoked = await tokenOf(admin);
    const signOut = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout-complete',
      headers: bearer(revoked),
    });
    expect(signOut.statusCode).toBe(204);
    const now = Math.floor(Date.now() / 1000);
    const unsigned = new UnsecuredJWT({ email: admin.email, role: 'Admin', displayName: admin.displayName })
      .setSubject(admin.id)
      .setJti(crypto.randomUUID())
      .setIssuer(ctx.config.jwt.issuer)
      .setAudience(ctx.config.jwt.audience)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 3600)
      .encode();

    const callers: Seeded['callers'] = {
      1: [{}],
      2: [{ authorization: 'Bearer abc' }, { authorization: `Basic ${await tokenOf(admin)}` }],
      3: [bearer(await forge(admin, { secret: 'outro-segredo-com-mais-de-32-caracteres-!!' }))],
      4: [bearer(unsigned)],
      5: [bearer(await tokenOf(admin, -60))],
      6: [bearer(revoked)],
      7: [
        bearer(await forge(admin, { issuer: 'https://outro-emissor.example' })),
        bearer(await forge(admin, { audience: 'outra-audiencia' })),
      ],
      8: [bearer(await tokenOf(unlinked))],
      9: [bearer(await tokenOf(linked))],
      10: [bearer(await tokenOf(admin))],
    };
    return {
      capacity,
      admin,
      linked,
      unlinked,
      panelId: p.id,
      classificacaoId: c.id,
      views,
      exports,
      subscriptions,
      files,
      callers,
      state: await fingerprint(ctx.db),
    };
  }

  /**
   * Saved views, export jobs, subscriptions and their files are their owner's: the admin calls with theirs, everyone
   * else with the linked user's.
   */
  function urlOf(route: Route, s: Seeded, caller: CallerNumber): string {
    const owner = caller === 10 ? 'admin' : 'linked';
    return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'id' && route.path.startsWith('/api/usuarios365/')) return s.linked.id;
      if (name === 'id' && route.path.startsWith('/api/assinaturas/arquivos/')) return s.files[owner];
      if (name === 'id' && route.path.startsWith('/api/assinaturas/')) return s.subscriptions[owner];
      if (name === 'id' && route.path.startsWith('/api/demonstracao/')) return sentMessageId;
      if (name === 'indice') return '0';
      if (name === 'id') return String(route.path.startsWith('/api/classificacoes/') ? s.classificacaoId : s.panelId);
      if (name === 'painelId') return String(s.panelId);
      if (name === 'visaoId') return s.views[owner];
      if (name === 'exportacaoId') return s.exports[owner];
      if (name === 'classificacaoId') return String(s.classificacaoId);
      if (name === 'role') return ROLE;
      if (name === 'visualizacaoId') return VIEW_ID;
      if (name === 'workspaceId') return WORKSPACE;
      throw new Error(`no test value for the path parameter {${name}} of ${route.key}: add one to urlOf`);
    });
  }

  it('the document’s table lists exactly the routes of the OpenAPI document, and every one has a call', () => {
    const published = routes.map((r) => r.key).sort();
    expect(published.length).toBeGreaterThan(30);
    expect({ 'routes of docs/requirements.md#access-matrix': [...matrix.keys()].sort() }).toEqual({
      'routes of docs/requirements.md#access-matrix': published,
    });
    expect({ 'routes with a call in CALLS': Object.keys(CALLS).sort() }).toEqual({
      'routes with a call in CALLS': published,
    });
  });

  it('the table follows the rules its section states', () => {
    expect([...matrix.values()].flatMap(ruleBreaches)).toEqual([]);
  });

  it('every cell answers the status of the table; refused calls change nothing and reach no stand-in', async () => {
    const embedding = ctx.app.embedding as PowerBiEmbeddingService;
    const microsoft = standIns.current;
    const wrong: string[] = [];
    let cells = 0;
    let requests = 0;
    let s = await seed();
    /** The database now, when known without asking (it is still the seed's after a refused call). */
    let current: Fingerprint | null = s.state;

    for (const route of routes) {
      const row = matrix.get(route.key);
      const callOf = CALLS[route.key];
      if (!row || !callOf) {
        wrong.push(`${route.key}: ${row ? 'no entry in CALLS' : 'no row in docs/requirements.md#access-matrix'}`);
        continue;
      }
      for (const caller of CALLER_NUMBERS) {
        cells += 1;
        const expected = row.status[caller];
        const refusal = refusalMessage(route.path, expected);
        const refused = refusal !== undefined;
        for (let variant = 0; variant < s.callers[caller].length; variant += 1) {
          // Every cell starts from the seeded state: an allowed call that changed something is undone first.
          if (!isDeepStrictEqual(current ?? (await fingerprint(ctx.db)), s.state)) s = await seed();
          const before = s.state;
          const headers = s.callers[caller][variant]!;
          const call = callOf(s);
          embedding.clear(); // a cached embed token would hide a call that reached Power BI
          const reached = { powerBi: microsoft.powerBi.requests.length, graph: microsoft.graph.requests.length };

          const res = await ctx.app.inject({
            method: route.method,
            url: urlOf(route, s, caller),
            headers,
            ...(call.body === undefined ? {} : { payload: call.body as object }),
          });
          requests += 1;
          const cell = `${route.key} as caller ${caller} (${CALLER_NAMES[caller]}${s.callers[caller].length > 1 ? `, variant ${variant + 1}` : ''})`;
          if (res.statusCode !== expected) {
            wrong.push(`${cell}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 200)}`);
          }
          const now = { powerBi: microsoft.powerBi.requests.length, graph: microsoft.graph.requests.length };

          if (refused) {
            if (res.statusCode === expected && res.body !== JSON.stringify({ message: refusal })) {
              wrong.push(`${cell}: expected the message "${refusal}", got ${res.body}`);
            }
            const after = await fingerprint(ctx.db);
            const changes = fingerprintDiff(before, after);
            if (changes.length > 0) wrong.push(`${cell}: a refused call changed the database: ${changes.join('; ')}`);
            if (!isDeepStrictEqual(now, reached)) {
              wrong.push(
                `${cell}: a refused call reached Microsoft (${JSON.stringify({ before: reached, after: now })})`,
              );
            }
            current = after;
          } else {
            if (call.reaches && now[call.reaches] === reached[call.reaches]) {
              wrong.push(`${cell}: an allowed call did not reach the ${call.reaches} stand-in`);
            }
            // Views of panels are written in the background: written now, before the next cell looks.
            await ctx.app.openingRecorder.flush();
            // ...and so are the rounds that read Power BI's refreshes and check each panel's report.
            await Promise.all([ctx.app.freshness?.idle(), ctx.app.panelHealth?.idle()]);
            current = null;
          }
        }
      }
    }

    expect(wrong).toEqual([]);
    expect(cells).toBe(routes.length * CALLER_NUMBERS.length);
    expect(requests).toBeGreaterThan(cells);
  }, 240_000);
});
