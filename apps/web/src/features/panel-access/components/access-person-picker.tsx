import { useCallback } from 'react';
import type { Usuario365 } from '@paineis/contract/users';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { SearchCombobox } from '../../../components/search-combobox.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatInteger } from '../../../lib/format.ts';
import { useActiveUsers } from '../../../lib/api/get-active-users.ts';
import { findPeople, MAX_PERSON_MATCHES } from '../utils/access-person-search.ts';

export const PEOPLE_LOAD_ERROR = 'Erro ao carregar as pessoas';

/**
 * 'Buscar pessoa': a combobox over the directory's active people. Typing shows the first matches (by name or
 * e-mail, ignoring case and accents); the arrow keys move through them, Enter chooses, Escape closes the list.
 */
export function AccessPersonPicker({ onChoose }: { onChoose: (person: Usuario365) => void }) {
  const users = useActiveUsers();
  const loaded = users.data !== undefined;
  const search = useCallback(
    (query: string) => {
      const { matches, total } = findPeople(users.data ?? [], query);
      const note =
        total === 0
          ? 'Nenhuma pessoa encontrada.'
          : total > MAX_PERSON_MATCHES
            ? `Mostrando ${MAX_PERSON_MATCHES} de ${formatInteger(total)} pessoas. Continue digitando para refinar a busca.`
            : `${formatInteger(total)} ${total === 1 ? 'pessoa encontrada' : 'pessoas encontradas'}.`;
      return { options: matches, note };
    },
    [users.data],
  );

  return (
    <div>
      <SearchCombobox
        label="Buscar pessoa"
        labelClassName="fw-semibold"
        listLabel="Pessoas encontradas"
        placeholder="Buscar por nome ou e-mail..."
        disabled={users.isError}
        search={search}
        // The whole directory is no list to scroll: it opens once something is typed.
        opensFor={(query) => loaded && query.trim() !== ''}
        onChoose={onChoose}
        renderOption={(person) => (
          <>
            <div className="fw-medium text-truncate">{person.displayName}</div>
            <div className="small text-body-secondary text-truncate">{person.email}</div>
          </>
        )}
      />
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
