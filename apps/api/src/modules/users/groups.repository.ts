import { eq, sql } from 'drizzle-orm';
import { rows, type Database, type Db } from '../../db/client.ts';
import { estadoSincronizacao, grupos } from '../../db/schema.ts';
import type { GroupChange, GroupKind } from '../../integrations/microsoft-graph/graph-groups.ts';

/** The saved delta link of the groups' sync (estado_sincronizacao). */
const GROUPS_DELTA = 'grupos_delta';
/** Rows per statement when a whole directory is written. */
const BATCH = 5000;

/** Graph's `visibility` of a Microsoft 365 group that anyone in the organisation may join unapproved. */
export const PUBLIC_VISIBILITY = 'Public';

export interface StoredGroup {
  id: string;
  nome: string;
  descricao: string | null;
  tipo: GroupKind;
  /**
   * A Microsoft 365 group's Graph `visibility` ('Public', 'Private', 'HiddenMembership'); null for a security group,
   * and for the demo's groups until the first sync reads it. Absent: null.
   */
  visibilidade?: string | null;
}

/** A public Microsoft 365 group: anyone may join it (docs/decisions/018-access-by-group.md, "Public groups"). */
export const isPublicGroup = (group: Pick<StoredGroup, 'visibilidade'>) => group.visibilidade === PUBLIC_VISIBILITY;

export interface StoredMembership {
  grupoId: string;
  membroId: string;
  membroTipo: 'usuario' | 'grupo';
}

/** A direct membership as loaded: the group, the member, and whether the member is a group (else a person). */
export type LoadedMembership = [grupoId: string, membroId: string, isGroup: boolean];

/**
 * Every group and every direct membership, for the membership held in memory (group-membership.ts). The
 * memberships (one per person and group: hundreds of thousands) come as two texts, one line each, which are read
 * several times faster than as many rows (on PGlite above all); as JSON, a little slower, should an id ever hold a
 * tab or a line break.
 */
export async function loadGroups(db: Db): Promise<{ groups: StoredGroup[]; memberships: LoadedMembership[] }> {
  const [groups, [lines]] = await Promise.all([
    db
      .select({
        id: grupos.id,
        nome: grupos.nome,
        descricao: grupos.descricao,
        tipo: grupos.tipo,
        visibilidade: grupos.visibilidade,
      })
      .from(grupos),
    rows<{ pessoas: string | null; grupos: string | null; simples: boolean }>(
      db,
      sql`select string_agg(grupo_id || E'\t' || membro_id, E'\n') filter (where membro_tipo = 'usuario') as pessoas,
                 string_agg(grupo_id || E'\t' || membro_id, E'\n') filter (where membro_tipo = 'grupo') as grupos,
                 coalesce(bool_and(strpos(grupo_id || membro_id, E'\t') = 0
                                   and strpos(grupo_id || membro_id, E'\n') = 0), true) as simples
          from grupo_membros`,
    ),
  ]);
  if (!lines!.simples) {
    const [all] = await rows<{ membros: string }>(
      db,
      sql`select coalesce(json_agg(json_build_array(grupo_id, membro_id, membro_tipo = 'grupo'))::text, '[]') as membros
          from grupo_membros`,
    );
    return { groups, memberships: JSON.parse(all!.membros) as LoadedMembership[] };
  }
  const memberships: LoadedMembership[] = [];
  const read = (text: string | null, isGroup: boolean) => {
    if (text === null) return;
    for (const line of text.split('\n')) {
      const tab = line.indexOf('\t');
      memberships.push([line.slice(0, tab), line.slice(tab + 1), isGroup]);
    }
  };
  read(lines!.pessoas, false);
  read(lines!.grupos, true);
  return { groups, memberships };
}

/** Where the last sync of the groups left off, or null: the next one reads every group. */
export async function groupsDeltaLink(db: Db): Promise<string | null> {
  const [row] = await db
    .select({ valor: estadoSincronizacao.valor })
    .from(estadoSincronizacao)
    .where(eq(estadoSincronizacao.nome, GROUPS_DELTA));
  return row?.valor ?? null;
}

/** Forgets the delta link (Graph refused it): the next sync reads every group again. */
export async function forgetGroupsDeltaLink(db: Db): Promise<void> {
  await db.delete(estadoSincronizacao).where(eq(estadoSincronizacao.nome, GROUPS_DELTA));
}

interface MergedGroup {
  removed: boolean;
  nome?: string;
  descricao?: string | null;
  tipo?: GroupKind | null;
  visibilidade?: string | null;
  /** Net member changes, by member id: true added, false removed. */
  members: Map<string, { tipo: 'usuario' | 'grupo'; added: boolean }>;
}

/** A round's objects folded into one per group, in order: the last word on each property and member wins. */
function merge(changes: GroupChange[]): Map<string, MergedGroup> {
  const merged = new Map<string, MergedGroup>();
  for (const change of changes) {
    const id = change.id;
    let group = merged.get(id);
    if (!group) merged.set(id, (group = { removed: false, members: new Map() }));
    if (change.removed) {
      group.removed = true;
      group.members.clear();
      continue;
    }
    group.removed = false;
    if (change.nome !== undefined) group.nome = change.nome;
    if (change.descricao !== undefined) group.descricao = change.descricao;
    if (change.tipo !== undefined) group.tipo = change.tipo;
    if (change.visibilidade !== undefined) group.visibilidade = change.visibilidade;
    for (const member of change.members) {
      group.members.set(member.id, { tipo: member.tipo, added: !member.removed });
    }
  }
  return merged;
}

export interface GroupsWritten {
  grupos: number;
  removidos: number;
  membrosIncluidos: number;
  membrosRetirados: number;
}

/**
 * Writes a round of Graph's delta for groups, and the link to the next round, in one transaction: a first round
 * (`full`) replaces every group and membership; a later round applies what changed. Ids are kept as Graph writes
 * them, as the people's are. Groups that are neither security nor Microsoft 365 groups are not kept.
 */
export async function writeGroupChanges(
  database: Database,
  changes: GroupChange[],
  full: boolean,
  deltaLink: string,
): Promise<GroupsWritten> {
  const merged = merge(changes);
  const kept: StoredGroup[] = [];
  const dropped: string[] = [];
  for (const [id, group] of merged) {
    if (group.removed || group.tipo === null) dropped.push(id);
    else if (group.nome !== undefined && group.tipo !== undefined) {
      kept.push({
        id,
        nome: group.nome,
        descricao: group.descricao ?? null,
        tipo: group.tipo,
        // Only a Microsoft 365 group may be joined by anyone; a security group's visibility means nothing here.
        // Left undefined when Graph said nothing of it: the stored one stays (upsertGroups).
        visibilidade: group.tipo === 'microsoft365' ? group.visibilidade : null,
      });
    }
  }
  const added: StoredMembership[] = [];
  const retired: { grupoId: string; membroId: string }[] = [];
  for (const [grupoId, group] of merged) {
    for (const [membroId, { tipo, added: isAdded }] of group.members) {
      if (isAdded) added.push({ grupoId, membroId, membroTipo: tipo });
      else retired.push({ grupoId, membroId });
    }
  }
  return database.db.transaction(async (tx) => {
    if (full) {
      await tx.execute(sql`delete from grupo_membros`);
      const ids = kept.map((g) => g.id);
      await tx.execute(sql`delete from grupos where not (id = any(${sql.param(ids)}::text[]))`);
    }
    await upsertGroups(tx, kept);
    let removidos = 0;
    if (dropped.length > 0) {
      const gone = await tx.execute(sql`delete from grupos where id = any(${sql.param(dropped)}::text[]) returning id`);
      removidos = (gone as { rows: unknown[] }).rows.length;
    }
    for (let i = 0; i < retired.length; i += BATCH) {
      const batch = retired.slice(i, i + BATCH);
      await tx.execute(sql`
        delete from grupo_membros m
        using unnest(${sql.param(batch.map((r) => r.grupoId))}::text[],
                     ${sql.param(batch.map((r) => r.membroId))}::text[]) as t(grupo_id, membro_id)
        where m.grupo_id = t.grupo_id and m.membro_id = t.membro_id`);
    }
    await insertMemberships(tx, added);
    await tx
      .insert(estadoSincronizacao)
      .values({ nome: GROUPS_DELTA, valor: deltaLink })
      .onConflictDoUpdate({ target: estadoSincronizacao.nome, set: { valor: deltaLink, dataAtualizacao: sql`now()` } });
    return { grupos: kept.length, removidos, membrosIncluidos: added.length, membrosRetirados: retired.length };
  });
}

/**
 * Inserts groups, or updates those whose name, description, kind or visibility changed. A group whose visibility the
 * round did not give (undefined) keeps the stored one: Graph leaves out what did not change under Prefer:
 * return=minimal, and a group must not pass for private for want of the word.
 */
async function upsertGroups(tx: Db, kept: StoredGroup[]): Promise<void> {
  for (let i = 0; i < kept.length; i += BATCH) {
    const batch = kept.slice(i, i + BATCH);
    const col = <K extends keyof StoredGroup>(k: K) => sql.param(batch.map((g) => g[k] ?? null));
    const told = sql.param(batch.map((g) => g.visibilidade !== undefined));
    await tx.execute(sql`
      insert into grupos (id, nome, descricao, tipo, visibilidade)
      select t.id, t.nome, t.descricao, t.tipo, case when t.informada then t.visibilidade else g.visibilidade end
      from unnest(${col('id')}::text[], ${col('nome')}::text[], ${col('descricao')}::text[],
                  ${col('tipo')}::text[], ${col('visibilidade')}::text[], ${told}::boolean[])
        as t(id, nome, descricao, tipo, visibilidade, informada)
      left join grupos g on g.id = t.id
      on conflict (id) do update set nome = excluded.nome, descricao = excluded.descricao, tipo = excluded.tipo,
        visibilidade = excluded.visibilidade, data_atualizacao = now()
      where (grupos.nome, grupos.descricao, grupos.tipo, grupos.visibilidade)
        is distinct from (excluded.nome, excluded.descricao, excluded.tipo, excluded.visibilidade)`);
  }
}

/** Inserts direct memberships, each once. */
async function insertMemberships(tx: Db, added: StoredMembership[]): Promise<void> {
  for (let i = 0; i < added.length; i += BATCH) {
    const batch = added.slice(i, i + BATCH);
    const col = <K extends keyof StoredMembership>(k: K) => sql.param(batch.map((m) => m[k]));
    // Members of a group the portal does not keep (a distribution list) are not kept either.
    await tx.execute(sql`
      insert into grupo_membros (grupo_id, membro_id, membro_tipo)
      select t.grupo_id, t.membro_id, t.membro_tipo
      from unnest(${col('grupoId')}::text[], ${col('membroId')}::text[], ${col('membroTipo')}::text[])
        as t(grupo_id, membro_id, membro_tipo)
      where exists (select 1 from grupos g where g.id = t.grupo_id)
      on conflict (grupo_id, membro_id) do nothing`);
  }
}

/**
 * Demo data (demo/load-demo-data.ts): groups and their direct members, written in the caller's transaction with no
 * delta link, so the first sync still reads every group (and finds these same ids, whose panel links it keeps).
 */
export async function seedGroups(db: Db, groups: StoredGroup[], memberships: StoredMembership[]): Promise<void> {
  await upsertGroups(db, groups);
  await insertMemberships(db, memberships);
}
