import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import Badge from 'react-bootstrap/Badge';
import Form from 'react-bootstrap/Form';
import { GROUP_TYPE_LABELS, membersLabel, type PickerGroup } from '../utils/picker-groups.ts';
import { USER_LIST_MAX_HEIGHT } from './user-table.tsx';

// Two lines each (name, then description, each cut with an ellipsis), so every row is this high.
const ROW_HEIGHT = 58;

interface GroupListProps {
  groups: PickerGroup[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
}

/**
 * The groups, each with its checkbox, name, description, type and member count, in a list as high as the people's.
 * Only the rows in view (plus a few) are in the page: a large directory holds thousands of groups.
 */
export function GroupList({ groups, selected, onToggle }: GroupListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: groups.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => groups[index]?.id ?? index,
    overscan: 6,
    initialRect: { width: 760, height: USER_LIST_MAX_HEIGHT },
  });

  if (groups.length === 0) {
    return <div className="border rounded text-center text-body-secondary py-3">Nenhum grupo encontrado.</div>;
  }
  return (
    <div ref={scrollRef} className="border rounded" style={{ maxHeight: USER_LIST_MAX_HEIGHT, overflow: 'auto' }}>
      <ul className="list-unstyled mb-0 position-relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const group = groups[item.index]!;
          const checked = selected.has(group.id);
          const checkId = `grupo-${item.index}-${group.id}`;
          return (
            <li
              key={item.key}
              aria-setsize={groups.length}
              aria-posinset={item.index + 1}
              className={`d-flex align-items-center gap-2 px-2 border-bottom position-absolute start-0 ${checked ? 'bg-body-tertiary' : ''}`}
              style={{ top: 0, width: '100%', height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
            >
              <Form.Check.Input
                id={checkId}
                type="checkbox"
                className="flex-shrink-0 mt-0"
                checked={checked}
                onChange={() => onToggle(group.id)}
                aria-label={`Selecionar ${group.nome}`}
              />
              {/* The whole text is the checkbox's label, so a click anywhere on it toggles it. */}
              <label htmlFor={checkId} className="flex-grow-1" style={{ minWidth: 0, cursor: 'pointer' }}>
                <span className="d-block text-truncate fw-semibold" title={group.nome}>
                  {group.nome}
                </span>
                <span className="d-block small text-body-secondary text-truncate" title={group.descricao ?? undefined}>
                  {group.descricao ?? (group.tipo === null ? 'Grupo não encontrado no diretório' : '—')}
                </span>
              </label>
              {group.tipo !== null && (
                <Badge bg={group.tipo === 'seguranca' ? 'secondary' : 'primary'} className="flex-shrink-0">
                  {GROUP_TYPE_LABELS[group.tipo]}
                </Badge>
              )}
              {group.membros !== null && (
                <span className="small text-body-secondary text-nowrap flex-shrink-0">
                  {membersLabel(group.membros)}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
