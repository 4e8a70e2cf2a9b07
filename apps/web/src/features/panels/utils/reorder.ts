import type { UniqueIdentifier } from '@dnd-kit/core';
import { SEM_CLASSIFICACAO_ID } from '@paineis/contract/constants';
import type { GrupoPaineis, Painel, ReorderItem } from '@paineis/contract/panels';
import { searchKey } from '../../../lib/search-key.ts';

/** Where a panel sits in the grouped list. */
export interface PanelLocation {
  painel: Painel;
  grupo: GrupoPaineis;
  groupIndex: number;
  /** 0-based position inside its group. */
  index: number;
}

/** One pass over the list, so each drag event finds a panel in O(1) instead of scanning every group. */
export function indexPanels(groups: readonly GrupoPaineis[]): Map<number, PanelLocation> {
  const map = new Map<number, PanelLocation>();
  groups.forEach((grupo, groupIndex) => {
    grupo.paineis.forEach((painel, index) => map.set(painel.id, { painel, grupo, groupIndex, index }));
  });
  return map;
}

const GROUP_DROP_PREFIX = 'grupo-';

/** The drop zone of an empty classification; panel ids are plain numbers, so the two never collide. */
export const groupDropId = (classificacaoId: number) => `${GROUP_DROP_PREFIX}${classificacaoId}`;

export type DropTarget = { type: 'painel'; id: number } | { type: 'grupo'; id: number };

export function parseDropTarget(id: UniqueIdentifier): DropTarget | null {
  if (typeof id === 'number') return { type: 'painel', id };
  if (id.startsWith(GROUP_DROP_PREFIX)) {
    const groupId = Number(id.slice(GROUP_DROP_PREFIX.length));
    return Number.isInteger(groupId) ? { type: 'grupo', id: groupId } : null;
  }
  return null;
}

/** Ordem 1..n in list order (docs/requirements.md#ui-constants: reorder numbers start at 1). */
export function renumber(paineis: readonly Painel[]): { paineis: Painel[]; items: ReorderItem[] } {
  const renumbered = paineis.map((p, i) => (p.ordem === i + 1 ? p : { ...p, ordem: i + 1 }));
  return { paineis: renumbered, items: renumbered.map((p) => ({ painelId: p.id, novaOrdem: p.ordem })) };
}

const withPanels = (grupo: GrupoPaineis, paineis: Painel[]): GrupoPaineis => ({
  ...grupo,
  paineis,
  quantidadePaineis: paineis.length,
});

/**
 * Where a panel dropped on `over` lands in over's group (0-based). Within a group it takes over's place.
 * From another group it goes before `over` when it comes from above and after it when it comes from below,
 * so moving down enters a group at its top and moving up enters it at its bottom (keyboard users reach both).
 */
export function dropIndex(active: PanelLocation, over: PanelLocation): number {
  if (active.groupIndex === over.groupIndex) return over.index;
  return active.groupIndex > over.groupIndex ? over.index + 1 : over.index;
}

export type DropResult =
  | {
      kind: 'reorder';
      /** The list as it will look once saved (unchanged groups keep their identity). */
      groups: GrupoPaineis[];
      painel: Painel;
      /** 1-based position in the group. */
      position: number;
      /** The whole group renumbered from 1, for POST /paineis/reorder. */
      items: ReorderItem[];
    }
  | {
      kind: 'move';
      groups: GrupoPaineis[];
      /** The panel as it is after the move (new classification and ordem). */
      painel: Painel;
      from: GrupoPaineis;
      to: GrupoPaineis;
      position: number;
      /** The target group renumbered from 1 (the moved panel included); empty when it holds only that panel. */
      items: ReorderItem[];
    };

/**
 * What dropping panel `activeId` on `overId` does (docs/requirements.md#drag-reorder): within its classification the
 * group is reordered and renumbered; onto a panel of another classification the panel joins it next to that panel (see
 * dropIndex) and that group is renumbered; onto an empty classification's drop zone it becomes its only panel.
 * Null when nothing changes.
 */
export function computeDrop(
  groups: readonly GrupoPaineis[],
  activeId: number,
  overId: UniqueIdentifier,
  locations: Map<number, PanelLocation> = indexPanels(groups),
): DropResult | null {
  const active = locations.get(activeId);
  const target = parseDropTarget(overId);
  if (!active || !target) return null;

  let toGroupIndex: number;
  let toIndex: number;
  if (target.type === 'painel') {
    const over = locations.get(target.id);
    if (!over) return null;
    toGroupIndex = over.groupIndex;
    toIndex = dropIndex(active, over);
  } else {
    toGroupIndex = groups.findIndex((g) => g.id === target.id);
    const toGroup = groups[toGroupIndex];
    if (!toGroup) return null;
    toIndex = toGroup.paineis.length;
  }

  if (toGroupIndex === active.groupIndex) {
    if (toIndex === active.index || toIndex >= active.grupo.paineis.length) return null;
    const moved = active.grupo.paineis.slice();
    moved.splice(active.index, 1);
    moved.splice(toIndex, 0, active.painel);
    const { paineis, items } = renumber(moved);
    const next = groups.slice();
    next[toGroupIndex] = withPanels(active.grupo, paineis);
    return { kind: 'reorder', groups: next, painel: paineis[toIndex]!, position: toIndex + 1, items };
  }

  const to = groups[toGroupIndex]!;
  const painel: Painel = {
    ...active.painel,
    classificacaoId: to.id,
    classificacaoNome: to.nome,
    ordem: toIndex + 1,
  };
  const targetPanels = to.paineis.slice();
  targetPanels.splice(toIndex, 0, painel);
  const { paineis, items } = renumber(targetPanels);
  const sourcePanels = active.grupo.paineis.filter((p) => p.id !== activeId);

  const next = groups.map((g, i) => {
    if (i === active.groupIndex) return withPanels(g, sourcePanels);
    if (i === toGroupIndex) return withPanels(g, paineis);
    return g;
  });
  return {
    kind: 'move',
    // The server lists 'Sem Classificação' only while it holds panels; the optimistic list does the same.
    groups: next.filter((g) => g.id !== SEM_CLASSIFICACAO_ID || g.paineis.length > 0),
    painel: paineis[toIndex]!,
    from: active.grupo,
    to,
    position: toIndex + 1,
    items: paineis.length > 1 ? items : [],
  };
}

// Each panel's normalized name, worked out the first time a search needs it and kept for as long as the panel object
// lives: the list's objects are reused across reloads and reorders (unchanged panels keep their identity).
const searchNames = new WeakMap<Painel, string>();

function searchName(painel: Painel): string {
  let name = searchNames.get(painel);
  if (name === undefined) {
    name = searchKey(painel.nomePainel);
    searchNames.set(painel, name);
  }
  return name;
}

/**
 * The groups holding panels whose name contains the query, each with only those panels. Each panel's normalized
 * name is computed once (`names`, or a cache kept per panel), not once per keystroke.
 */
export function filterGroups(
  groups: readonly GrupoPaineis[],
  query: string,
  names?: ReadonlyMap<number, string>,
): readonly GrupoPaineis[] {
  const needle = searchKey(query);
  if (!needle) return groups;
  const nameOf = names ? (p: Painel) => names.get(p.id) ?? searchName(p) : searchName;
  const result: GrupoPaineis[] = [];
  for (const grupo of groups) {
    const paineis = grupo.paineis.filter((p) => nameOf(p).includes(needle));
    if (paineis.length > 0) result.push({ ...grupo, paineis });
  }
  return result;
}

export function normalizedNames(groups: readonly GrupoPaineis[]): Map<number, string> {
  const map = new Map<number, string>();
  for (const grupo of groups) for (const p of grupo.paineis) map.set(p.id, searchName(p));
  return map;
}
