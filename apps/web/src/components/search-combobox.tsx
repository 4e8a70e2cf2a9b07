import { useEffect, useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';

/** What a combobox offers for what is typed: the options to choose from and a line under them (or null). */
export interface ComboboxMatches<T> {
  options: readonly T[];
  note: ReactNode;
}

interface SearchComboboxProps<T extends { id: string }> {
  /** The text box's label (and the list's, unless listLabel says otherwise). */
  label: string;
  /** Keeps the label for screen readers only. */
  hideLabel?: boolean;
  labelClassName?: string;
  listLabel?: string;
  placeholder: string;
  size?: 'sm';
  disabled?: boolean;
  /** The matches for what is typed; keep it stable (useCallback), it is worked out again whenever it changes. */
  search: (query: string) => ComboboxMatches<T>;
  /** Whether the list may open for what is typed (by default, always). */
  opensFor?: (query: string) => boolean;
  renderOption: (option: T) => ReactNode;
  onChoose: (option: T) => void;
}

/**
 * A text box that finds something as it is typed and a list of the matches to choose one from: the ARIA combobox
 * pattern (the arrows move through the list, Enter chooses, Escape closes the list and not the modal around it), by
 * mouse as well. What is searched, and how an option reads, is the caller's.
 */
export function SearchCombobox<T extends { id: string }>({
  label,
  hideLabel = false,
  labelClassName,
  listLabel = label,
  placeholder,
  size,
  disabled = false,
  search,
  opensFor,
  renderOption,
  onChoose,
}: SearchComboboxProps<T>) {
  const inputId = useId();
  const listId = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const { options, note } = useMemo(() => search(query), [search, query]);
  const activeIndex = Math.min(active, options.length - 1);
  const expanded = open && !disabled && (opensFor?.(query) ?? true);
  const optionId = (index: number) => `${listId}-${index}`;
  const activeId = expanded && activeIndex >= 0 ? optionId(activeIndex) : undefined;

  useEffect(() => {
    // jsdom has no scrollIntoView.
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  const choose = (option: T | undefined) => {
    if (!option) return;
    onChoose(option);
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
      setActive(Math.min(Math.max(activeIndex + step, 0), Math.max(options.length - 1, 0)));
    } else if (event.key === 'Enter') {
      // Never submits the form around it: Enter here means 'choose this one'.
      event.preventDefault();
      if (expanded) choose(options[activeIndex]);
    } else if (event.key === 'Escape' && expanded) {
      // Closes the list only: what was typed stays, and nothing around it closes.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <div className="position-relative">
      <Form.Label htmlFor={inputId} className={labelClassName} visuallyHidden={hideLabel}>
        {label}
      </Form.Label>
      <Form.Control
        id={inputId}
        size={size}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={activeId}
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
        // As wide as the text box, over what follows, in a modal too (the stylesheet builds no end-0 or z-index class).
        style={{ right: 0, zIndex: 1060 }}
        hidden={!expanded}
      >
        <ul
          id={listId}
          role="listbox"
          aria-label={listLabel}
          className="list-unstyled mb-0"
          style={{ maxHeight: 240, overflowY: 'auto' }}
        >
          {expanded &&
            options.map((option, index) => (
              <li
                key={option.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === activeIndex}
                className={`px-3 py-1${index === activeIndex ? ' bg-primary-subtle' : ''}`}
                style={{ cursor: 'pointer' }}
                // Keeps the focus in the text box, so the list is still open when the click lands.
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => setActive(index)}
                onClick={() => choose(option)}
              >
                {renderOption(option)}
              </li>
            ))}
        </ul>
        {expanded && note !== null && (
          <div
            className="small text-body-secondary px-3 py-1"
            style={
              options.length > 0 ? { borderTop: 'var(--bs-border-width) solid var(--bs-border-color)' } : undefined
            }
            aria-live="polite"
          >
            {note}
          </div>
        )}
      </div>
    </div>
  );
}
