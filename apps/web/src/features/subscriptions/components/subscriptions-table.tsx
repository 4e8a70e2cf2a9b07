import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import { SITUACAO_ROTULOS, type SituacaoAssinatura } from '@paineis/contract/subscription-constants';
import type { Assinatura } from '@paineis/contract/subscriptions';
import { VirtualTable } from '../../../components/virtual-table.tsx';
import { formatDateMinutes } from '../../../lib/format.ts';
import { browserTimeZone, describeSchedule } from '../utils/subscription-schedule.ts';
import { failureText, recipientsLabel, type SubscriptionRow } from '../utils/subscription-rows.ts';

/** The list scrolls within at most this height. */
export const SUBSCRIPTIONS_LIST_MAX_HEIGHT = 560;
// Every cell holds at most two lines (a name and a small line, or the schedule in two), cut with an ellipsis, so the
// height of every row is known before it is drawn: a last failure adds a small line (its text takes two under the
// badge), and the recipients shown by name one small line each, under their count.
const ROW_HEIGHT = 57;
const SMALL_LINE = 21;
// The recipients' count is a small button (a small line and its border); their names follow it.
const RECIPIENTS_COUNT_HEIGHT = 33;
// On a phone the list scrolls sideways rather than squeezing seven columns.
const TABLE_MIN_WIDTH = 1040;

const SITUACAO_CORES: Record<SituacaoAssinatura, string> = {
  ativa: 'success',
  pausada: 'secondary',
  'sem-acesso': 'warning',
};

// Two small lines at most, then an ellipsis (the whole text is in the title).
const TWO_LINES = {
  display: '-webkit-box',
  WebkitLineClamp: 2,
  WebkitBoxOrient: 'vertical',
  overflow: 'hidden',
} as const;

function rowHeight(assinatura: Assinatura | undefined, expanded: ReadonlySet<string>): number {
  if (!assinatura) return ROW_HEIGHT;
  const withFailure = ROW_HEIGHT + (assinatura.ultimaFalha ? SMALL_LINE : 0);
  const { destinatarios } = assinatura;
  if (!destinatarios || !expanded.has(assinatura.id)) return withFailure;
  const names = destinatarios.usuarios.length + destinatarios.grupos.length;
  return Math.max(withFailure, RECIPIENTS_COUNT_HEIGHT + names * SMALL_LINE);
}

const when = (iso: string | null) => (iso ? formatDateMinutes(new Date(iso)) : '—');

/**
 * Painel, Dono, Destinatários, Agenda, Próximo envio, Último envio, Situação. Only the rows in view (plus a few) are
 * in the page, so that a portal with thousands of subscriptions lists them at once; padding rows above and below
 * keep the scroll bar true.
 */
export function SubscriptionsTable({ rows }: { rows: SubscriptionRow[] }) {
  // The subscriptions whose recipients are shown by name.
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const zone = browserTimeZone();
  return (
    <VirtualTable
      count={rows.length}
      estimateSize={(index) => rowHeight(rows[index]?.assinatura, expanded)}
      getItemKey={(index) => rows[index]?.assinatura.id ?? index}
      overscan={6}
      maxHeight={SUBSCRIPTIONS_LIST_MAX_HEIGHT}
      minWidth={TABLE_MIN_WIDTH}
      initialWidth={TABLE_MIN_WIDTH}
      columnWidths={['15%', '15%', '12%', '15%', '9%', '9%', undefined]}
      headers={['Painel', 'Dono', 'Destinatários', 'Agenda', 'Próximo envio', 'Último envio', 'Situação']}
      emptyText="Nenhuma assinatura encontrada."
      emptyClassName="py-4"
      // A row shown or hidden its names changes height: the sizes are worked out again.
      remeasure={expanded}
      renderCells={(index) => {
        const a = rows[index]!.assinatura;
        const schedule = describeSchedule(a, zone);
        const detail = `${a.formato === 'PPTX' ? 'PowerPoint' : 'PDF'}${a.nomeVisao === null ? '' : ` · Visão: ${a.nomeVisao}`}`;
        return (
          <>
            <td>
              <div className="fw-semibold text-truncate" title={a.nomePainel}>
                {a.nomePainel}
              </div>
              <div className="small text-body-secondary text-truncate" title={detail}>
                {detail}
              </div>
            </td>
            <td>
              <div className="text-truncate" title={a.dono.displayName}>
                {a.dono.displayName}
              </div>
              <div className="small text-body-secondary text-truncate" title={a.dono.email}>
                {a.dono.email}
              </div>
            </td>
            <td>
              <Recipients assinatura={a} expanded={expanded.has(a.id)} onToggle={() => toggle(a.id)} />
            </td>
            <td>
              <div style={TWO_LINES} title={schedule}>
                {schedule}
              </div>
            </td>
            <td>{when(a.proximoEnvio)}</td>
            <td>{when(a.ultimoEnvio)}</td>
            <td>
              <Badge bg={SITUACAO_CORES[a.situacao]} text={a.situacao === 'sem-acesso' ? 'dark' : undefined}>
                {SITUACAO_ROTULOS[a.situacao]}
              </Badge>
              {a.ultimaFalha && (
                <div className="small text-danger" style={TWO_LINES} title={failureText(a.ultimaFalha)}>
                  {failureText(a.ultimaFalha)}
                </div>
              )}
            </td>
          </>
        );
      }}
    />
  );
}

interface RecipientsProps {
  assinatura: Assinatura;
  expanded: boolean;
  onToggle: () => void;
}

/** 'Só o dono', or '3 pessoas, 1 grupo': the names on hover (its title) and, expanded, under it. */
function Recipients({ assinatura, expanded, onToggle }: RecipientsProps) {
  const { destinatarios } = assinatura;
  const label = recipientsLabel(destinatarios);
  if (destinatarios === null) return <span className="text-body-secondary">{label}</span>;
  const names = [
    ...destinatarios.usuarios.map((p) => p.displayName),
    ...destinatarios.grupos.map((g) => `Grupo: ${g.displayName}`),
  ];
  const listId = `destinatarios-${assinatura.id}`;
  return (
    <>
      <button
        type="button"
        className="btn btn-link btn-sm p-0 text-start text-truncate"
        style={{ maxWidth: '100%' }}
        aria-expanded={expanded}
        aria-controls={listId}
        title={names.join('\n')}
        onClick={onToggle}
      >
        {label}
      </button>
      <ul id={listId} className="list-unstyled small mb-0" hidden={!expanded}>
        {destinatarios.usuarios.map((p) => (
          <li key={`u-${p.id}`} className="text-truncate" title={p.email}>
            {p.displayName}
          </li>
        ))}
        {destinatarios.grupos.map((g) => (
          <li key={`g-${g.id}`} className="text-truncate">
            Grupo: {g.displayName}
          </li>
        ))}
      </ul>
    </>
  );
}
