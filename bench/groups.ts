// Access by Entra group (docs/decisions/018-access-by-group.md) at an organisation's size (GROUP_SIZES in
// bench/budgets.ts): the Graph stand-in, in this process, serves 100,000 people and 5,000 security and Microsoft 365
// groups nested up to 5 deep; the real portal, in a process of its own as bench/api.ts starts it
// (bench/portal-process.ts --directory), syncs them over HTTP from an empty directory, with Graph's paging as the
// stand-in pages. Then, with each of the 2,000 panels linked to 3 groups:
// - the full sync's time (budget), and the portal's memory after it and after the reads (reported);
// - a change reaching a person's list: a panel's groups changed (POST /api/paineis/{id}/grupos), and a membership
//   changed in the stand-in then read by an incremental (delta) sync of the groups, each until the person's
//   GET /api/paineis/agrupados shows it (budget), with its parts (the write or the sync, then the recompute);
// - GET /api/paineis/{id}/acesso of a panel linked to the 3 largest groups, and GET /api/usuarios365/{id}/acesso of
//   a person in many groups: p95 of sequential requests after warm-up (budget);
// - the reads a person waits on when their panels come through groups, held to bench/api.ts's budgets with its
//   own measurement (ratio against the bare baseline and p99 at the fixed rate; p99 with 10 in flight).
//
// Alone: node --import tsx bench/part.ts groups <rows.json> [--quick]
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { portalEnvironment, startStandIns } from '../packages/microsoft-stand-ins/src/stand-ins.ts';
import type { StandInGroup, StandInPerson, StandIns } from '../packages/microsoft-stand-ins/src/types.ts';
import { measureReads } from './api.ts';
import { startBenchProcess, type BenchProcess } from './bench-process.ts';
import { BUDGETS_P99_MS, GROUP_BUDGETS_MS, GROUP_SIZES, SIZES } from './budgets.ts';
import { get } from './http-get.ts';
import type { DirectoryPortalReady, PortalMemory } from './portal-process.ts';
import { errorRow, formatNumber, median, quick, type BenchRow } from './report.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Quick mode (CI) checks that the part works, on a tenth of the directory. */
const SIZE = quick ? { ...GROUP_SIZES, people: 10_000, groups: 500 } : GROUP_SIZES;
/** Each change measured this many times each way (on, then off). */
const ROUNDS = quick ? 1 : 5;
/** Sequential requests of each /acesso, after WARM ones. */
const ACCESS_REQUESTS = quick ? 5 : 30;
const WARM = 3;
/** Longest wait for a change to show before the figure is an error. */
const CHANGE_TIMEOUT_MS = 60_000;

const ms = (value: number) => `${formatNumber(value, value < 10 ? 1 : 0)} ms`;
const mb = (bytes: number) => `${formatNumber(bytes / 1e6, 0)} MB`;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;

/** Entra object ids are GUIDs (the stand-in requires one in /groups/{id}). */
const guid = (prefix: string, i: number) => `${prefix}-0000-4000-8000-${String(i).padStart(12, '0')}`;
const personId = (i: number) => guid('00000000', i);
const groupId = (i: number) => guid('10000000', i);

/** The groups' levels, top first: how many of the groups each holds, and what they are called. */
const LEVELS = [
  { share: 0.01, name: 'Diretoria' },
  { share: 0.04, name: 'Superintendência' },
  { share: 0.15, name: 'Gerência' },
  { share: 0.3, name: 'Coordenação' },
  { share: 0.5, name: 'Equipe' },
];

interface Directory {
  people: StandInPerson[];
  groups: StandInGroup[];
  /** Group index → the indexes of the groups it is directly in. */
  parents: number[][];
  /** Group index → its level (0 at the top). */
  levelOf: number[];
  /** Each level's first group index and count. */
  levels: { first: number; count: number }[];
  /** Person index → the groups they are directly in. */
  direct: number[][];
}

/**
 * The directory: LEVELS of groups, each below the top nested in one group of the level above (one in ten of the
 * lower ones in a second one too); the second level spreads unevenly over the top (the first top groups hold far more
 * than the last), the others evenly. Each person is in a bottom group (an Equipe, a third of them Microsoft 365
 * groups), a third of them in a Coordenação too, one in ten in a Gerência, one in fifty in a Superintendência.
 */
export function makeDirectory(size: { people: number; groups: number }): Directory {
  const counts = LEVELS.map((level) => Math.max(1, Math.round(level.share * size.groups)));
  counts[counts.length - 1] = size.groups - counts.slice(0, -1).reduce((a, b) => a + b, 0);
  const levels: { first: number; count: number }[] = [];
  let first = 0;
  for (const count of counts) {
    levels.push({ first, count });
    first += count;
  }
  const members: string[][] = Array.from({ length: size.groups }, () => []);
  const parents: number[][] = Array.from({ length: size.groups }, () => []);
  const levelOf: number[] = [];
  for (const [k, level] of levels.entries()) for (let j = 0; j < level.count; j++) levelOf.push(k);
  const nest = (child: number, parent: number) => {
    if (parents[child]!.includes(parent)) return;
    parents[child]!.push(parent);
    members[parent]!.push(groupId(child));
  };
  for (let k = 1; k < levels.length; k++) {
    const above = levels[k - 1]!;
    const { first: start, count } = levels[k]!;
    for (let j = 0; j < count; j++) {
      const parent = k === 1 ? Math.floor(above.count * (j / count) ** 2) : Math.floor((j * above.count) / count);
      nest(start + j, above.first + parent);
      if (k >= 2 && j % 10 === 5 && above.count > 1) {
        nest(start + j, above.first + ((parent + Math.floor(above.count / 2)) % above.count));
      }
    }
  }
  const at = (k: number, n: number) => levels[k]!.first + (n % levels[k]!.count);
  const direct: number[][] = [];
  const people: StandInPerson[] = [];
  for (let i = 0; i < size.people; i++) {
    const mine = [at(4, i)];
    if (i % 3 === 0) mine.push(at(3, i * 7));
    if (i % 10 === 1) mine.push(at(2, i * 13));
    if (i % 50 === 2) mine.push(at(1, i * 17));
    direct.push(mine);
    for (const g of mine) members[g]!.push(personId(i));
    const address = `pessoa.${i}@empresa.com.br`;
    people.push({
      id: personId(i),
      displayName: `Pessoa ${i}`,
      mail: address,
      userPrincipalName: address,
      department: `Departamento ${i % 60}`,
      jobTitle: `Cargo ${i % 25}`,
      officeLocation: `Sede ${i % 8}`,
    });
  }
  const groups = members.map((list, g): StandInGroup => {
    const k = levelOf[g]!;
    const j = g - levels[k]!.first;
    const unified = k === levels.length - 1 && j % 3 === 0;
    return {
      id: groupId(g),
      displayName: `${LEVELS[k]!.name} ${j + 1}`,
      description: `${LEVELS[k]!.name} ${j + 1} da organização`,
      // Private, as a team's group usually is: a public one would open panels but give no RLS role (PUBLIC_GROUPS_GRANT).
      ...(unified ? { groupTypes: ['Unified'], mail: `equipe-${j + 1}@empresa.com.br`, visibility: 'Private' } : {}),
      members: list,
    };
  });
  return { people, groups, parents, levelOf, levels, direct };
}

/** A person's groups at any depth. */
function groupsOf(dir: Directory, person: number): Set<number> {
  const found = new Set<number>();
  const queue = [...dir.direct[person]!];
  for (let g = queue.pop(); g !== undefined; g = queue.pop()) {
    if (found.has(g)) continue;
    found.add(g);
    queue.push(...dir.parents[g]!);
  }
  return found;
}

/** The organisation around the directory: the panels' groups, and who and what the figures are about. */
function plan(dir: Directory) {
  // How many people each group holds at any depth.
  const sizes = new Array<number>(dir.groups.length).fill(0);
  for (let i = 0; i < dir.people.length; i++) for (const g of groupsOf(dir, i)) sizes[g]! += 1;
  const largest = sizes
    .map((n, g) => [n, g] as const)
    .sort((a, b) => b[0] - a[0])
    .slice(0, 3)
    .map(([, g]) => g);
  const [top, upper, mid, low, leaf] = dir.levels as [
    Directory['levels'][0],
    Directory['levels'][0],
    Directory['levels'][0],
    Directory['levels'][0],
    Directory['levels'][0],
  ];
  const upperCount = top.count + upper.count + mid.count;
  const links = new Map<number, number[]>();
  for (let p = 1; p <= SIZES.panels; p++) {
    links.set(p, [leaf.first + ((p * 7) % leaf.count), low.first + ((p * 11) % low.count), (p * 13) % upperCount]);
  }
  // The person the figures follow: in the largest group, and in groups of several levels directly.
  let person = 0;
  for (let i = 21; i < dir.people.length; i += 30) {
    if (groupsOf(dir, i).has(largest[0]!)) {
      person = i;
      break;
    }
  }
  const theirs = groupsOf(dir, person);
  const ownLeaf = dir.direct[person]![0]!;
  const upperOfTheirs = [...theirs].find((g) => dir.levelOf[g] === 1) ?? ownLeaf;
  // Panels (no RLS) that reach them through a group, or an RLS one through a role's group.
  const accessPanel = SIZES.panels - 1;
  links.set(accessPanel, largest);
  const openPanel = SIZES.rlsPanels + 10;
  links.set(openPanel, [ownLeaf, ...links.get(openPanel)!.slice(1)]);
  const rlsPanel = 10;
  links.set(rlsPanel, [ownLeaf, ...links.get(rlsPanel)!.slice(1)]);
  const sees = (p: number) => links.get(p)!.some((g) => theirs.has(g));
  // A panel they do not see, for a change of its groups; one they do not see through a bottom group they are
  // not in, for a change of membership.
  const unseen = [...links.keys()].filter((p) => p > SIZES.rlsPanels && p !== accessPanel && !sees(p));
  const linkChangePanel = unseen[0]!;
  const membershipPanel = unseen.find(
    (p) => p !== linkChangePanel && dir.levelOf[links.get(p)![0]!] === dir.levels.length - 1,
  )!;
  return {
    links,
    largest: largest.map((g) => ({ g, people: sizes[g]! })),
    person,
    theirs,
    accessPanel,
    openPanel,
    rlsPanel,
    roleGroup: upperOfTheirs,
    linkChange: { panel: linkChangePanel, group: ownLeaf },
    membershipChange: { panel: membershipPanel, group: links.get(membershipPanel)![0]! },
  };
}

interface SyncAnswer {
  ms: number;
  result?: { ativos: number; desativados: number; grupos: number | null; duracaoMs: number };
  memory?: PortalMemory;
  kept?: number | null;
}

/** The panel ids of a GET /api/paineis/agrupados answer. */
function panelIds(body: Buffer): Set<number> {
  const groups = JSON.parse(body.toString('utf8')) as { paineis: { id: number }[] }[];
  return new Set(groups.flatMap((g) => g.paineis.map((p) => p.id)));
}

export async function benchGroups(options: { databaseUrl?: string } = {}): Promise<BenchRow[]> {
  const engine = options.databaseUrl ? 'PostgreSQL' : 'PGlite';
  const rows: BenchRow[] = [];
  const scratch = mkdtempSync(path.join(tmpdir(), 'paineis-bench-groups-'));
  const logFd = openSync(path.join(scratch, 'portal.log'), 'w');
  let standIns: StandIns | null = null;
  let portal: BenchProcess<DirectoryPortalReady> | null = null;
  const row = (figure: string, value: string, budget: string, ok: boolean) => {
    rows.push({ figure: `${figure} (${engine})`, value, budget, ok });
    console.log(`grupos: ${figure} (${engine}) ${value}`);
  };
  try {
    const built = performance.now();
    const dir = makeDirectory(SIZE);
    const org = plan(dir);
    standIns = await startStandIns({ people: dir.people, groups: dir.groups });
    const memberships = dir.groups.reduce((n, g) => n + g.members.length, 0);
    console.log(
      `grupos (${engine}): diretório de ${formatNumber(dir.people.length)} pessoas, ${formatNumber(dir.groups.length)} grupos, ` +
        `${formatNumber(memberships)} associações diretas, montado em ${ms(performance.now() - built)}`,
    );
    const environment = {
      ...portalEnvironment(standIns),
      ADMIN_USERS: personId(0),
    };
    const encoded = Buffer.from(JSON.stringify(environment)).toString('base64url');
    portal = await startBenchProcess<DirectoryPortalReady>(
      path.join(here, 'portal-process.ts'),
      [...(options.databaseUrl ? [options.databaseUrl] : []), `--directory=${encoded}`],
      logFd,
    );
    standIns.powerBi.setReports(portal.ready.reports);
    const base = portal.ready.base;
    const before = await portal.ask<PortalMemory>({ type: 'memory' });

    // 1. The full sync, from an empty directory.
    const graphRequests = standIns.graph.requests.length;
    const full = await portal.ask<SyncAnswer>({ type: 'sync' });
    const pages = standIns.graph.requests.slice(graphRequests);
    const deltaPages = pages.filter((r) => r.url.includes('/groups/delta')).length;
    row(
      `Sincronização completa do diretório vazio: ${formatNumber(full.result!.ativos)} pessoas, ${formatNumber(full.result!.grupos ?? 0)} grupos`,
      `${ms(full.ms)} (${formatNumber(pages.length)} pedidos ao Graph, ${formatNumber(deltaPages)} páginas do delta de grupos)`,
      `≤ ${ms(GROUP_BUDGETS_MS.fullSync)}`,
      full.result!.ativos === dir.people.length &&
        full.result!.grupos === dir.groups.length &&
        full.ms <= GROUP_BUDGETS_MS.fullSync,
    );
    row(
      'Memória do portal após a sincronização (RSS; heap usado)',
      `${mb(full.memory!.rss)}; ${mb(full.memory!.heapUsed)} (antes: ${mb(before.rss)}; ${mb(before.heapUsed)})`,
      '—',
      true,
    );

    // 2. The panels' groups, and the sessions.
    const links = [...org.links].flatMap(([p, gs]) => gs.map((g): [number, string] => [p, groupId(g)]));
    await portal.ask({
      type: 'link-groups',
      links,
      roleGroups: [[org.rlsPanel, 'Papel 1', groupId(org.roleGroup)]],
    });
    const [adminToken, userToken] = await portal.ask<string[]>({
      type: 'tokens',
      ids: [personId(0), personId(org.person)],
    });
    const admin = { authorization: `Bearer ${adminToken}` };
    const user = { authorization: `Bearer ${userToken}` };
    const userList = async () => {
      const answer = await get(`${base}/api/paineis/agrupados`, user);
      if (answer.status !== 200) throw new Error(`/api/paineis/agrupados respondeu ${answer.status}`);
      return panelIds(answer.body);
    };
    const seen = await userList();
    console.log(
      `grupos (${engine}): ${formatNumber(links.length)} vínculos de ${formatNumber(org.links.size)} painéis a grupos; ` +
        `a pessoa ${org.person} está em ${org.theirs.size} grupos e vê ${seen.size} painéis`,
    );
    if (!seen.has(org.openPanel) || seen.has(org.linkChange.panel) || seen.has(org.membershipChange.panel)) {
      throw new Error('os painéis da pessoa não são os esperados pelos vínculos a grupos');
    }

    /** From `started`, asks the person's list until `shows` holds: the time then, and the first answer's time. */
    const until = async (started: number, shows: (ids: Set<number>) => boolean) => {
      let first: number | null = null;
      for (;;) {
        const asked = performance.now();
        const ids = await userList();
        first ??= performance.now() - asked;
        if (shows(ids)) return { total: performance.now() - started, first };
        if (performance.now() - started > CHANGE_TIMEOUT_MS) throw new Error('a mudança não apareceu na lista');
      }
    };

    // 3a. A panel's groups changed: the person gains it, then loses it.
    try {
      const panel = org.linkChange.panel;
      const original = org.links.get(panel)!.map(groupId);
      const totals: number[] = [];
      const writes: number[] = [];
      const recomputes: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const gains of [true, false]) {
          const body = JSON.stringify(gains ? [...original, groupId(org.linkChange.group)] : original);
          const started = performance.now();
          const answer = await fetch(`${base}/api/paineis/${panel}/grupos`, {
            method: 'POST',
            headers: { ...admin, 'content-type': 'application/json' },
            body,
          });
          if (answer.status !== 200) throw new Error(`POST /api/paineis/${panel}/grupos respondeu ${answer.status}`);
          await answer.arrayBuffer();
          writes.push(performance.now() - started);
          const { total, first } = await until(started, (ids) => ids.has(panel) === gains);
          totals.push(total);
          recomputes.push(first);
        }
      }
      row(
        'Mudança dos grupos de um painel até a lista da pessoa mostrá-la (mediana)',
        `${ms(median(totals))} (POST ${ms(median(writes))} + lista recalculada ${ms(median(recomputes))}; ` +
          `máx. ${ms(Math.max(...totals))}; ${totals.length} mudanças)`,
        `≤ ${ms(GROUP_BUDGETS_MS.recompute)}`,
        median(totals) <= GROUP_BUDGETS_MS.recompute,
      );
    } catch (error) {
      rows.push(errorRow(`Mudança dos grupos de um painel (${engine})`, `≤ ${ms(GROUP_BUDGETS_MS.recompute)}`, error));
    }

    // 3b. A membership changed in Entra: the person joins a group, then leaves it; an incremental sync of the groups
    // (one round of the delta) reads it.
    try {
      const { panel, group } = org.membershipChange;
      const totals: number[] = [];
      const syncs: number[] = [];
      const recomputes: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const joins of [true, false]) {
          if (joins) standIns.graph.addGroupMember(groupId(group), personId(org.person));
          else standIns.graph.removeGroupMember(groupId(group), personId(org.person));
          const started = performance.now();
          const sync = await portal.ask<SyncAnswer>({ type: 'group-sync' });
          if (sync.kept !== dir.groups.length) throw new Error(`a sincronização dos grupos manteve ${sync.kept}`);
          syncs.push(sync.ms);
          const { total, first } = await until(started, (ids) => ids.has(panel) === joins);
          totals.push(total);
          recomputes.push(first);
        }
      }
      row(
        'Mudança de associação no Entra, da sincronização incremental dos grupos até a lista da pessoa mostrá-la (mediana)',
        `${ms(median(totals))} (sincronização ${ms(median(syncs))} + lista recalculada ${ms(median(recomputes))}; ` +
          `máx. ${ms(Math.max(...totals))}; ${totals.length} mudanças)`,
        `≤ ${ms(GROUP_BUDGETS_MS.recompute)}`,
        median(totals) <= GROUP_BUDGETS_MS.recompute,
      );
      // As the schedule runs it: the whole directory sync (every person read again, then the groups' delta).
      standIns.graph.addGroupMember(groupId(group), personId(org.person));
      const started = performance.now();
      const sync = await portal.ask<SyncAnswer>({ type: 'sync' });
      const { total, first } = await until(started, (ids) => ids.has(panel));
      row(
        'A mesma mudança lida pela sincronização agendada (pessoas e delta dos grupos), até a lista mostrá-la',
        `${ms(total)} (sincronização ${ms(sync.ms)} + lista recalculada ${ms(first)})`,
        '—',
        true,
      );
      standIns.graph.removeGroupMember(groupId(group), personId(org.person));
      await portal.ask<SyncAnswer>({ type: 'group-sync' });
    } catch (error) {
      rows.push(errorRow(`Mudança de associação no Entra (${engine})`, `≤ ${ms(GROUP_BUDGETS_MS.recompute)}`, error));
    }

    // 4. The explanations of access.
    const timed = async (figure: string, url: string, count: (body: unknown) => string) => {
      const budget = `≤ ${ms(GROUP_BUDGETS_MS.accessP95)}`;
      try {
        const times: number[] = [];
        let last: Buffer | null = null;
        // The first answer after a change is worked out; the next ones, until the next change, are served as
        // prepared bytes where the portal keeps them (modules/access): both are reported.
        let first = 0;
        for (let i = 0; i < WARM + ACCESS_REQUESTS; i++) {
          const started = performance.now();
          const answer = await get(url, admin);
          if (answer.status !== 200) throw new Error(`${url} respondeu ${answer.status}`);
          if (i === 0) first = performance.now() - started;
          if (i >= WARM) times.push(performance.now() - started);
          last = answer.body;
        }
        const value =
          `${ms(p95(times))} (mediana ${ms(median(times))}, ${times.length} pedidos; primeira resposta após a ` +
          `mudança ${ms(first)}; ` +
          `${count(JSON.parse(last!.toString('utf8')))}, ${formatNumber(last!.length / 1e6, 1)} MB)`;
        row(figure, value, budget, p95(times) <= GROUP_BUDGETS_MS.accessP95);
      } catch (error) {
        rows.push(errorRow(`${figure} (${engine})`, budget, error));
      }
    };
    const largest = org.largest.map((l) => formatNumber(l.people)).join(', ');
    await timed(
      `GET /api/paineis/{id}/acesso, painel com 3 grupos grandes (${largest} pessoas): p95`,
      `${base}/api/paineis/${org.accessPanel}/acesso`,
      (body) => `${formatNumber((body as { pessoas: unknown[] }).pessoas.length)} pessoas na resposta`,
    );
    await timed(
      `GET /api/usuarios365/{id}/acesso, pessoa em ${org.theirs.size} grupos: p95`,
      `${base}/api/usuarios365/${personId(org.person)}/acesso`,
      (body) => {
        const paineis = (body as { paineis: { podeAbrir: boolean }[] }).paineis;
        return `${formatNumber(paineis.length)} painéis, ${paineis.filter((p) => p.podeAbrir).length} abertos a ela`;
      },
    );
    const afterReads = await portal.ask<PortalMemory>({ type: 'memory' });
    row(
      'Memória do portal após as leituras de acesso (RSS; heap usado)',
      `${mb(afterReads.rss)}; ${mb(afterReads.heapUsed)}`,
      '—',
      true,
    );

    // 5. The reads a person waits on, their panels coming through groups, as bench/api.ts holds them.
    const gzip = { 'accept-encoding': 'gzip' };
    const measured = await measureReads({
      portalBase: base,
      engine,
      scratch,
      reads: [
        {
          name: 'Com grupos: agrupados do usuário (painéis por grupo)',
          path: '/api/paineis/agrupados',
          headers: { ...user, ...gzip },
        },
        {
          name: 'Com grupos: usuário abre um painel por grupo (token quente)',
          path: `/api/paineis/${org.openPanel}`,
          headers: { ...user, ...gzip },
        },
      ],
      p99Calls: [
        {
          figure: 'Com grupos: GET /api/paineis/agrupados (usuário)',
          path: '/api/paineis/agrupados',
          headers: { ...user, ...gzip },
          budgetMs: BUDGETS_P99_MS['GET /api/paineis/agrupados (usuário)']!,
        },
        {
          figure: 'Com grupos: GET /api/paineis/{id}/token (usuário, RLS por grupo)',
          path: `/api/paineis/${org.rlsPanel}/token`,
          headers: { ...user, ...gzip },
          budgetMs: BUDGETS_P99_MS['GET /api/paineis/{id}/token (usuário, RLS)']!,
        },
      ],
    });
    rows.push(...measured.rows);
    const afterLoads = await portal.ask<PortalMemory>({ type: 'memory' });
    row(
      'Memória do portal após as cargas de leitura (RSS; heap usado)',
      `${mb(afterLoads.rss)}; ${mb(afterLoads.heapUsed)}`,
      '—',
      true,
    );
  } catch (error) {
    rows.push(errorRow(`Acesso por grupo (${engine})`, '—', error));
  } finally {
    await portal?.stop();
    await standIns?.close();
    closeSync(logFd);
    rmSync(scratch, { recursive: true, force: true });
  }
  return rows;
}
