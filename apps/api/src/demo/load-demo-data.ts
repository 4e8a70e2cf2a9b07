import type { Db } from '../db/client.ts';
import { seedAuditHistory } from '../modules/audit/audit-history.ts';
import { insertClassification } from '../modules/classifications/classifications.repository.ts';
import { replaceGroupLinks } from '../modules/panels/panel-groups.repository.ts';
import { replaceLinks } from '../modules/panels/panel-users.repository.ts';
import { insertPanel } from '../modules/panels/panels.repository.ts';
import { replaceRls } from '../modules/panels/rls.repository.ts';
import { configuredRunSince } from '../modules/auth/installation.repository.ts';
import { seedLastSignIns } from '../modules/auth/sign-ins.ts';
import { forgetUsageSnapshots, seedOpenings } from '../modules/usage/usage.ts';
import { seedGroups, seedUsers } from '../modules/users/users.service.ts';
import { seedAlerts } from '../modules/subscriptions/alerts.ts';
import { nextOnClock } from '../modules/subscriptions/schedule.ts';
import { insertSubscription, type NewSubscription } from '../modules/subscriptions/subscriptions.repository.ts';
import { seedChanges } from '../modules/capacity/capacity.repository.ts';
import { isEmpty, lockDemoLoad } from './demo.repository.ts';
import { demoCapacityHistory } from './demo-capacity.ts';
import {
  CLASSIFICACOES,
  DEMO_ADMIN,
  DEMO_GUEST,
  DEMO_GUEST_UPN,
  DEMO_USER,
  DEMO_WORKSPACE_ID,
  demoGuid,
  demoUpn,
  demoUsers,
  RLS_ROLES,
  SEM_CLASSIFICACAO,
} from './demo-data.ts';
import { demoGroupId, demoGroups } from './demo-directory.ts';
import { demoHistory, type DemoClassificacao, type DemoPanel, type DemoPerson } from './demo-history.ts';
import { random } from './seeded-random.ts';

/** The panel the guest is linked to, in its role 'Vendedor'. */
const GUEST_PANEL = 'Vendas por Região';

/**
 * Which demo groups open which demo panels: by classification, and panel by panel. The sales panels the browser
 * journeys change or count on (Vendas por Região, Sazonalidade, Devoluções, Ranking) are left to direct links, so a
 * link they take away is the person's access taken away.
 */
const GROUPS_OF_CLASSIFICATION: Record<string, string[]> = {
  Financeiro: ['Financeiro', 'Diretoria'],
  'Recursos Humanos': ['Recursos Humanos'],
  Operações: ['Operações'],
};
/** Sales panels opened by 'Comercial', whose people include the demo user (through 'Comercial - Sul'). */
const COMERCIAL_PANELS = ['Metas da Equipe Comercial', 'Carteira de Clientes'];
/** An RLS role that lists a group, beside its e-mails. */
const ROLE_GROUPS: { panel: string; role: string; group: string }[] = [
  { panel: 'Metas da Equipe Comercial', role: 'Vendedor', group: 'Comercial - Norte' },
  { panel: 'Quadro de Colaboradores', role: 'RH Corporativo', group: 'Recursos Humanos' },
];

/** The demo's Entra groups (demo-directory.ts) and their members, in the database before the first sync. */
async function seedDemoGroups(tx: Db): Promise<void> {
  const groups = demoGroups();
  const groupIds = new Set(groups.map((g) => g.id));
  await seedGroups(
    tx,
    groups.map((g) => ({
      id: g.id,
      nome: g.displayName,
      descricao: g.description ?? null,
      tipo: g.groupTypes?.includes('Unified') ? 'microsoft365' : 'seguranca',
      // As the sync will read it, so that the screens mark a public group from the start.
      visibilidade: g.groupTypes?.includes('Unified') ? (g.visibility ?? 'Public') : null,
    })),
    groups.flatMap((g) =>
      g.members.map((membroId) => ({
        grupoId: g.id,
        membroId,
        membroTipo: groupIds.has(membroId) ? ('grupo' as const) : ('usuario' as const),
      })),
    ),
  );
}

/**
 * The groups that open a demo panel (docs/decisions/018-access-by-group.md): each department's group its
 * classification's panels, 'Diretoria' the financial ones too, 'Comercial' two sales panels the demo user is also
 * linked to directly (so his list is the same either way, and 'Quem tem acesso' shows both reasons), and a group an
 * RLS role of the panel lists (ROLE_GROUPS).
 */
function groupsOpening(panel: DemoPanel): string[] {
  const names = [...(GROUPS_OF_CLASSIFICATION[panel.classificacao ?? ''] ?? [])];
  if (COMERCIAL_PANELS.includes(panel.nome) && panel.linked.includes(DEMO_USER.id)) names.push('Comercial');
  for (const { panel: nome, group } of ROLE_GROUPS) if (nome === panel.nome) names.push(group);
  return [...new Set(names)].map(demoGroupId);
}

/** The groups an RLS role of a demo panel lists (the demo user's own roles do not change). */
const roleGroups = (panel: string, role: string) =>
  ROLE_GROUPS.filter((r) => r.panel === panel && r.role === role).map((r) => demoGroupId(r.group));

/**
 * Subscriptions to show (docs/requirements.md#subscriptions): the demo user's weekly PDF of an RLS panel, an
 * administrator's monthly PowerPoint for the group 'Comercial' and the demo user, and the demo user's PDF after each
 * refresh of a dataset the stand-in refreshes every few minutes.
 */
async function seedDemoSubscriptions(db: Db, panels: readonly DemoPanel[], now: Date): Promise<void> {
  const panelId = (nome: string) => panels.find((panel) => panel.nome === nome)!.id;
  const fields = {
    pagina: null,
    visaoId: null,
    fusoHorario: 'America/Sao_Paulo',
    intervaloHoras: null,
    atualizacoesDesde: null,
  };
  const subscriptions: NewSubscription[] = [
    {
      ...fields,
      painelId: panelId('Vendas por Região'),
      usuarioId: DEMO_USER.id,
      formato: 'PDF',
      frequencia: 'semanal',
      hora: '07:00',
      diaSemana: 1,
      diaMes: null,
      destinatarios: null,
      proximoEnvio: now,
    },
    {
      ...fields,
      painelId: panelId('Metas da Equipe Comercial'),
      usuarioId: DEMO_ADMIN.id,
      formato: 'PPTX',
      frequencia: 'mensal',
      hora: '08:00',
      diaSemana: null,
      diaMes: 1,
      destinatarios: { usuarios: [DEMO_USER.id], grupos: [demoGroupId('Comercial')] },
      proximoEnvio: now,
    },
    {
      // Its dataset refreshes every 4 minutes in the stand-in, every third refresh failing (demo-directory.ts): the
      // first message is in the demo outbox minutes after the start, then at most one an hour, never for a failure.
      ...fields,
      painelId: panelId('Produção Diária'),
      usuarioId: DEMO_USER.id,
      formato: 'PDF',
      frequencia: 'apos-atualizacao',
      hora: null,
      diaSemana: null,
      diaMes: null,
      intervaloHoras: 1,
      atualizacoesDesde: now,
      destinatarios: null,
      proximoEnvio: null,
    },
  ];
  for (const subscription of subscriptions) {
    // Seeded, not made by anyone: the demo's audit trail is its own history (demo-history.ts).
    await insertSubscription(db, { ...subscription, proximoEnvio: nextOnClock(subscription, now) }, null);
  }
}

/**
 * Why demo mode may not run on this database, or null: it has run outside demo mode, so it may hold real people and
 * panels, and the demo would bring fictitious data, accounts with a public password and the stand-in's sign-in, where
 * anyone may choose to be the demo administrator.
 */
export async function demoRefusal(db: Db): Promise<string | null> {
  const since = await configuredRunSince(db);
  if (!since) return null;
  return (
    `Modo demonstração recusado: este banco de dados já foi usado fora do modo demonstração (desde ${since.toISOString()}), ` +
    'e a demonstração traria dados fictícios, contas com senha pública e o login simulado da Microsoft, em que qualquer ' +
    'pessoa pode entrar como administrador. Para a demonstração, use outro banco de dados (outro DATA_DIR, ou outro ' +
    'DATABASE_URL); para este, configure o Microsoft (AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET) ou ' +
    'defina DEMO_MODE=false.'
  );
}

/**
 * Loads the demo organisation into an empty database that has never run outside demo mode, with its last 90 days, up
 * to `now`, of panel openings and audit records (demo-history.ts). Returns false (and does nothing) otherwise.
 */
export async function loadDemoData(db: Db, userCount = 300, now = new Date()): Promise<boolean> {
  const loaded = await db.transaction(async (tx) => {
    // Two instances starting together on one PostgreSQL: the second waits, then finds data.
    await lockDemoLoad(tx);
    // An emptied database that once ran outside demo mode is no demo's either.
    if (!(await isEmpty(tx)) || (await configuredRunSince(tx))) return false;
    const rand = random(7);
    const people = demoUsers(userCount);
    await seedUsers(
      tx,
      [DEMO_ADMIN, DEMO_USER].map((u) => ({ ...u, officeLocation: 'São Paulo' })),
      'demo',
    );
    await seedUsers(tx, [...people, DEMO_GUEST], 'demo');
    await seedDemoGroups(tx);

    const workspaceId = DEMO_WORKSPACE_ID;
    const history = { classificacoes: [] as DemoClassificacao[], panels: [] as DemoPanel[] };
    const groups = [
      ...CLASSIFICACOES.map((c) => ({ ...c })),
      { nome: null, descricao: null, ativo: true, paineis: SEM_CLASSIFICACAO },
    ];
    for (const group of groups) {
      let classificacaoId: number | null = null;
      if (group.nome) {
        classificacaoId = (
          await insertClassification(tx, { nome: group.nome, descricao: group.descricao, ativo: group.ativo })
        ).id;
        history.classificacoes.push({
          id: classificacaoId,
          nome: group.nome,
          descricao: group.descricao,
          ativo: group.ativo,
        });
      }
      for (const [i, nome] of group.paineis.entries()) {
        const reportId = demoGuid(`report:${nome}`);
        const usaRls = nome in RLS_ROLES;
        const ordem = i + 1;
        const id = await insertPanel(tx, { nomePainel: nome, workspaceId, reportId, usaRls, classificacaoId, ordem });
        history.panels.push({
          id,
          nome,
          classificacao: group.nome,
          classificacaoAtiva: group.ativo,
          ordem,
          workspaceId,
          reportId,
          usaRls,
          linked: [],
          roles: [],
        });
      }
    }

    for (const panel of history.panels) {
      const linked = people.filter(() => rand() < 0.08).map((u) => u.id);
      // The demo user sees most panels, but not all, so the difference between roles shows.
      if (rand() < 0.7 || panel.nome in RLS_ROLES) linked.push(DEMO_USER.id);
      if (panel.nome === GUEST_PANEL) linked.push(DEMO_GUEST.id);
      panel.linked = linked;
      await replaceLinks(tx, panel.id, linked);
      await replaceGroupLinks(tx, panel.id, groupsOpening(panel));
      const roles = RLS_ROLES[panel.nome];
      if (!roles) continue;
      const linkedEmails = people.filter((u) => linked.includes(u.id)).map((u) => u.email);
      for (const [posicao, roleName] of roles.entries()) {
        const emails = linkedEmails.filter((_, i) => i % roles.length === posicao);
        if (posicao === 0) emails.push(DEMO_USER.email);
        if (panel.nome === GUEST_PANEL && roleName === 'Vendedor') emails.push(DEMO_GUEST.email);
        panel.roles.push({ roleName, emails });
      }
      await replaceRls(
        tx,
        panel.id,
        panel.roles.map((role) => ({
          roleName: role.roleName,
          userEmails: role.emails,
          grupos: roleGroups(panel.nome, role.roleName),
        })),
      );
    }

    await seedDemoSubscriptions(tx, history.panels, now);
    // Both alerts on, to the demo administrator: a failing refresh of the stand-in reaches the demo outbox.
    await seedAlerts(tx, [DEMO_ADMIN.id]);

    const person = (u: { id: string; email: string }, upn = u.email): DemoPerson => ({ id: u.id, email: u.email, upn });
    const { views, audit } = demoHistory(
      {
        admin: person(DEMO_ADMIN),
        user: person(DEMO_USER),
        guest: person(DEMO_GUEST, DEMO_GUEST_UPN),
        people: people.map((u, i) => person(u, demoUpn(u.email, i))),
        ...history,
      },
      now,
    );
    await seedOpenings(tx, views);
    // The demo capacity's month so far, as the default policy would have run it over these openings.
    const emails = new Map([...people, DEMO_ADMIN, DEMO_USER, DEMO_GUEST].map((u) => [u.id, u.email]));
    await seedChanges(
      tx,
      demoCapacityHistory(
        views.map((v) => ({ at: v.momento.getTime(), email: emails.get(v.usuarioId) ?? '' })),
        now,
      ),
    );
    await seedLastSignIns(tx, await seedAuditHistory(tx, audit));
    return true;
  });
  // The views are in: '/uso' reads the past days again (a snapshot made before the load would not know them).
  if (loaded) forgetUsageSnapshots(db);
  return loaded;
}
