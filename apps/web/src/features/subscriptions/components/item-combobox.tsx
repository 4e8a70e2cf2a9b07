import { useCallback } from 'react';
import { PublicGroupBadge } from '../../../components/public-group-badge.tsx';
import { SearchCombobox } from '../../../components/search-combobox.tsx';
import { formatInteger } from '../../../lib/format.ts';
import { searchKey } from '../../../lib/search-key.ts';

// Enough to choose from while typing; a longer list is narrowed by typing more.
const MAX_OPTIONS = 50;

/** An item the combobox offers: its id, its name, a second line, and the text searched (name and second line). */
export interface ComboboxItem {
  id: string;
  label: string;
  detail?: string;
  /** A public Microsoft 365 group: marked, since anyone in the organisation may join it unapproved. */
  publico?: boolean;
}

/** An item's name, with the public group's mark when it is one. */
export function ItemLabel({ item }: { item: ComboboxItem }) {
  return (
    <>
      {item.label}
      {item.publico && (
        <>
          {' '}
          <PublicGroupBadge />
        </>
      )}
    </>
  );
}

interface ItemComboboxProps<T extends ComboboxItem> {
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
    texts = items.map((item) => searchKey(`${item.label}\n${item.detail ?? ''}`));
    searchTexts.set(items, texts);
  }
  return texts;
}

/**
 * A combobox over a list the server sent (panels, people, groups): finds an item by name or its second line (an
 * e-mail, a description) as it is typed, ignoring case and accents, and offers the first matches.
 */
export function ItemCombobox<T extends ComboboxItem>({
  label,
  placeholder,
  items,
  exclude,
  onChoose,
  emptyText,
  disabled = false,
}: ItemComboboxProps<T>) {
  const search = useCallback(
    (query: string) => {
      const needle = searchKey(query);
      const texts = searchTextsOf(items);
      const options: T[] = [];
      let total = 0;
      items.forEach((item, index) => {
        if (exclude?.has(item.id) || (needle && !texts[index]!.includes(needle))) return;
        total += 1;
        if (options.length < MAX_OPTIONS) options.push(item);
      });
      const note =
        options.length === 0
          ? emptyText
          : total > options.length
            ? `Mostrando ${MAX_OPTIONS} de ${formatInteger(total)}. Continue digitando para refinar a busca.`
            : null;
      return { options, note };
    },
    [items, exclude, emptyText],
  );

  return (
    <SearchCombobox
      label={label}
      placeholder={placeholder}
      disabled={disabled}
      search={search}
      onChoose={onChoose}
      renderOption={(item) => (
        <>
          <div className="text-truncate">
            <ItemLabel item={item} />
          </div>
          {item.detail && <div className="small text-body-secondary text-truncate">{item.detail}</div>}
        </>
      )}
    />
  );
}

/** The people or groups chosen so far, each with a button that takes it out. */
export function ChosenList({
  label,
  items,
  onRemove,
}: {
  label: string;
  items: ComboboxItem[];
  onRemove: (id: string) => void;
}) {
  if (items.length === 0) return null;
  return (
    <ul className="list-unstyled d-flex flex-wrap gap-2 mt-2 mb-0" aria-label={label}>
      {items.map((item) => (
        <li key={item.id} className="d-inline-flex align-items-center gap-2 border rounded-pill ps-3 pe-2 py-1 small">
          <span title={item.detail}>
            <ItemLabel item={item} />
          </span>
          <button
            type="button"
            className="btn-close"
            style={{ fontSize: '0.6rem' }}
            aria-label={`Remover ${item.label}`}
            onClick={() => onRemove(item.id)}
          />
        </li>
      ))}
    </ul>
  );
}

/** A person as the recipient pickers list them. */
export const personItem = (u: { id: string; displayName: string; email: string }): ComboboxItem => ({
  id: u.id,
  label: u.displayName,
  detail: u.email,
});

/** A directory group as the recipient pickers list them, marked when it is public. */
export const groupItem = (g: {
  id: string;
  nome: string;
  descricao?: string | null;
  publico: boolean;
}): ComboboxItem => ({
  id: g.id,
  label: g.nome,
  detail: g.descricao ?? undefined,
  publico: g.publico,
});
