import { useId } from 'react';
import type { MudancaCapacidade } from '@paineis/contract/capacity';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { NOMES_ESTADOS, NOMES_MOTIVOS } from '../utils/capacity-labels.ts';

export const HISTORY_LOAD_ERROR = 'Não foi possível carregar o histórico da capacidade.';

interface CapacityHistoryProps {
  historico: MudancaCapacidade[] | undefined;
  error: unknown;
  retrying: boolean;
  onRetry: () => void;
}

/** 'Histórico': each change of state, newest first, with its reason in words. */
export function CapacityHistory({ historico, error, retrying, onRetry }: CapacityHistoryProps) {
  const titleId = useId();
  return (
    <Card as="section" aria-labelledby={titleId} className="shadow-sm">
      <Card.Header className="bg-body py-3">
        <h2 id={titleId} className="h6 mb-0">
          Histórico
        </h2>
      </Card.Header>
      {historico ? (
        historico.length === 0 ? (
          <Card.Body className="text-body-secondary text-center py-4">Nenhuma mudança registrada.</Card.Body>
        ) : (
          // Focusable, so that a keyboard can scroll it: down through a long history, sideways on a phone.
          <div
            className="table-responsive capacity-table-scroll capacity-history-scroll"
            tabIndex={0}
            role="group"
            aria-label="Histórico da capacidade"
          >
            <Table hover className="mb-0 align-middle small" aria-labelledby={titleId}>
              <thead>
                <tr>
                  <th scope="col" className="ps-3">
                    Quando
                  </th>
                  <th scope="col">Estado</th>
                  <th scope="col">SKU</th>
                  <th scope="col">Motivo</th>
                  <th scope="col">Pessoa</th>
                  <th scope="col" className="pe-3">
                    Detalhe
                  </th>
                </tr>
              </thead>
              <tbody>
                {historico.map((m) => (
                  <tr key={m.id}>
                    <td className="ps-3 text-nowrap">{formatDateTime(new Date(m.em))}</td>
                    <td className="text-nowrap">{NOMES_ESTADOS[m.estado].label}</td>
                    <td>{m.sku ?? '—'}</td>
                    <td className="text-nowrap">{NOMES_MOTIVOS[m.motivo]}</td>
                    <td className="text-nowrap">{m.pessoa ?? '—'}</td>
                    {/* On a phone the table scrolls sideways rather than wrap the detail a word per line. */}
                    <td className="pe-3" style={{ minWidth: '14rem' }}>
                      {m.detalhe ?? '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </div>
        )
      ) : error ? (
        <Card.Body>
          <LoadErrorAlert
            message={errorMessage(error, HISTORY_LOAD_ERROR)}
            onRetry={onRetry}
            retryDisabled={retrying}
            className="mb-0"
          />
        </Card.Body>
      ) : (
        <LoadingSpinner />
      )}
    </Card>
  );
}
