import { useId } from 'react';
import type { PeriodoUso } from '@paineis/contract/usage-audit-constants';
import type { Visualizacao } from '@paineis/contract/usage';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { formatDateTime, formatInteger } from '../../../lib/format.ts';
import { useUsagePanel } from '../api/get-usage-panel.ts';
import { downloadCsv, toCsv, type CsvColumn } from '../../../lib/csv.ts';
import { csvDateTime } from '../utils/csv.ts';
import { formatMs, type ChosenPanel } from './panel-usage-cards.tsx';
import { LoadError } from './usage-card.tsx';
import { numericClass, UsageTable } from './usage-table.tsx';

const simNao = (value: boolean) => (value ? 'Sim' : 'Não');

const columns: CsvColumn<Visualizacao>[] = [
  { header: 'Quando', value: (v) => csvDateTime(v.momento) },
  { header: 'Aberturas', value: (v) => v.quantidade },
  { header: 'Nome', value: (v) => v.displayName },
  { header: 'E-mail', value: (v) => v.email },
  { header: 'Identidade', value: (v) => v.identidade },
  { header: 'Papéis', value: (v) => v.papeis.join(', ') },
  { header: 'Token do cache', value: (v) => simNao(v.tokenDoCache) },
  { header: 'Carregado (ms)', value: (v) => v.carregadoMs },
  { header: 'Renderizado (ms)', value: (v) => v.renderizadoMs },
  { header: 'Erros', value: (v) => v.erros.join(' | ') },
  { header: 'RequestId do Power BI', value: (v) => v.requestId },
];

const openings = (n: number) => `${formatInteger(n)} ${n === 1 ? 'abertura' : 'aberturas'}`;

interface PanelDetailModalProps {
  /** The panel shown; kept by the page while the modal fades out. */
  painel: ChosenPanel | null;
  show: boolean;
  dias: PeriodoUso;
  onHide: () => void;
}

/** Who opened a panel in the period, when, and with which identity and roles its embed token carried. */
export function PanelDetailModal({ painel, show, dias, onHide }: PanelDetailModalProps) {
  const titleId = useId();
  const { data, error, isPending, isFetching, refetch } = useUsagePanel(painel?.id ?? null, dias);
  const nome = data?.nomePainel ?? painel?.nome ?? '';
  const views = data?.visualizacoes ?? [];
  return (
    <Modal show={show} onHide={onHide} size="xl" scrollable aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title id={titleId} as="h2" className="h5">
          Aberturas de {nome}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className={data && views.length > 0 ? 'p-0' : undefined}>
        {isPending ? (
          <LoadingSpinner />
        ) : error ? (
          <LoadError error={error} onRetry={() => void refetch()} retrying={isFetching} />
        ) : views.length === 0 ? (
          <p className="text-body-secondary text-center py-4 mb-0">Nenhuma abertura no período.</p>
        ) : (
          <UsageTable
            label={`Aberturas de ${nome}`}
            headers={[
              { label: 'Quando', minWidth: '10rem' },
              { label: 'Pessoa' },
              { label: 'Identidade' },
              { label: 'Papéis', minWidth: '8rem' },
              { label: 'Token do cache' },
              { label: 'Carregado', numeric: true },
              { label: 'Renderizado', numeric: true },
              { label: 'Erros', minWidth: '8rem' },
            ]}
          >
            {views.map((v) => (
              <tr key={v.id}>
                <td className="text-nowrap">
                  {formatDateTime(new Date(v.momento))}
                  {/* Reopened within a fraction of a second (a reload): one record, counted this many times. */}
                  {v.quantidade > 1 && (
                    <Badge
                      bg="secondary-subtle"
                      text="secondary-emphasis"
                      pill
                      className="ms-1"
                      title="Aberturas repetidas em seguida"
                    >
                      {formatInteger(v.quantidade)}×
                    </Badge>
                  )}
                </td>
                <td>
                  {/* A view past VIEW_ANONYMISE_AFTER_DAYS has lost its person. */}
                  <div className="fw-semibold">{v.displayName ?? '—'}</div>
                  {v.email && <div className="small text-body-secondary">{v.email}</div>}
                </td>
                <td>{v.identidade ?? '—'}</td>
                <td>{v.papeis.length > 0 ? v.papeis.join(', ') : '—'}</td>
                <td>{simNao(v.tokenDoCache)}</td>
                <td className={numericClass}>{formatMs(v.carregadoMs)}</td>
                <td className={numericClass}>{formatMs(v.renderizadoMs)}</td>
                <td className="small">{v.erros.length > 0 ? v.erros.join('; ') : '—'}</td>
              </tr>
            ))}
          </UsageTable>
        )}
      </Modal.Body>
      <Modal.Footer className="justify-content-between">
        <span className="small text-body-secondary">
          {data &&
            (data.total > views.length
              ? `As ${formatInteger(views.length)} mais recentes de ${openings(data.total)} no período.`
              : `${openings(data.total)} no período.`)}
        </span>
        <div className="d-flex gap-2">
          {data && (
            <Button
              variant="outline-secondary"
              onClick={() =>
                downloadCsv(`aberturas-painel-${data.painelId}-${dias}-dias.csv`, toCsv(columns, data.visualizacoes))
              }
            >
              Exportar CSV
            </Button>
          )}
          <Button variant="primary" onClick={onHide}>
            Fechar
          </Button>
        </div>
      </Modal.Footer>
    </Modal>
  );
}
