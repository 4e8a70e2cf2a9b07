import { useCallback } from 'react';
import { PublicGroupBadge } from '../../../components/public-group-badge.tsx';
import { SearchCombobox } from '../../../components/search-combobox.tsx';
import { formatInteger } from '../../../lib/format.ts';
import { filterGroups, membersLabel, type PickerGroup } from '../utils/picker-groups.ts';

// Enough to choose from while typing; a longer list is narrowed by typing more.
const MAX_OPTIONS = 50;

interface GroupComboboxProps {
  /** The input's accessible name. */
  label: string;
  /** The groups that may be added, by name. */
  groups: PickerGroup[];
  /** Groups a search finds but that may not be added, and why (a public group where it would grant nothing). */
  refused?: { groups: PickerGroup[]; why: string };
  onAdd: (id: string) => void;
}

/**
 * A combobox that finds a group to add by name or description as it is typed. A refused group it finds is named
 * under the options with why, rather than left out without a word.
 */
export function GroupCombobox({ label, groups, refused, onAdd }: GroupComboboxProps) {
  const search = useCallback(
    (query: string) => {
      const matches = filterGroups(groups, query);
      const options = matches.slice(0, MAX_OPTIONS);
      const held = refused ? filterGroups(refused.groups, query) : [];
      const found =
        options.length === 0 && held.length === 0
          ? 'Nenhum grupo encontrado.'
          : matches.length > options.length
            ? `Mais ${formatInteger(matches.length - options.length)}: continue digitando para refinar a busca.`
            : null;
      const names = held.slice(0, 3).map((g) => g.nome);
      const more = held.length > names.length ? ` e mais ${formatInteger(held.length - names.length)}` : '';
      const why = refused && held.length > 0 ? `${refused.why}: ${names.join(', ')}${more}.` : null;
      return { options, note: found && why ? `${found} ${why}` : (found ?? why) };
    },
    [groups, refused],
  );

  return (
    <SearchCombobox
      label={label}
      hideLabel
      size="sm"
      placeholder="Buscar grupo para adicionar..."
      search={search}
      onChoose={(group) => onAdd(group.id)}
      renderOption={(group) => (
        <div className="d-flex align-items-baseline gap-2">
          <span className="text-truncate">{group.nome}</span>
          {group.publico && <PublicGroupBadge />}
          {group.membros !== null && (
            <span className="small text-body-secondary text-nowrap ms-auto">{membersLabel(group.membros)}</span>
          )}
        </div>
      )}
    />
  );
}
