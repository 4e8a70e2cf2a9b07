import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import Form from 'react-bootstrap/Form';
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

/**
 * A text box that finds a group by name or description as it is typed, and a list of the matches to add one from:
 * the ARIA combobox pattern (arrows move through the list, Enter adds, Escape closes), by mouse as well.
 */
export function GroupCombobox({ label, groups, onAdd }: GroupComboboxProps) {
  const inputId = useId();
  const listId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const matches = useMemo(() => filterGroups(groups, query), [groups, query]);
  const shown = matches.slice(0, MAX_OPTIONS);
  const activeIndex = Math.min(active, shown.length - 1);
  const expanded = open && shown.length > 0;
  const optionId = (index: number) => `${listId}-${index}`;

  const add = (group: PickerGroup | undefined) => {
    if (!group) return;
    onAdd(group.id);
    setQuery('');
    setActive(0);
    setOpen(false);
  };

  const move = (to: number) => {
    const index = (to + shown.length) % shown.length;
    setActive(index);
    listRef.current?.querySelector(`[id="${optionId(index)}"]`)?.scrollIntoView?.({ block: 'nearest' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!expanded) {
        setOpen(true);
        setActive(event.key === 'ArrowDown' ? 0 : shown.length - 1);
      } else {
        move(activeIndex + (event.key === 'ArrowDown' ? 1 : -1));
      }
    } else if (event.key === 'Enter') {
      // Never submits anything around it: Enter here means 'add this group'.
      event.preventDefault();
      if (expanded) add(shown[activeIndex]);
    } else if (event.key === 'Escape' && open) {
      // Closes the list, not the modal.
      event.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <div className="position-relative">
      <Form.Label htmlFor={inputId} visuallyHidden>
        {label}
      </Form.Label>
      <Form.Control
        id={inputId}
        size="sm"
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && activeIndex >= 0 ? optionId(activeIndex) : undefined}
        placeholder="Buscar grupo para adicionar..."
        autoComplete="off"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <div
        className="position-absolute start-0 mt-1 bg-body border rounded shadow-sm"
        // As wide as the text box, over what follows (the stylesheet builds no end-0 or z-index class).
        style={{ right: 0, zIndex: 1060, maxHeight: 240, overflowY: 'auto' }}
        hidden={!open}
      >
        <ul
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label={label}
          className="list-unstyled mb-0"
          hidden={!expanded}
        >
          {expanded &&
            shown.map((group, index) => (
              <li
                key={group.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === activeIndex}
                className={`d-flex align-items-baseline gap-2 px-2 py-1 ${index === activeIndex ? 'bg-primary-subtle' : ''}`}
                style={{ cursor: 'pointer' }}
                // Keeps the focus in the text box, so the list is still open when the click lands.
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => setActive(index)}
                onClick={() => add(group)}
              >
                <span className="text-truncate">{group.nome}</span>
                {group.membros !== null && (
                  <span className="small text-body-secondary text-nowrap ms-auto">{membersLabel(group.membros)}</span>
                )}
              </li>
            ))}
        </ul>
        {open && shown.length === 0 && (
          <div className="small text-body-secondary px-2 py-1">Nenhum grupo encontrado.</div>
        )}
        {open && matches.length > shown.length && (
          <div
            className="small text-body-secondary px-2 py-1"
            style={{ borderTop: 'var(--bs-border-width) solid var(--bs-border-color)' }}
          >
            Mais {formatInteger(matches.length - shown.length)}: continue digitando para refinar a busca.
          </div>
        )}
      </div>
    </div>
  );
}
