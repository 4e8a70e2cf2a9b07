import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { SITUACAO_ROTULOS, type SituacaoAssinatura } from '@paineis/contract/subscription-constants';
import type { Assinatura } from '@paineis/contract/subscriptions';
import { VirtualTable } from '../../../components/virtual-table.tsx';
import { browserTimeZone, describeSchedule, momentParts, nextParts } from '../utils/subscription-schedule.ts';
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
// 'Retomar' and 'Excluir' side by side, and no more (the spinner takes the place of the label, not more room).
const ACTIONS_WIDTH = '10rem';
// A date and time on one line ('01/12/2026 08:00'), the zone's name under it ('(America/Sao_Paulo)').
const MOMENT_WIDTH = '9.25rem';
// 'Painel' takes what the others leave (issue 42: names were cut to a few characters while 'Ações' had room to spare);
// then Dono, Destinatários, Agenda, Próximo envio, Último envio, Situação, Ações.
const COLUMN_WIDTHS = [undefined, '8.5%', '12.5%', '11.5%', MOMENT_WIDTH, MOMENT_WIDTH, '8%', ACTIONS_WIDTH];

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

/**
 * 'Próximo envio' or 'Último envio' in the subscription's own zone, as 'Minhas assinaturas' writes them: the zone's
 * name, when it is not the browser's, on a line of its own and never broken (cut with an ellipsis in a narrow column,
 * whole in its title).
 */
function Moment({ parts }: { parts: { text: string; zoneName: string | null } }) {
  if (parts.zoneName === null) return <div style={TWO_LINES}>{parts.text}</div>;
  const zone = `(${parts.zoneName})`;
  return (
    <>
      <div className="text-nowrap">{parts.text}</div>
      <div className="small text-body-secondary text-truncate" title={zone}>
        {zone}
      </div>
    </>
  );
}

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
      columnWidths={COLUMN_WIDTHS}
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
              {/* The name wraps, the format follows it: two lines between them, both whole in the title. */}
              <div style={TWO_LINES} title={`${a.nomePainel}\n${detail}`}>
                <span className="fw-semibold">{a.nomePainel}</span>{' '}
                <span className="small text-body-secondary">{detail}</span>
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
            <td>
              <Moment parts={nextParts(a, zone)} />
            </td>
            <td>
              <Moment parts={momentParts(a.ultimoEnvio, a.fusoHorario, zone)} />
            </td>
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
                <ToggleButton
                  busy={isToggling(a)}
                  onClick={() => onToggle(a)}
                  label={a.ativa ? 'Pausar' : 'Retomar'}
                  of={of}
                />
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

/**
 * 'Pausar' or 'Retomar': while it runs, disabled, a spinner over its hidden label, so that the button keeps its width
 * and 'Ações' needs no room for the spinner.
 */
function ToggleButton({ busy, onClick, label, of }: { busy: boolean; onClick: () => void; label: string; of: string }) {
  return (
    <Button
      size="sm"
      variant="outline-secondary"
      className="position-relative"
      disabled={busy}
      onClick={onClick}
      aria-label={`${label} ${of}`}
    >
      <span style={busy ? { visibility: 'hidden' } : undefined}>{label}</span>
      {busy && (
        <Spinner
          as="span"
          animation="border"
          size="sm"
          className="position-absolute top-50 start-50"
          style={{ transform: 'translate(-50%, -50%)' }}
          aria-hidden="true"
        />
      )}
    </Button>
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
