import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paginaAuditoria, type RegistroAuditoria } from '@paineis/contract/audit';
import type { UsoDetalhePainel, UsoPaineis, UsoPorDia, UsoSemLogin } from '@paineis/contract/usage';
import { useTestApp } from '../../test/context.ts';
import { resetDatabase } from '../../test/database.ts';
import { createAdmin } from '../../test/fixtures.ts';
import { rows } from '../db/client.ts';
import { DEMO_ADMIN } from './demo-data.ts';
import { loadDemoData } from './load-demo-data.ts';
import { DEMO_ORIGIN, HISTORY_DAYS } from './demo-history.ts';

const DAY = 86_400_000;
/** The demo's local midnight (UTC−3) `daysAgo` days before `now`'s day. */
const midnight = (now: Date, daysAgo: number) =>
  (Math.floor((now.getTime() - 3 * 3_600_000) / DAY) - daysAgo) * DAY + 3 * 3_600_000;

interface View {
  usuario_id: string;
  painel_id: number;
  momento: Date | string;
  identidade: string | null;
  papeis: string[];
  request_id: string | null;
  carregado_ms: number | null;
  renderizado_ms: number | null;
  erros: string[];
  usa_rls: boolean;
  linked: boolean;
  role: string;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(p * sorted.length) - 1]!;
};

describe("the demo's 90 days of usage and audit history (demo-history.ts)", () => {
  const ctx = useTestApp();
  const now = new Date();

  const views = () =>
    rows<View>(
      ctx.db,
      sql`
      select v.usuario_id, v.painel_id, v.momento, v.identidade, v.papeis, v.request_id, v.carregado_ms,
             v.renderizado_ms, v.erros, p.usa_rls, u.role,
             exists (select 1 from painel_usuarios pu where pu.painel_id = v.painel_id and pu.usuario_id = v.usuario_id)
               as linked
      from visualizacoes v join paineis p on p.id = v.painel_id join usuarios u on u.id = v.usuario_id`,
    );

  it('seeds views over the last 90 days, by many people over most panels, in working hours, with load times and a few errors', async () => {
    expect(await loadDemoData(ctx.db, 300, now)).toBe(true);
    const seeded = await views();
    const [{ panels, people }] = (await rows<{ panels: number; people: number }>(
      ctx.db,
      sql`select (select count(*) from paineis)::int as panels, (select count(*) from usuarios)::int as people`,
    )) as [{ panels: number; people: number }];

    expect(seeded.length).toBeGreaterThan(2_000);
    expect(seeded.length).toBeLessThan(15_000);
    const moments = seeded.map((v) => new Date(v.momento).getTime());
    expect(Math.min(...moments)).toBeGreaterThanOrEqual(midnight(now, HISTORY_DAYS - 1));
    expect(Math.min(...moments)).toBeLessThan(midnight(now, HISTORY_DAYS - 3));
    expect(Math.max(...moments)).toBeLessThanOrEqual(now.getTime());
    const days = new Set(moments.map((t) => Math.floor((t - 3 * 3_600_000) / DAY)));
    expect(days.size).toBeGreaterThanOrEqual(80);

    // Many people over most panels, but not every panel: some were never opened.
    expect(new Set(seeded.map((v) => v.usuario_id)).size).toBeGreaterThan(people / 2);
    const perPanel = new Map<number, number>();
    for (const v of seeded) perPanel.set(v.painel_id, (perPanel.get(v.painel_id) ?? 0) + 1);
    expect(perPanel.size).toBeGreaterThan(panels * 0.75);
    expect(perPanel.size).toBeLessThanOrEqual(panels - 2);
    // Some panels much more popular than the others.
    const counts = [...perPanel.values()].sort((a, b) => b - a);
    expect(counts[0]!).toBeGreaterThan(3 * counts[Math.floor(counts.length / 2)]!);

    // Working days and hours (UTC−3): weekends are quiet, and so are the nights.
    const local = moments.map((t) => new Date(t - 3 * 3_600_000));
    const weekend = local.filter((d) => d.getUTCDay() === 0 || d.getUTCDay() === 6).length;
    expect(weekend / seeded.length).toBeLessThan(0.08);
    const office = local.filter((d) => d.getUTCHours() >= 8 && d.getUTCHours() < 19).length;
    expect(office / seeded.length).toBeGreaterThan(0.85);

    // Openings as the portal records them: a linked person (or the administrator), and on RLS panels an identity and
    // roles.
    for (const v of seeded) {
      expect(v.linked || v.role === 'Admin', `${v.usuario_id} abriu o painel ${v.painel_id}`).toBe(true);
      if (!v.usa_rls) expect([v.identidade, [...v.papeis]]).toEqual([null, []]);
    }
    const rls = seeded.filter((v) => v.identidade !== null);
    expect(rls.length).toBeGreaterThan(300);
    for (const v of rls) expect(v.papeis.length, v.identidade!).toBeGreaterThan(0);
    expect(rls.some((v) => v.identidade!.endsWith('@contoso.onmicrosoft.com'))).toBe(true);

    // Load times with a long tail; a few errors.
    const loaded = seeded.filter((v) => v.carregado_ms !== null).map((v) => v.carregado_ms!);
    expect(loaded.length / seeded.length).toBeGreaterThan(0.9);
    expect(percentile(loaded, 0.5)).toBeGreaterThan(800);
    expect(percentile(loaded, 0.5)).toBeLessThan(5_000);
    expect(percentile(loaded, 0.99)).toBeGreaterThan(2.5 * percentile(loaded, 0.5));
    for (const v of seeded) {
      if (v.carregado_ms !== null && v.renderizado_ms !== null) {
        expect(v.renderizado_ms).toBeGreaterThanOrEqual(v.carregado_ms);
      }
    }
    const failed = seeded.filter((v) => v.erros.length > 0);
    expect(failed.length).toBeGreaterThan(5);
    expect(failed.length / seeded.length).toBeLessThan(0.05);

    // Marked as demo data.
    expect(new Set(seeded.map((v) => v.request_id))).toEqual(new Set([DEMO_ORIGIN]));
  });

  it('seeds 90 days of audit records in the shapes the audit trail writes, and each person’s last sign-in', async () => {
    await loadDemoData(ctx.db, 300, now);
    const records = await rows<RegistroAuditoria & { momento: Date | string }>(
      ctx.db,
      sql`
      select id::int, momento, usuario_id as "usuarioId", usuario, endereco, objeto, objeto_id as "objetoId",
             objeto_nome as "objetoNome", acao, mudancas
      from auditoria order by id`,
    );
    expect(records.length).toBeGreaterThan(500);
    // Every record says where it came from; ids follow the moments, as the pages read them by id.
    expect(new Set(records.map((r) => r.endereco))).toEqual(new Set([DEMO_ORIGIN]));
    const moments = records.map((r) => new Date(r.momento).getTime());
    expect(moments).toEqual([...moments].sort((a, b) => a - b));
    expect(moments[0]).toBeGreaterThanOrEqual(midnight(now, HISTORY_DAYS - 1));
    expect(moments.at(-1)).toBeLessThanOrEqual(now.getTime());

    const kinds = new Map<string, number>();
    for (const r of records) kinds.set(`${r.objeto} ${r.acao}`, (kinds.get(`${r.objeto} ${r.acao}`) ?? 0) + 1);
    for (const kind of [
      'painel criacao',
      'painel alteracao',
      'vinculos alteracao',
      'rls alteracao',
      'classificacao criacao',
      'classificacao alteracao',
      'ordem alteracao',
      'sessao logout',
      'sessao login_recusado',
      'sessao limitado',
    ]) {
      expect(kinds.get(kind), kind).toBeGreaterThan(0);
    }
    expect(kinds.get('sessao login')).toBeGreaterThan(300);
    expect(kinds.get('sessao login_recusado')).toBeLessThan(20);

    // The shapes recordAudit and recordSignIn write, which '/auditoria' shows.
    const byKind = (objeto: string, acao: string) => records.filter((r) => r.objeto === objeto && r.acao === acao);
    for (const login of byKind('sessao', 'login')) {
      expect(login).toMatchObject({ objetoId: login.usuarioId, usuario: expect.stringContaining('@') as string });
      expect(login.mudancas).toEqual([{ campo: 'metodo', depois: expect.stringMatching(/^(Microsoft|Conta local)$/) }]);
    }
    for (const refused of [...byKind('sessao', 'login_recusado'), ...byKind('sessao', 'limitado')]) {
      expect(refused.mudancas.map((m) => m.campo)).toEqual(['metodo', 'motivo']);
    }
    const created = byKind('painel', 'criacao')[0]!;
    expect(created.usuario).toBe(DEMO_ADMIN.email);
    expect(created.mudancas).toContainEqual({ campo: 'nomePainel', depois: created.objetoNome });
    expect(created.mudancas.map((m) => m.campo)).toEqual(
      expect.arrayContaining(['workspaceId', 'reportId', 'usaRls', 'classificacao', 'ordem']),
    );
    for (const links of byKind('vinculos', 'alteracao')) {
      for (const m of links.mudancas) expect(m.campo).toMatch(/^usuarios\./);
    }
    for (const rls of byKind('rls', 'alteracao')) {
      for (const m of rls.mudancas) expect(m.campo).toMatch(/^papeis\./);
    }
    // Each change points at a panel or classification that exists, under its present name (renames aside).
    const panels = await rows<{ id: number; nome: string }>(ctx.db, sql`select id, nome_painel as nome from paineis`);
    for (const r of records.filter((r) => ['painel', 'vinculos', 'rls'].includes(r.objeto))) {
      expect(panels.find((p) => String(p.id) === r.objetoId)?.nome, r.objetoNome!).toBe(r.objetoNome);
    }
    // The API's own answer schema takes every record.
    expect(() =>
      paginaAuditoria.parse({
        registros: records.map((r) => ({ ...r, momento: new Date(r.momento).toISOString() })),
        proxima: null,
      }),
    ).not.toThrow();

    // Last sign-ins: the latest of each person's, and people who never signed in or not for a long time.
    const [logins] = await rows<{ wrong: number; signedIn: number; never: number; longAgo: number }>(
      ctx.db,
      sql`
      select
        (select count(*)::int from ultimos_logins l where l.momento <> (select max(a.momento) from auditoria a
           where a.usuario_id = l.usuario_id and a.acao = 'login')) as wrong,
        (select count(*)::int from ultimos_logins) as "signedIn",
        (select count(*)::int from usuarios u where not exists (select 1 from ultimos_logins l where l.usuario_id = u.id))
          as never,
        (select count(*)::int from ultimos_logins where momento < ${new Date(now.getTime() - 30 * DAY).toISOString()})
          as "longAgo"`,
    );
    expect(logins).toMatchObject({ wrong: 0 });
    expect(logins!.signedIn).toBeGreaterThan(200);
    expect(logins!.never).toBeGreaterThan(10);
    expect(logins!.longAgo).toBeGreaterThan(5);
  });

  it('is the same history for the same moment', async () => {
    const fingerprint = async () => {
      const [row] = await rows<Record<string, string>>(
        ctx.db,
        sql`
        select (select count(*) || ' ' || sum(coalesce(carregado_ms, 0)) || ' ' || md5(string_agg(id::text, ',' order by id))
                from visualizacoes) as views,
               (select count(*) || ' ' || md5(string_agg(mudancas::text, ',' order by id)) from auditoria) as audit`,
      );
      return row;
    };
    await loadDemoData(ctx.db, 300, now);
    const first = await fingerprint();
    await resetDatabase(ctx.database);
    await loadDemoData(ctx.db, 300, now);
    expect(await fingerprint()).toEqual(first);
  });

  it("answers '/uso' and '/auditoria' with the history at once, a snapshot made before the load notwithstanding", async () => {
    // Asked first with nothing recorded: the snapshot of the past days (ADR 011) holds nothing.
    const early = await createAdmin(ctx.db);
    const empty = await ctx.request('GET', '/api/uso/por-dia?dias=90', { token: await ctx.tokenFor(early) });
    expect(empty.json<UsoPorDia>().porDia.every((d) => d.visualizacoes === 0)).toBe(true);
    await resetDatabase(ctx.database);

    expect(await loadDemoData(ctx.db, 300, now)).toBe(true);
    const admin = await ctx.tokenFor(DEMO_ADMIN);
    const get = async <T>(url: string) => {
      const answer = await ctx.request('GET', url, { token: admin });
      expect(answer.statusCode, url).toBe(200);
      return answer.json<T>();
    };

    const perDay = await get<UsoPorDia>('/api/uso/por-dia?dias=90');
    expect(perDay.porDia).toHaveLength(90);
    expect(perDay.porDia.filter((d) => d.visualizacoes > 0).length).toBeGreaterThanOrEqual(80);
    expect(perDay.porDia.reduce((sum, d) => sum + d.pessoas, 0)).toBeGreaterThan(0);

    for (const dias of [7, 30, 90]) {
      const { paineis } = await get<UsoPaineis>(`/api/uso/paineis?dias=${dias}`);
      expect(paineis.filter((p) => p.visualizacoes > 0).length, `${dias} dias`).toBeGreaterThan(10);
      expect(paineis.filter((p) => p.visualizacoes === 0).length, `${dias} dias`).toBeGreaterThan(0);
      expect(paineis.filter((p) => p.carregadoP95 !== null).length, `${dias} dias`).toBeGreaterThan(10);
      const withoutSignIn = await get<UsoSemLogin>(`/api/uso/sem-login?dias=${dias}`);
      expect(withoutSignIn.total, `${dias} dias`).toBeGreaterThan(0);
      expect(withoutSignIn.pessoas.some((p) => p.ultimoLogin === null)).toBe(true);
    }
    const { paineis } = await get<UsoPaineis>('/api/uso/paineis?dias=90');
    expect(paineis.reduce((sum, p) => sum + p.erros, 0)).toBeGreaterThan(0);
    const vendas = paineis.find((p) => p.nomePainel === 'Vendas por Região')!;
    const detail = await get<UsoDetalhePainel>(`/api/uso/paineis/${vendas.painelId}?dias=30`);
    expect(detail.visualizacoes.length).toBeGreaterThan(0);
    expect(detail.visualizacoes.every((v) => v.identidade !== null && v.papeis.length > 0)).toBe(true);

    const page = await get<{ registros: RegistroAuditoria[]; proxima: number | null }>('/api/auditoria');
    expect(page.registros).toHaveLength(50);
    expect(page.proxima).not.toBeNull();
    expect(page.registros.every((r) => r.endereco === DEMO_ORIGIN)).toBe(true);
    const changes = await get<{ registros: RegistroAuditoria[] }>('/api/auditoria?objeto=painel');
    expect(changes.registros.length).toBeGreaterThan(0);
    const refused = await get<{ registros: RegistroAuditoria[] }>('/api/auditoria?acao=login_recusado');
    expect(refused.registros.length).toBeGreaterThan(0);
  });
});
