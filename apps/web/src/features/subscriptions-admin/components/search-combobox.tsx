import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import Form from 'react-bootstrap/Form';
import { normalizeSearch } from '@paineis/contract/text';
import { formatInteger } from '../../../lib/format.ts';

// Enough to choose from while typing; a longer list is narrowed by typing more.
const MAX_OPTIONS = 50;

/** An item the combobox offers: its id, its name, a second line, and the text searched (name and second line). */
export interface ComboboxItem {
  id: string;
  label: string;
  detail?: string;
}

interface SearchComboboxProps<T extends ComboboxItem> {
  /** The visible label above the text box. */
  label: string;
  placeholder: string;
  items: readonly T[];
  /** Ids not offered (those already chosen). */
  exclude?: ReadonlySet<string>;
  onChoose: (item: T) => void;
  /** 'Nenhuma pessoa encontrada.' */
  emptyText: string;
  disabled?: boolean;
}

// Worked out once per list the server sent (the queries keep the same array while nothing changed).
const searchTexts = new WeakMap<readonly ComboboxItem[], string[]>();

function searchTextsOf(items: readonly ComboboxItem[]): string[] {
  let texts = searchTexts.get(items);
  if (!texts) {
    // The newline keeps a query from matching across the end of the name and the start of the second line.
    texts = items.map((item) => normalizeSearch(`${item.label}\n${item.detail ?? ''}`));
    searchTexts.set(items, texts);
  }
  return texts;
}

/**
 * A text box that finds an item by name (or its second line: an e-mail, a description) as it is typed, ignoring case
 * and accents, and the first matches to choose one from: the ARIA combobox pattern (arrows move, Enter chooses,
 * Escape closes the list and not the modal around it), by mouse as well.
 */
export function SearchCombobox<T extends ComboboxItem>({
  label,
  placeholder,
  items,
  exclude,
  onChoose,
  emptyText,
  disabled = false,
}: SearchComboboxProps<T>) {
  const inputId = useId();
  const listId = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const { shown, total } = useMemo(() => {
    const needle = normalizeSearch(query);
    const texts = searchTextsOf(items);
    const found: T[] = [];
    let count = 0;
    items.forEach((item, index) => {
      if (exclude?.has(item.id) || (needle && !texts[index]!.includes(needle))) return;
      count += 1;
      if (found.length < MAX_OPTIONS) found.push(item);
    });
    return { shown: found, total: count };
  }, [items, exclude, query]);
  const activeIndex = Math.min(active, shown.length - 1);
  const expanded = open && !disabled;
  const optionId = (index: number) => `${listId}-${index}`;

  const choose = (item: T | undefined) => {
    if (!item) return;
    onChoose(item);
    setQuery('');
    setActive(0);
    setOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!expanded) {
        setOpen(true);
        setActive(0);
        return;
      }
      const step = event.key === 'ArrowDown' ? 1 : -1;
      const next = Math.min(Math.max(activeIndex + step, 0), Math.max(shown.length - 1, 0));
      setActive(next);
      // jsdom has no scrollIntoView.
      document.getElementById(optionId(next))?.scrollIntoView?.({ block: 'nearest' });
    } else if (event.key === 'Enter') {
      // Never submits the form around it: Enter here means 'choose this one'.
      event.preventDefault();
      if (expanded) choose(shown[activeIndex]);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <div className="position-relative">
      <Form.Label htmlFor={inputId}>{label}</Form.Label>
      <Form.Control
        id={inputId}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && activeIndex >= 0 ? optionId(activeIndex) : undefined}
        placeholder={placeholder}
        autoComplete="off"
        value={query}
        disabled={disabled}
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
        className="position-absolute start-0 mt-1 bg-body border rounded shadow"
        // As wide as the text box, over what follows (the stylesheet builds no end-0 or z-index class).
        style={{ right: 0, zIndex: 1060 }}
        hidden={!expanded}
      >
        <ul
          id={listId}
          role="listbox"
          aria-label={label}
          className="list-unstyled mb-0"
          style={{ maxHeight: 240, overflowY: 'auto' }}
        >
          {expanded &&
            shown.map((item, index) => (
              <li
                key={item.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === activeIndex}
                className={`px-3 py-1${index === activeIndex ? ' bg-primary-subtle' : ''}`}
                style={{ cursor: 'pointer' }}
                // Keeps the focus in the text box, so the list is still open when the click lands.
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => setActive(index)}
                onClick={() => choose(item)}
              >
                <div className="text-truncate">{item.label}</div>
                {item.detail && <div className="small text-body-secondary text-truncate">{item.detail}</div>}
              </li>
            ))}
        </ul>
        {expanded && (shown.length === 0 || total > shown.length) && (
          <div
            className="small text-body-secondary px-3 py-1"
            style={{ borderTop: 'var(--bs-border-width) solid var(--bs-border-color)' }}
          >
            {shown.length === 0
              ? emptyText
              : `Mostrando ${MAX_OPTIONS} de ${formatInteger(total)}. Continue digitando para refinar a busca.`}
          </div>
        )}
      </div>
    </div>
  );
}
