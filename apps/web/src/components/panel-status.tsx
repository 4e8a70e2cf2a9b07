import { memo, useCallback } from 'react';
import Badge from 'react-bootstrap/Badge';
import type { AtualizacaoPainel, SaudePainel } from '@paineis/contract/power-bi';
import { formatUpdatedAt } from '../lib/format.ts';
import { useMinuteText } from '../lib/minute-clock.ts';
import { usePanelFreshness } from '../lib/api/get-freshness.ts';
import { usePanelHealth } from '../lib/api/get-panel-health.ts';

export const REAL_TIME = 'Tempo real';
export const REFRESHING = 'Atualizando…';
export const REFRESH_FAILED = 'Falha na atualização';
export const REFRESH_CANCELLED = 'Atualização cancelada';
export const UNAVAILABLE = 'Indisponível';
export const REPORT_NOT_FOUND = 'Relatório não encontrado no Power BI';
export const NO_ACCESS = 'O portal não tem acesso ao relatório';
export const CHECK_ERROR = 'Não foi possível verificar o relatório no Power BI';

/** Why an admin is told a panel is unavailable; nothing when its report was found and readable. */
export function unavailableReason(saude: SaudePainel | undefined): string | null {
  if (!saude) return null;
  switch (saude.estado) {
    case 'ok':
      return null;
    case 'relatorio-nao-encontrado':
      return REPORT_NOT_FOUND;
    case 'sem-acesso':
      return NO_ACCESS;
    default:
      return saude.mensagem?.trim() || CHECK_ERROR;
  }
}

/** 'Atualizado há 5 min', moving on with the page's one minute clock. */
function UpdatedAt({ iso }: { iso: string }) {
  const text = useMinuteText(useCallback((now: number) => formatUpdatedAt(new Date(iso), now), [iso]));
  return <>{text}</>;
}

/**
 * A badge that carries its reason: read with it by screen readers, and shown on hover. The reason can be long (Power
 * BI's own message), so it does not take the row's room.
 */
function ReasonBadge({ label, reason, variant }: { label: string; reason: string | undefined; variant: string }) {
  return (
    <Badge
      bg={`${variant}-subtle`}
      text={`${variant}-emphasis`}
      className={`border border-${variant}-subtle text-wrap text-start`}
      title={reason}
    >
      {label}
      {reason && <span className="visually-hidden">: {reason}</span>}
    </Badge>
  );
}

/** The freshness of the data as everyone reads it: nothing when Power BI has not said (or has no history). */
function FreshnessText({ atualizacao }: { atualizacao: AtualizacaoPainel }) {
  const { status, ultimaAtualizacao } = atualizacao;
  if (status === 'tempo-real') return <span className="text-body-secondary text-nowrap">{REAL_TIME}</span>;
  if (status === 'desconhecida') return null;
  const refreshing = status === 'em-andamento';
  if (!ultimaAtualizacao && !refreshing) return null;
  return (
    <span className="text-body-secondary text-nowrap">
      {ultimaAtualizacao && <UpdatedAt iso={ultimaAtualizacao} />}
      {ultimaAtualizacao && refreshing && ' · '}
      {refreshing && REFRESHING}
    </span>
  );
}

interface PanelStatusProps {
  painelId: number;
  /** Admins also see a refresh that failed and a report Power BI no longer serves to the portal. */
  showIssues: boolean;
  className?: string;
}

/**
 * What Power BI says of one panel (docs/requirements.md#power-bi): when its data was refreshed, for everyone, and
 * for admins 'Falha na atualização' and 'Indisponível' with their reasons, and 'Atualização cancelada'. Renders nothing until the answers arrive,
 * and re-renders alone when its own panel's entry (or the minute's text) changes.
 */
export const PanelStatus = memo(function PanelStatus({ painelId, showIssues, className = '' }: PanelStatusProps) {
  const atualizacao = usePanelFreshness(painelId);
  const unavailable = unavailableReason(usePanelHealth(painelId, showIssues));
  const failed = showIssues && atualizacao?.status === 'falhou';
  // A cancelled refresh changed nothing: everyone reads when the data last refreshed, admins also that it was cancelled.
  const cancelled = showIssues && atualizacao?.status === 'cancelada';
  if (!atualizacao && !unavailable) return null;
  return (
    <span className={`d-inline-flex flex-wrap align-items-center column-gap-2 row-gap-1 small ${className}`}>
      {unavailable && <ReasonBadge label={UNAVAILABLE} reason={unavailable} variant="danger" />}
      {failed && <ReasonBadge label={REFRESH_FAILED} reason={atualizacao.mensagem} variant="warning" />}
      {cancelled && <ReasonBadge label={REFRESH_CANCELLED} reason={undefined} variant="secondary" />}
      {atualizacao && <FreshnessText atualizacao={atualizacao} />}
    </span>
  );
});
