import type { StandInReport } from '@paineis/microsoft-stand-ins/types';
import type { DemoUser } from '../src/demo/demo-data.ts';
import { seedUsers } from '../src/modules/users/users.service.ts';
import { setUserActive } from '../src/modules/users/users.repository.ts';
import type { Database, Db } from '../src/db/client.ts';
import { writeGroupChanges } from '../src/modules/users/groups.repository.ts';
import { createClassification } from '../src/modules/classifications/classifications.repository.ts';
import { createPanel, type PanelInput } from '../src/modules/panels/panels.repository.ts';
import { replaceLinks } from '../src/modules/panels/panel-users.repository.ts';
import { upsertLocalAccount } from '../src/modules/auth/local-accounts.repository.ts';

let counter = 0;

export async function createUser(db: Db, overrides: Partial<DemoUser> & { active?: boolean } = {}): Promise<DemoUser> {
  counter += 1;
  const user: DemoUser = {
    id: `u-${counter}`,
    email: `usuario${counter}@empresa.com.br`,
    displayName: `Usuário ${String(counter).padStart(4, '0')}`,
    department: 'Financeiro',
    jobTitle: 'Analista',
    officeLocation: 'São Paulo',
    role: 'User',
    ...overrides,
  };
  await seedUsers(db, [user], 'test');
  if (overrides.active === false) await setUserActive(db, user.id, false);
  return user;
}

export const createAdmin = (db: Db, overrides: Partial<DemoUser> = {}) =>
  createUser(db, { displayName: 'Admin Teste', role: 'Admin', ...overrides });

export const classificacao = (db: Db, nome: string, extra: { descricao?: string; ativo?: boolean } = {}) =>
  createClassification(db, { nome, ...extra });

let reportCounter = 0;
export function panelInput(overrides: Partial<PanelInput> = {}): PanelInput {
  reportCounter += 1;
  return {
    nomePainel: `Painel ${reportCounter}`,
    workspaceId: '11111111-1111-4111-8111-111111111111',
    reportId: `22222222-2222-4222-8222-${String(reportCounter).padStart(12, '0')}`,
    usaRls: false,
    ...overrides,
  };
}

export const panel = (db: Db, overrides: Partial<PanelInput> = {}) => createPanel(db, panelInput(overrides));

/** A panel over a report the Microsoft stand-ins serve: its workspace and report ids, and the overrides. */
export const panelOver = (
  db: Db,
  report: Pick<StandInReport, 'workspaceId' | 'reportId'>,
  overrides: Partial<PanelInput> = {},
) => panel(db, { workspaceId: report.workspaceId, reportId: report.reportId, ...overrides });

/**
 * Classifications Vendas and Compras, then a panel at each ordem given: in Vendas, in Compras and without
 * classification, created in that order.
 */
export async function panelsAtOrdens(db: Db, ordens: { vendas: number[]; compras: number[]; none: number[] }) {
  const vendas = await classificacao(db, 'Vendas');
  const compras = await classificacao(db, 'Compras');
  for (const ordem of ordens.vendas) await panel(db, { classificacaoId: vendas.id, ordem });
  for (const ordem of ordens.compras) await panel(db, { classificacaoId: compras.id, ordem });
  for (const ordem of ordens.none) await panel(db, { ordem });
  return { vendas, compras };
}

export const link = (db: Db, painelId: number, userIds: string[]) =>
  db.transaction((tx) => replaceLinks(tx, painelId, userIds));

/** A local account (username and password), its person `local:<username>`; an ordinary person unless `role` says so. */
export const localAccount = (
  db: Db,
  username: string,
  password: string,
  { role = 'User', displayName = username }: { role?: 'Admin' | 'User'; displayName?: string } = {},
) =>
  upsertLocalAccount(db, {
    username,
    password,
    user: { id: `local:${username}`, email: `${username}@empresa.com.br`, displayName, role, source: 'local' },
  });

/** An opening of a panel as the opening recorder is given it: no RLS identity, no Power BI request id, a new token. */
export const opening = (usuarioId: string, painelId: number) => ({
  usuarioId,
  painelId,
  identidade: null,
  papeis: [],
  requestId: null,
  tokenDoCache: false,
});

/** An Entra group as the sync stores it: its direct members are people's and nested groups' ids. */
export interface GroupSeed {
  id: string;
  nome: string;
  people?: string[];
  groups?: string[];
  tipo?: 'seguranca' | 'microsoft365';
  /** Graph's visibility of a Microsoft 365 group ('Public': anyone may join); default none. */
  visibilidade?: 'Public' | 'Private' | 'HiddenMembership';
}

/** Stores groups as a first round of the directory sync would (every group, every membership replaced). */
export async function seedGroups(database: Database, seeds: GroupSeed[]): Promise<void> {
  await writeGroupChanges(
    database,
    seeds.map((g) => ({
      id: g.id,
      removed: false,
      nome: g.nome,
      descricao: null,
      tipo: g.tipo ?? 'seguranca',
      visibilidade: g.visibilidade ?? null,
      members: [
        ...(g.people ?? []).map((id) => ({ id, tipo: 'usuario' as const, removed: false })),
        ...(g.groups ?? []).map((id) => ({ id, tipo: 'grupo' as const, removed: false })),
      ],
    })),
    true,
    'https://graph.microsoft.com/v1.0/groups/delta?$deltatoken=teste',
  );
}
