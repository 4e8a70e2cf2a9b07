import type { PastAuditRecord } from '../modules/audit/audit-history.ts';
import type { SignInMethod } from '../modules/audit/audit-record.ts';
import { LOGIN_INVALID, loginThrottled } from '../modules/auth/local-sign-in.ts';
import type { NewOpening } from '../modules/usage/usage.ts';
import { SIGN_IN_REFUSALS } from '../modules/users/users.service.ts';
import { random } from './seeded-random.ts';

/**
 * The demo's past: 90 days of openings of its panels and of its audit trail, so that '/uso' and '/auditoria' show
 * what a portal in use shows. Made in memory from the demo organisation (demo-data.ts) and a seeded generator, relative
 * to the moment of the load, and written in a few statements. Every record says it is demo data: the audit trail's
 * address is DEMO_ORIGIN, and so is each view's Power BI RequestId.
 */

/** Where the demo's records came from, in place of a network address or a Power BI RequestId. */
export const DEMO_ORIGIN = 'demonstração';
/** Days of history, today included: the longest period '/uso' offers. */
export const HISTORY_DAYS = 90;

export interface DemoPerson {
  id: string;
  email: string;
  /** The RLS identity (the directory's UPN). */
  upn: string;
}

export interface DemoPanel {
  id: number;
  nome: string;
  classificacao: string | null;
  classificacaoAtiva: boolean;
  ordem: number;
  workspaceId: string;
  reportId: string;
  usaRls: boolean;
  /** The ids of the people linked to it. */
  linked: string[];
  /** Its RLS roles in order, each with the e-mails it lists. */
  roles: { roleName: string; emails: string[] }[];
}

export interface DemoClassificacao {
  id: number;
  nome: string;
  descricao: string | null;
  ativo: boolean;
}

export interface DemoOrganisation {
  admin: DemoPerson;
  /** The demo's ordinary user, who sees most panels and opens them often. */
  user: DemoPerson;
  /** The guest, invited during the period. */
  guest: DemoPerson;
  people: DemoPerson[];
  panels: DemoPanel[];
  classificacoes: DemoClassificacao[];
}

export interface DemoHistory {
  views: NewOpening[];
  audit: PastAuditRecord[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The demo organisation works in Brazil: UTC−3 all year (no daylight saving time since 2019). */
const UTC_OFFSET = -3 * HOUR;
/** Sessions last 8 hours (JWT_TTL_HOURS); embed tokens an hour, used from the cache until 5 minutes before. */
const SESSION = 8 * HOUR;
const TOKEN_FROM_CACHE = 55 * MINUTE;
/** Panels opened in one visit to the portal, on average. */
const OPENINGS_PER_VISIT = 2.2;

/** How often each panel is chosen among a person's panels (1 when not named); 0: nobody opens it. */
const POPULARITY: Record<string, number> = {
  'Vendas por Região': 10,
  'Produção Diária': 8,
  'Fluxo de Caixa Mensal': 7,
  'Metas da Equipe Comercial': 6,
  'Entregas no Prazo (OTIF)': 5,
  'DRE Consolidada': 4,
  'Funil de Oportunidades': 4,
  'Nível de Estoque': 3.5,
  'Quadro de Colaboradores': 3,
  'OEE por Linha': 3,
  'Orçamento vs Realizado': 3,
  'Ranking de Vendedores': 2.5,
  'Devoluções e Trocas': 1.5,
  'Consumo de Energia': 0.6,
  Absenteísmo: 0.3,
  'Pesquisa de Clima': 0.3,
  'Treinamentos Realizados': 0,
  'Expansão Nordeste': 0,
  'Implantação do ERP (2023)': 0,
  'Painel de Testes da Equipe de BI': 0,
};
/** Opened about twice as often around the monthly close (the last 3 days of a month and its first 4). */
const MONTHLY_CLOSE = new Set([
  'Fluxo de Caixa Mensal',
  'DRE Consolidada',
  'Orçamento vs Realizado',
  'Contas a Pagar e Receber',
]);
/** Typical time to load and then to render (ms) of the heavier reports; the others take 1.2–2.6 s and 0.4–1.3 s. */
const LOAD_MS: Record<string, [number, number]> = {
  'Rastreamento da Frota': [4200, 2500],
  'Carteira de Clientes': [3600, 1400],
  'DRE Consolidada': [2900, 1100],
  'Custos por Centro de Custo': [2800, 1200],
  'Vendas por Região': [2300, 900],
};
/** What the viewer reports of a report that failed (powerbi-client's error event messages), and what loaded before. */
const FAILURES: { erro: string; weight: number; loaded: boolean }[] = [
  { erro: 'LoadReportFailed', weight: 5, loaded: false },
  { erro: 'QueryUserError', weight: 3, loaded: true },
  { erro: 'Fail to initialize - Could not resolve cluster', weight: 1, loaded: false },
  { erro: 'TokenExpired', weight: 1, loaded: true },
];
/** Openings by hour of the day (local time), on working days and at weekends. */
const WEEKDAY_HOURS = [
  0.05, 0.02, 0.02, 0.02, 0.02, 0.05, 0.2, 1, 5, 9, 10, 8, 3, 5, 9, 9, 7, 4, 2, 1, 0.6, 0.4, 0.2, 0.1,
];
const WEEKEND_HOURS = [0.1, 0.05, 0, 0, 0, 0, 0.1, 0.3, 1, 2, 3, 3, 2, 2, 2, 2, 2, 1.5, 1.5, 1, 1, 0.8, 0.4, 0.2];
/** Openings by day of the week (Sunday first), against an ordinary working day. */
const WEEKDAY_FACTOR = [0.05, 1.1, 1.05, 1, 1, 0.8, 0.12];

interface Opening {
  at: number;
  person: DemoPerson;
  panel: DemoPanel;
  /** An administrator previewing one RLS role ('Visualizar como'). */
  previewRole?: string;
}

/** The demo's 90 days of views and audit records, ending at `now`. */
export function demoHistory(org: DemoOrganisation, now: Date): DemoHistory {
  const rand = random(90);
  const nowMs = now.getTime();
  const today = Math.floor((nowMs + UTC_OFFSET) / DAY);
  /** The instant of a local time, `daysAgo` days before today (the administrator's changes: any second of the minute). */
  const at = (daysAgo: number, hour: number, minute = 0, second = (daysAgo * 37 + hour * 13 + minute * 7) % 60) =>
    (today - daysAgo) * DAY - UTC_OFFSET + hour * HOUR + minute * MINUTE + second * 1000;

  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const poisson = (mean: number) => {
    const limit = Math.exp(-mean);
    let k = 0;
    for (let p = rand(); p > limit; p *= rand()) k += 1;
    return k;
  };
  const pickWeighted = <T>(items: T[], weight: (item: T) => number): T | undefined => {
    const total = items.reduce((sum, item) => sum + weight(item), 0);
    let r = rand() * total;
    for (const item of items) {
      r -= weight(item);
      if (r < 0) return item;
    }
    return undefined;
  };
  const guid = () => {
    const h = Array.from({ length: 4 }, () =>
      Math.floor(rand() * 2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[Math.floor(rand() * 4)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };

  const panel = (nome: string) => {
    const found = org.panels.find((p) => p.nome === nome);
    if (!found) throw new Error(`Painel de demonstração desconhecido: ${nome}`);
    return found;
  };
  const classificacao = (nome: string) => {
    const found = org.classificacoes.find((c) => c.nome === nome);
    if (!found) throw new Error(`Classificação de demonstração desconhecida: ${nome}`);
    return found;
  };
  const byId = new Map([org.admin, org.user, org.guest, ...org.people].map((p) => [p.id, p]));

  // When each thing became possible: panels created, people linked, RLS turned on, people added to a role.
  const panelSince = new Map<number, number>();
  const panelUntil = new Map<number, number>();
  const linkSince = new Map<string, number>();
  const rlsSince = new Map<number, number>();
  const roleSince = new Map<string, number>();
  const memberSince = new Map<string, number>();
  const roleKey = (p: DemoPanel, role: string, email: string) => `${p.id}\n${role}\n${email}`;

  // ---- The administrator's changes, as the audit trail records them ----
  const audit: PastAuditRecord[] = [];
  const adminActivity: number[] = [];
  const admin = { usuarioId: org.admin.id, usuario: org.admin.email, endereco: DEMO_ORIGIN };
  const change = (momento: number, record: Omit<PastAuditRecord, 'momento' | keyof typeof admin>) => {
    audit.push({ ...admin, ...record, momento: new Date(momento) });
    adminActivity.push(momento);
  };
  const panelState = (p: DemoPanel, papeis: Record<string, Record<string, true>> = {}) => ({
    nomePainel: p.nome,
    workspaceId: p.workspaceId,
    reportId: p.reportId,
    usaRls: p.usaRls,
    permiteExportacao: true,
    classificacao: p.classificacao,
    ordem: p.ordem,
    papeis,
  });
  const members = (emails: string[]) => Object.fromEntries(emails.map((email) => [email, true as const]));
  const links = (p: DemoPanel, ids: string[]) =>
    Object.fromEntries(ids.map((id) => [id, byId.get(id)?.email ?? `${id}@desconhecido`]));
  // A panel pointed at a new report (republished in Power BI under another id).
  const reportReplaced = (p: DemoPanel, momento: number) =>
    change(momento, {
      objeto: 'painel',
      acao: 'alteracao',
      objetoId: p.id,
      objetoNome: p.nome,
      antes: { reportId: guid() },
      depois: { reportId: p.reportId },
    });
  const createPanel = (p: DemoPanel, momento: number) => {
    panelSince.set(p.id, momento);
    change(momento, { objeto: 'painel', acao: 'criacao', objetoId: p.id, objetoNome: p.nome, depois: panelState(p) });
  };
  const linkAll = (p: DemoPanel, momento: number) => {
    for (const id of p.linked) linkSince.set(`${p.id}\n${id}`, momento);
    change(momento, {
      objeto: 'vinculos',
      acao: 'alteracao',
      objetoId: p.id,
      objetoNome: p.nome,
      antes: { usuarios: {} },
      depois: { usuarios: links(p, p.linked) },
    });
  };
  const stateOf = (c: DemoClassificacao) => ({ nome: c.nome, descricao: c.descricao, ativo: c.ativo });
  const ordemChange = (momento: number, grupo: string, swapped: [string, string]) => {
    const own = org.panels.filter((p) => p.classificacao === grupo);
    const label = (p: DemoPanel) => `${p.nome} (#${p.id})`;
    const [a, b] = swapped.map(panel) as [DemoPanel, DemoPanel];
    change(momento, {
      objeto: 'ordem',
      acao: 'alteracao',
      antes: Object.fromEntries(own.map((p) => [label(p), p === a ? b.ordem : p === b ? a.ordem : p.ordem] as const)),
      depois: Object.fromEntries(own.map((p) => [label(p), p.ordem])),
    });
  };
  /** People of the demo not linked to a panel: the ones an administrator unlinked, or had never linked. */
  const notLinked = (p: DemoPanel, count: number) =>
    org.people.filter((person) => !p.linked.includes(person.id)).slice(p.id % 7, (p.id % 7) + count);

  // The logistics area came to the portal at the start of the period: its classification, its panels, their people.
  const logistica = classificacao('Logística');
  change(at(87, 10, 12), {
    objeto: 'classificacao',
    acao: 'criacao',
    objetoId: logistica.id,
    objetoNome: logistica.nome,
    depois: { ...stateOf(logistica), descricao: 'Estoques e entregas.' },
  });
  org.panels
    .filter((p) => p.classificacao === logistica.nome)
    .forEach((p, i) => {
      createPanel(p, at(86, 10, 20 + 4 * i));
      linkAll(p, at(86, 11, 5 + 3 * i));
    });

  const vendas = panel('Vendas por Região');
  reportReplaced(vendas, at(80, 15, 30));

  // A third region's role on a panel with RLS.
  const inadimplencia = panel('Inadimplência por Região');
  const nordeste = inadimplencia.roles.find((r) => r.roleName === 'Nordeste');
  if (nordeste) {
    const momento = at(76, 9, 45);
    roleSince.set(roleKey(inadimplencia, nordeste.roleName, ''), momento);
    for (const email of nordeste.emails) memberSince.set(roleKey(inadimplencia, nordeste.roleName, email), momento);
    change(momento, {
      objeto: 'rls',
      acao: 'alteracao',
      objetoId: inadimplencia.id,
      objetoNome: inadimplencia.nome,
      antes: { papeis: {} },
      depois: { papeis: { [nordeste.roleName]: members(nordeste.emails) } },
    });
  }

  // Finished projects archived: their classification made inactive.
  const encerrados = org.classificacoes.find((c) => !c.ativo);
  if (encerrados) {
    const momento = at(66, 16, 10);
    for (const p of org.panels.filter((p) => p.classificacao === encerrados.nome)) panelUntil.set(p.id, momento);
    change(momento, {
      objeto: 'classificacao',
      acao: 'alteracao',
      objetoId: encerrados.id,
      objetoNome: encerrados.nome,
      antes: { ...stateOf(encerrados), descricao: 'Painéis de projetos em andamento.', ativo: true },
      depois: stateOf(encerrados),
    });
  }

  change(at(60, 14, 0), {
    objeto: 'classificacao',
    acao: 'alteracao',
    objetoId: logistica.id,
    objetoNome: logistica.nome,
    antes: { ...stateOf(logistica), descricao: 'Estoques e entregas.' },
    depois: stateOf(logistica),
  });

  // Cost centres: RLS turned on, each manager seeing their own.
  const custos = panel('Custos por Centro de Custo');
  if (custos.usaRls) {
    const momento = at(55, 10, 30);
    rlsSince.set(custos.id, momento);
    for (const role of custos.roles) {
      roleSince.set(roleKey(custos, role.roleName, ''), momento);
      for (const email of role.emails) memberSince.set(roleKey(custos, role.roleName, email), momento);
    }
    change(momento, {
      objeto: 'painel',
      acao: 'alteracao',
      objetoId: custos.id,
      objetoNome: custos.nome,
      antes: { usaRls: false, papeis: {} },
      depois: {
        usaRls: true,
        papeis: Object.fromEntries(custos.roles.map((r) => [r.roleName, members(r.emails)])),
      },
    });
  }

  ordemChange(at(50, 11, 15), 'Comercial', ['Funil de Oportunidades', 'Ticket Médio por Canal']);

  const energia = panel('Consumo de Energia');
  createPanel(energia, at(42, 9, 30));
  linkAll(energia, at(42, 9, 50));

  // The supplier's consultant, a guest, invited to one panel and one of its roles.
  const guestSince = at(40, 14, 20);
  linkSince.set(`${vendas.id}\n${org.guest.id}`, guestSince);
  change(guestSince, {
    objeto: 'vinculos',
    acao: 'alteracao',
    objetoId: vendas.id,
    objetoNome: vendas.nome,
    antes: { usuarios: {} },
    depois: { usuarios: links(vendas, [org.guest.id]) },
  });
  const guestRole = vendas.roles.find((r) => r.emails.includes(org.guest.email));
  if (guestRole) {
    const momento = at(40, 14, 22);
    memberSince.set(roleKey(vendas, guestRole.roleName, org.guest.email), momento);
    change(momento, {
      objeto: 'rls',
      acao: 'alteracao',
      objetoId: vendas.id,
      objetoNome: vendas.nome,
      antes: { papeis: { [guestRole.roleName]: {} } },
      depois: { papeis: { [guestRole.roleName]: members([org.guest.email]) } },
    });
  }

  const clima = panel('Pesquisa de Clima');
  change(at(35, 16, 40), {
    objeto: 'painel',
    acao: 'alteracao',
    objetoId: clima.id,
    objetoNome: clima.nome,
    antes: { nomePainel: 'Clima Organizacional' },
    depois: { nomePainel: clima.nome },
  });

  const metas = panel('Metas da Equipe Comercial');
  const newcomers = metas.linked.filter((id) => id !== org.user.id).slice(-3);
  for (const id of newcomers) linkSince.set(`${metas.id}\n${id}`, at(25, 10, 5));
  change(at(25, 10, 5), {
    objeto: 'vinculos',
    acao: 'alteracao',
    objetoId: metas.id,
    objetoNome: metas.nome,
    antes: { usuarios: {} },
    depois: { usuarios: links(metas, newcomers) },
  });

  const producao = panel('Produção Diária');
  const joinville = producao.roles.at(-1);
  if (joinville) {
    const added = joinville.emails.filter((email) => email !== org.user.email).slice(0, 3);
    for (const email of added) memberSince.set(roleKey(producao, joinville.roleName, email), at(21, 15, 0));
    change(at(21, 15, 0), {
      objeto: 'rls',
      acao: 'alteracao',
      objetoId: producao.id,
      objetoNome: producao.nome,
      antes: { papeis: { [joinville.roleName]: {} } },
      depois: { papeis: { [joinville.roleName]: members(added) } },
    });
  }

  const ranking = panel('Ranking de Vendedores');
  change(at(18, 11, 30), {
    objeto: 'painel',
    acao: 'alteracao',
    objetoId: ranking.id,
    objetoNome: ranking.nome,
    antes: { permiteExportacao: false },
    depois: { permiteExportacao: true },
  });

  const devolucoes = panel('Devoluções e Trocas');
  createPanel(devolucoes, at(12, 9, 40));
  linkAll(devolucoes, at(12, 9, 55));

  // People who changed jobs: two unlinked, two linked.
  const quadro = panel('Quadro de Colaboradores');
  const joined = quadro.linked.filter((id) => id !== org.user.id).slice(0, 2);
  for (const id of joined) linkSince.set(`${quadro.id}\n${id}`, at(7, 14, 45));
  const left = notLinked(quadro, 3);
  change(at(7, 14, 45), {
    objeto: 'vinculos',
    acao: 'alteracao',
    objetoId: quadro.id,
    objetoNome: quadro.nome,
    antes: {
      usuarios: links(
        quadro,
        left.slice(0, 2).map((p) => p.id),
      ),
    },
    depois: { usuarios: links(quadro, joined) },
  });
  const gestor = quadro.roles.at(-1);
  const leaver = left[2];
  if (gestor && leaver) {
    change(at(7, 14, 52), {
      objeto: 'rls',
      acao: 'alteracao',
      objetoId: quadro.id,
      objetoNome: quadro.nome,
      antes: { papeis: { [gestor.roleName]: members([leaver.email]) } },
      depois: { papeis: { [gestor.roleName]: {} } },
    });
  }

  const testes = org.panels.find((p) => p.classificacao === null);
  if (testes) createPanel(testes, at(5, 17, 10));

  reportReplaced(panel('Ocupação de Armazéns'), at(3, 10, 50));

  ordemChange(at(1, 16, 30), 'Operações', ['OEE por Linha', 'Paradas de Máquina']);

  // ---- Openings ----
  const openings: Opening[] = [];
  const canOpen = (person: DemoPerson, p: DemoPanel, t: number, asAdmin: boolean) =>
    t > (panelSince.get(p.id) ?? -Infinity) + 10 * MINUTE &&
    t < (panelUntil.get(p.id) ?? Infinity) &&
    (asAdmin || (p.classificacaoAtiva && t > (linkSince.get(`${p.id}\n${person.id}`) ?? -Infinity)));
  /**
   * The roles an opening's embed token carries (panel-access.ts): an administrator's, every role the panel had then;
   * a user's, the roles that listed them then; null when none did, which Power BI would refuse.
   */
  const rolesAt = (person: DemoPerson, p: DemoPanel, t: number, asAdmin: boolean): string[] | null => {
    if (!p.usaRls || t < (rlsSince.get(p.id) ?? -Infinity)) return [];
    const own = p.roles.filter(
      (r) =>
        t > (roleSince.get(roleKey(p, r.roleName, '')) ?? -Infinity) &&
        (asAdmin ||
          (r.emails.includes(person.email) &&
            t > (memberSince.get(roleKey(p, r.roleName, person.email)) ?? -Infinity))),
    );
    return own.length > 0 ? own.map((r) => r.roleName) : null;
  };

  /** A moment within a day, by the hour's weight. */
  const momentOn = (daysAgo: number, weekend: boolean) => {
    const hour = pickWeighted(
      Array.from({ length: 24 }, (_, h) => h),
      (h) => (weekend ? WEEKEND_HOURS : WEEKDAY_HOURS)[h]!,
    )!;
    return at(daysAgo, hour, Math.floor(rand() * 60), Math.floor(rand() * 60));
  };

  interface Habit {
    person: DemoPerson;
    /** Openings on an ordinary working day. */
    rate: number;
    panels: DemoPanel[];
    asAdmin: boolean;
    /** Days ago of the first and last day they use the portal. */
    first: number;
    last: number;
  }
  const habits: Habit[] = [];
  const linkedPanels = (person: DemoPerson) =>
    org.panels.filter((p) => p.linked.includes(person.id) && p.classificacaoAtiva && (POPULARITY[p.nome] ?? 1) > 0);
  for (const person of org.people) {
    const kind = rand();
    // About one in eight never signs in; some stopped during the period, some joined during it.
    if (kind < 0.12) continue;
    const rate = Math.min(5, 0.24 * Math.exp(0.9 * gauss()));
    const last = kind < 0.19 ? 20 + Math.floor(rand() * 65) : 0;
    const first = kind > 0.95 ? 5 + Math.floor(rand() * 40) : HISTORY_DAYS - 1;
    // Whoever sees the panels most people open comes more often.
    const panels = linkedPanels(person);
    const pull = panels.reduce((sum, p) => sum + (POPULARITY[p.nome] ?? 1), 0) / 6;
    habits.push({ person, rate: rate * Math.min(3, Math.max(0.3, pull)), panels, asAdmin: false, first, last });
  }
  habits.push({ person: org.user, rate: 1.6, panels: linkedPanels(org.user), asAdmin: false, first: 89, last: 0 });
  habits.push({ person: org.guest, rate: 0.7, panels: [vendas], asAdmin: false, first: 39, last: 0 });
  habits.push({
    person: org.admin,
    rate: 2.5,
    panels: org.panels.filter((p) => (POPULARITY[p.nome] ?? 1) > 0),
    asAdmin: true,
    first: 89,
    last: 0,
  });

  const activity = new Map<string, number[]>([[org.admin.id, adminActivity]]);
  const activityOf = (person: DemoPerson, t: number) => {
    let list = activity.get(person.id);
    if (!list) activity.set(person.id, (list = []));
    list.push(t);
  };
  for (let daysAgo = HISTORY_DAYS - 1; daysAgo >= 0; daysAgo--) {
    const date = new Date((today - daysAgo) * DAY);
    const weekday = date.getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    // Slowly more use over the period, and days not quite alike.
    const dayFactor =
      WEEKDAY_FACTOR[weekday]! * (0.85 + 0.3 * (1 - daysAgo / (HISTORY_DAYS - 1))) * Math.exp(0.12 * gauss());
    const dayOfMonth = date.getUTCDate();
    const daysInMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    const closing = dayOfMonth <= 4 || dayOfMonth > daysInMonth - 3;
    const weight = (p: DemoPanel) =>
      (POPULARITY[p.nome] ?? 1) ** 1.3 * (closing && MONTHLY_CLOSE.has(p.nome) ? 2.5 : 1);
    for (const habit of habits) {
      if (daysAgo > habit.first || daysAgo < habit.last) continue;
      // Visits: one panel, often a few more in a row, minutes apart (about two openings a visit).
      const visits = poisson((habit.rate / OPENINGS_PER_VISIT) * dayFactor);
      if (habit.panels.length === 0) {
        // Linked to nothing yet: they sign in now and then, and find nothing to open.
        if (visits > 0 && rand() < 0.08) activityOf(habit.person, momentOn(daysAgo, weekend));
        continue;
      }
      for (let visit = 0; visit < visits; visit++) {
        let t = momentOn(daysAgo, weekend);
        const opened = new Set<DemoPanel>();
        do {
          const p = pickWeighted(habit.panels, (candidate) => (opened.has(candidate) ? 0 : weight(candidate)));
          if (p) opened.add(p);
          if (p && t < nowMs && canOpen(habit.person, p, t, habit.asAdmin)) {
            const opening: Opening = { at: t, person: habit.person, panel: p };
            if (habit.asAdmin && p.usaRls && rand() < 0.3) {
              const roles = rolesAt(habit.person, p, t, true) ?? [];
              const role = roles[Math.floor(rand() * roles.length)];
              if (role) opening.previewRole = role;
            }
            openings.push(opening);
            activityOf(habit.person, t);
          }
          t += Math.round((0.5 - 6 * Math.log(1 - rand())) * MINUTE);
        } while (rand() < 1 - 1 / OPENINGS_PER_VISIT);
      }
    }
  }
  // The administrator's only panel of the archived classification, looked at before it was archived.
  const expansao = org.panels.find((p) => p.nome === 'Expansão Nordeste');
  if (expansao) {
    for (const [daysAgo, hour] of [
      [84, 10],
      [77, 15],
      [70, 11],
    ] as const) {
      const t = at(daysAgo, hour, 12);
      openings.push({ at: t, person: org.admin, panel: expansao });
      activityOf(org.admin, t);
    }
  }

  // ---- Views: in order of time, so that an embed token made for one opening serves the next ones from the cache ----
  openings.sort((a, b) => a.at - b.at);
  const tokens = new Map<string, number>();
  const loadTimes = new Map<number, [number, number]>(
    org.panels.map((p) => [p.id, LOAD_MS[p.nome] ?? [1200 + rand() * 1400, 400 + rand() * 900]]),
  );
  const views: NewOpening[] = [];
  for (const o of openings) {
    const asAdmin = o.person === org.admin;
    const roles = rolesAt(o.person, o.panel, o.at, asAdmin);
    if (roles === null) continue; // in none of the panel's roles (yet): Power BI would have refused
    const papeis = o.previewRole ? [o.previewRole] : roles;
    const identidade = o.panel.usaRls && o.at >= (rlsSince.get(o.panel.id) ?? -Infinity) ? o.person.upn : null;
    const tokenKey = `${o.panel.reportId}\n${identidade ?? ''}\n${papeis.join('\n')}`;
    const made = tokens.get(tokenKey);
    const tokenDoCache = made !== undefined && o.at - made < TOKEN_FROM_CACHE;
    if (!tokenDoCache) tokens.set(tokenKey, o.at);

    const [load, render] = loadTimes.get(o.panel.id) ?? [1800, 800];
    const slow = rand() < 0.05;
    let carregadoMs: number | null = Math.round(
      load * Math.exp(0.35 * gauss()) * (slow ? 1.6 + rand() * 2.4 : 1) + (tokenDoCache ? 0 : 350 + rand() * 250),
    );
    let renderizadoMs: number | null = Math.round(
      carregadoMs + render * Math.exp(0.45 * gauss()) * (rand() < 0.03 ? 2 + rand() * 3 : 1),
    );
    let erros: string[] = [];
    const outcome = rand();
    if (outcome < 0.008 + (slow ? 0.05 : 0) + (load > 2500 ? 0.01 : 0)) {
      const failure = pickWeighted(FAILURES, (f) => f.weight)!;
      erros = [failure.erro];
      if (!failure.loaded) carregadoMs = null;
      renderizadoMs = null;
    } else if (outcome > 0.965) {
      // Closed before the report loaded, or before it rendered: the viewer reports what it knows.
      if (outcome > 0.985) carregadoMs = null;
      renderizadoMs = null;
    }
    views.push({
      id: guid(),
      momento: new Date(o.at),
      usuarioId: o.person.id,
      painelId: o.panel.id,
      identidade,
      papeis: identidade ? papeis : [],
      requestId: DEMO_ORIGIN,
      tokenDoCache,
      // Reopened at once (a reload): the recorder folds the two into one record.
      quantidade: rand() < 0.015 ? 2 : 1,
      carregadoMs,
      renderizadoMs,
      erros,
    });
  }

  // ---- Sign-ins and sign-outs: a session before each person's first activity, anew when the last one ran out ----
  const session = (person: DemoPerson) => ({ usuarioId: person.id, usuario: person.email, endereco: DEMO_ORIGIN });
  for (const [id, moments] of activity) {
    const person = byId.get(id)!;
    moments.sort((a, b) => a - b);
    const local = person === org.admin || person === org.user;
    let started = -Infinity;
    let lastSeen = -Infinity;
    const signOut = () => {
      // One session in five ends with 'Sair', a little after the last thing done in it.
      if (lastSeen === -Infinity || rand() >= 0.2) return;
      const momento = lastSeen + (3 + rand() * 40) * MINUTE;
      if (momento < Math.min(started + SESSION, nowMs)) {
        audit.push({ ...session(person), momento: new Date(momento), objeto: 'sessao', acao: 'logout', objetoId: id });
      }
    };
    for (const t of moments) {
      if (t - started < SESSION) {
        lastSeen = t;
        continue;
      }
      signOut();
      started = Math.max(lastSeen + MINUTE, t - (0.5 + rand() * 5) * MINUTE);
      lastSeen = t;
      const metodo: SignInMethod = local && rand() < 0.3 ? 'Conta local' : 'Microsoft';
      audit.push({
        ...session(person),
        momento: new Date(started),
        objeto: 'sessao',
        acao: 'login',
        objetoId: id,
        mudancas: [{ campo: 'metodo', depois: metodo }],
      });
    }
    signOut();
  }

  // ---- A few refused sign-ins: mistyped passwords, someone trying 'admin', a former employee, a stale link ----
  const refused = (
    momento: number,
    usuario: string | null,
    metodo: SignInMethod,
    motivo: string,
    options: { usuarioId?: string; acao?: 'login_recusado' | 'limitado' } = {},
  ) =>
    audit.push({
      usuarioId: options.usuarioId ?? null,
      usuario,
      endereco: DEMO_ORIGIN,
      momento: new Date(momento),
      objeto: 'sessao',
      acao: options.acao ?? 'login_recusado',
      mudancas: [
        { campo: 'metodo', depois: metodo },
        { campo: 'motivo', depois: motivo },
      ],
    });
  refused(at(83, 8, 52, 10), 'demo.admin', 'Conta local', LOGIN_INVALID);
  refused(at(61, 13, 10, 31), null, 'Microsoft', 'resposta do Entra ID recusada');
  for (let i = 0; i < 5; i++) refused(at(47, 2, 14, 5 + 8 * i), 'admin', 'Conta local', LOGIN_INVALID);
  refused(at(47, 2, 14, 48), 'admin', 'Conta local', loginThrottled(17), { acao: 'limitado' });
  refused(at(29, 9, 5, 12), null, 'Microsoft', SIGN_IN_REFUSALS.disabled, { usuarioId: guid() });
  refused(at(9, 18, 40, 3), 'demo.usuario', 'Conta local', LOGIN_INVALID);
  refused(at(2, 8, 31, 44), null, 'Microsoft', 'sem cookie de estado válido');

  return { views, audit: audit.filter((r) => r.momento.getTime() < nowMs) };
}
