import { useCallback } from 'react';
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
  onAdd: (id: string) => void;
}

/** A combobox that finds a group to add by name or description as it is typed. */
export function GroupCombobox({ label, groups, onAdd }: GroupComboboxProps) {
  const search = useCallback(
    (query: string) => {
      const matches = filterGroups(groups, query);
      const options = matches.slice(0, MAX_OPTIONS);
      const note =
        options.length === 0
          ? 'Nenhum grupo encontrado.'
          : matches.length > options.length
            ? `Mais ${formatInteger(matches.length - options.length)}: continue digitando para refinar a busca.`
            : null;
      return { options, note };
    },
    [groups],
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
          {group.membros !== null && (
            <span className="small text-body-secondary text-nowrap ms-auto">{membersLabel(group.membros)}</span>
          )}
        </div>
      )}
    />
  );
}
