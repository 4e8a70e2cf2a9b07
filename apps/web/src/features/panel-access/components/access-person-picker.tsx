import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import Form from 'react-bootstrap/Form';
import type { Usuario365 } from '@paineis/contract/users';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatInteger } from '../../../lib/format.ts';
import { useActiveUsers } from '../api/get-active-users.ts';
import { findPeople, MAX_PERSON_MATCHES } from '../utils/access-person-search.ts';

export const PEOPLE_LOAD_ERROR = 'Erro ao carregar as pessoas';

/**
 * 'Buscar pessoa': a combobox over the directory's active people. Typing shows the first matches (by name or
 * e-mail, ignoring case and accents); the arrow keys move through them, Enter chooses, Escape closes the list.
 */
export function AccessPersonPicker({ onChoose }: { onChoose: (person: Usuario365) => void }) {
  const inputId = useId();
  const listId = useId();
  const users = useActiveUsers();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const { matches, total } = useMemo(() => findPeople(users.data ?? [], query), [users.data, query]);
  const expanded = open && query.trim() !== '' && users.data !== undefined;
  const activeId = expanded && matches[active] ? `${listId}-${active}` : undefined;

  useEffect(() => {
    // jsdom has no scrollIntoView.
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  const choose = (person: Usuario365) => {
    onChoose(person);
    setQuery('');
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
      setActive((current) => Math.min(Math.max(current + step, 0), Math.max(matches.length - 1, 0)));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const person = expanded ? matches[active] : undefined;
      if (person) choose(person);
    } else if (event.key === 'Escape' && expanded) {
      // Closes the list only: the search box is not cleared, nor is anything around it closed.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <div>
      <Form.Label htmlFor={inputId} className="fw-semibold">
        Buscar pessoa
      </Form.Label>
      <div className="position-relative">
        <Form.Control
          id={inputId}
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={activeId}
          placeholder="Buscar por nome ou e-mail..."
          autoComplete="off"
          value={query}
          disabled={users.isError}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
        />
        <div
          className="position-absolute start-0 mt-1 bg-body border rounded shadow"
          // Over what follows, as wide as the search box (style: the stylesheet builds no end-0 or z-index class).
          style={{ right: 0, zIndex: 1000 }}
          hidden={!expanded}
        >
          <ul
            id={listId}
            role="listbox"
            aria-label="Pessoas encontradas"
            className="list-unstyled mb-0"
            style={{ maxHeight: 320, overflowY: 'auto' }}
          >
            {matches.map((person, index) => (
              <li
                key={person.id}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                className={`px-3 py-2${index === active ? ' bg-primary-subtle' : ''}`}
                style={{ cursor: 'pointer' }}
                // Chosen before the search box loses the focus (which closes the list).
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => setActive(index)}
                onClick={() => choose(person)}
              >
                <div className="fw-medium text-truncate">{person.displayName}</div>
                <div className="small text-body-secondary text-truncate">{person.email}</div>
              </li>
            ))}
          </ul>
          <div
            className="small text-body-secondary px-3 py-2"
            style={{ borderTop: 'var(--bs-border-width) solid var(--bs-border-color)' }}
            aria-live="polite"
          >
            {total === 0
              ? 'Nenhuma pessoa encontrada.'
              : total > MAX_PERSON_MATCHES
                ? `Mostrando ${MAX_PERSON_MATCHES} de ${formatInteger(total)} pessoas. Continue digitando para refinar a busca.`
                : `${formatInteger(total)} ${total === 1 ? 'pessoa encontrada' : 'pessoas encontradas'}.`}
          </div>
        </div>
      </div>
      {users.isError && (
        <LoadErrorAlert
          className="mt-2 mb-0"
          message={errorMessage(users.error, PEOPLE_LOAD_ERROR)}
          retryDisabled={users.isFetching}
          onRetry={() => void users.refetch()}
        />
      )}
    </div>
  );
}
