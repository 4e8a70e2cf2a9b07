import type { Grupo365, GrupoVinculado } from '@paineis/contract/groups';
import { formatInteger } from '../../../lib/format.ts';
import { searchKey } from '../../../lib/search-key.ts';

/** A group as the pickers show it, with its search text worked out once per group list. */
export interface PickerGroup {
  id: string;
  nome: string;
  descricao: string | null;
  /** Null for a linked group the directory list does not hold (it has only an id and a name). */
  tipo: Grupo365['tipo'] | null;
  membros: number | null;
  /** A public Microsoft 365 group: anyone may join it. */
  publico: boolean;
  /** What linking it grants (PUBLIC_GROUPS_GRANT); null for a linked group the directory list does not hold. */
  concede: Grupo365['concede'] | null;
  search: string;
}

export const GROUP_TYPE_LABELS: Record<Grupo365['tipo'], string> = {
  seguranca: 'Segurança',
  microsoft365: 'Microsoft 365',
};

/** '1 membro', '1.234 membros'. */
export const membersLabel = (membros: number) => `${formatInteger(membros)} ${membros === 1 ? 'membro' : 'membros'}`;

const collator = new Intl.Collator('pt-BR');
const byName = (a: PickerGroup, b: PickerGroup) => collator.compare(a.nome, b.nome) || collator.compare(a.id, b.id);

export function pickerGroup(g: Omit<PickerGroup, 'search'>): PickerGroup {
  return {
    id: g.id,
    nome: g.nome,
    descricao: g.descricao,
    tipo: g.tipo,
    membros: g.membros,
    publico: g.publico,
    concede: g.concede,
    // The newline keeps a query from matching across the end of the name and the start of the description.
    search: searchKey(`${g.nome}\n${g.descricao ?? ''}`),
  };
}

/**
 * The directory's groups by name (pt-BR), plus any linked group it does not hold, so that every selected id has a
 * row and stays linked unless the admin unticks it.
 */
export function preparePickerGroups(groups: readonly Grupo365[], linked: readonly GrupoVinculado[]): PickerGroup[] {
  const byId = new Map<string, PickerGroup>();
  for (const g of groups) byId.set(g.id, pickerGroup(g));
  for (const g of linked) {
    if (!byId.has(g.id)) {
      byId.set(g.id, pickerGroup({ ...g, descricao: null, tipo: null, membros: null, concede: null }));
    }
  }
  return Array.from(byId.values()).sort(byName);
}

/** Selected groups first, each part keeping the order of `groups`. */
export function selectedGroupsFirst(groups: readonly PickerGroup[], selected: ReadonlySet<string>): PickerGroup[] {
  const chosen: PickerGroup[] = [];
  const others: PickerGroup[] = [];
  for (const g of groups) (selected.has(g.id) ? chosen : others).push(g);
  return chosen.concat(others);
}

/** Groups whose name or description contains the query, ignoring case and accents (as people are searched). */
export function filterGroups<T extends PickerGroup>(groups: T[], query: string): T[] {
  const needle = searchKey(query);
  if (!needle) return groups;
  return groups.filter((g) => g.search.includes(needle));
}

/** Whether two lists of ids hold the same ids, whatever their order. */
export function sameIds(a: Iterable<string>, b: Iterable<string>): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((id) => right.has(id));
}
