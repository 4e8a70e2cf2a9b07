import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { SITUACAO_ROTULOS, type SituacaoAssinatura } from '@paineis/contract/subscription-constants';
import type { Assinatura } from '@paineis/contract/subscriptions';
import { BusyButton } from '../../../components/busy-button.tsx';
import { VirtualTable } from '../../../components/virtual-table.tsx';
import { formatDateMinutes } from '../../../lib/format.ts';
import { browserTimeZone, describeSchedule } from '../utils/subscription-schedule.ts';
import { failureText, recipientsLabel, type SubscriptionRow } from '../utils/subscription-rows.ts';

/** The list scrolls within at most this height. */
export const SUBSCRIPTIONS_LIST_MAX_HEIGHT = 560;
// Every cell holds at most two lines (a name and a small line, or the schedule in two), cut with an ellipsis, so the
// height of every row is known before it is drawn. Under the status badge, the reason it is 'Sem acesso' and the last
// failure take two small lines each: the badge and the first small line fit in a row's two lines, each further small
// line adds its height. The recipients shown by name add one small line each, under their count. The actions are
// small buttons side by side, never wrapped (a small line and its padding and border: within a row's two lines).
const ROW_HEIGHT = 57;
const SMALL_LINE = 21;
// The recipients' count is a small button (a small line and its border); their names follow it.
const RECIPIENTS_COUNT_HEIGHT = 33;
// On a phone the list scrolls sideways rather than squeezing eight columns; from a laptop's width (Bootstrap's xl
// container) it fits.
const TABLE_MIN_WIDTH = 1100;
// 'Retomar' with its spinner (while it runs) and 'Excluir', side by side.
const ACTIONS_WIDTH = '11.5rem';

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
  // Truthy, as the cell tests them before drawing.
  const underBadge = 2 * [assinatura.motivoSituacao, assinatura.ultimaFalha].filter(Boolean).length;
  const status = ROW_HEIGHT + Math.max(0, underBadge - 1) * SMALL_LINE;
  const { destinatarios } = assinatura;
  if (!destinatarios || !expanded.has(assinatura.id)) return status;
  const names = destinatarios.usuarios.length + destinatarios.grupos.length;
  return Math.max(status, RECIPIENTS_COUNT_HEIGHT + names * SMALL_LINE);
}

const when = (iso: string | null) => (iso ? formatDateMinutes(new Date(iso)) : '—');

interface SubscriptionsTableProps {
  rows: SubscriptionRow[];
  /** Whether this subscription's pause or resume is under way. */
  isToggling: (assinatura: Assinatura) => boolean;
  onToggle: (assinatura: Assinatura) => void;
  onDelete: (assinatura: Assinatura) => void;
}

/**
 * Painel, Dono, Destinatários, Agenda, Próximo envio, Último envio, Situação, Ações ('Pausar' / 'Retomar', 'Excluir').
 * Only the rows in view (plus a few) are in the page, so that a portal with thousands of subscriptions lists them at
 * once; padding rows above and below keep the scroll bar true.
 */
export function SubscriptionsTable({ rows, isToggling, onToggle, onDelete }: SubscriptionsTableProps) {
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
      columnWidths={['14%', '13%', '11%', '13%', '9%', '9%', undefined, ACTIONS_WIDTH]}
      headers={['Painel', 'Dono', 'Destinatários', 'Agenda', 'Próximo envio', 'Último envio', 'Situação', 'Ações']}
      emptyText="Nenhuma assinatura encontrada."
      emptyClassName="py-4"
      // A row shown or hidden its names changes height: the sizes are worked out again.
      remeasure={expanded}
      renderCells={(index) => {
        const a = rows[index]!.assinatura;
        const schedule = describeSchedule(a, zone);
        const detail = `${a.formato === 'PPTX' ? 'PowerPoint' : 'PDF'}${a.nomeVisao === null ? '' : ` · Visão: ${a.nomeVisao}`}`;
        // The panel alone does not tell one row from another: the owner's name says whose it is.
        const of = `a assinatura de ${a.nomePainel} de ${a.dono.displayName}`;
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
              {a.motivoSituacao && (
                <div className="small text-body-secondary" style={TWO_LINES} title={a.motivoSituacao}>
                  {a.motivoSituacao}
                </div>
              )}
              {a.ultimaFalha && (
                <div className="small text-danger" style={TWO_LINES} title={failureText(a.ultimaFalha)}>
                  {failureText(a.ultimaFalha)}
                </div>
              )}
            </td>
            <td>
              <div className="d-flex flex-nowrap gap-1">
                <BusyButton
                  size="sm"
                  variant="outline-secondary"
                  busy={isToggling(a)}
                  onClick={() => onToggle(a)}
                  aria-label={`${a.ativa ? 'Pausar' : 'Retomar'} ${of}`}
                >
                  {a.ativa ? 'Pausar' : 'Retomar'}
                </BusyButton>
                <Button size="sm" variant="outline-danger" onClick={() => onDelete(a)} aria-label={`Excluir ${of}`}>
                  Excluir
                </Button>
              </div>
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
