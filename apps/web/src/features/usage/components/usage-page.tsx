import { useState } from 'react';
import type { PeriodoUso } from '@paineis/contract/usage-audit-constants';
import type { UsoDia } from '@paineis/contract/usage';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { formatInteger } from '../../../lib/format.ts';
import { usePeopleWithoutSignIn } from '../api/get-people-without-sign-in.ts';
import { useUsagePanels } from '../api/get-usage-panels.ts';
import { useUsagePerDay } from '../api/get-usage-per-day.ts';
import { downloadCsv, toCsv, type CsvColumn } from '../../../lib/csv.ts';
import { csvDay } from '../utils/csv.ts';
import '../usage.scss';
import { PanelDetailModal } from './panel-detail-modal.tsx';
import { PanelUsageCards, type ChosenPanel } from './panel-usage-cards.tsx';
import { PeopleWithoutSignInCard } from './people-without-sign-in-card.tsx';
import { PeriodSelector } from './period-selector.tsx';
import { LoadError, UsageCard } from './usage-card.tsx';
import { ViewsChart } from './views-chart.tsx';

const perDayColumns: CsvColumn<UsoDia>[] = [
  { header: 'Dia', value: (d) => csvDay(d.dia) },
  { header: 'Visualizações', value: (d) => d.visualizacoes },
  { header: 'Pessoas', value: (d) => d.pessoas },
];

/** A part's data while it arrives, after a failure, or once there. */
function Pending({ query }: { query: { error: unknown; isFetching: boolean; refetch: () => unknown } }) {
  if (!query.error) return <LoadingSpinner />;
  return (
    <Card.Body>
      <LoadError error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
    </Card.Body>
  );
}

/**
 * /uso: 'Uso dos Painéis' (docs/requirements.md#usage), for administrators (the route guards it). One period drives
 * every part; each part loads, fails and retries on its own.
 */
export function UsagePage() {
  const [dias, setDias] = useState<PeriodoUso>(30);
  const perDay = useUsagePerDay(dias);
  const panels = useUsagePanels(dias);
  const withoutSignIn = usePeopleWithoutSignIn(dias);
  const [chosen, setChosen] = useState<ChosenPanel | null>(null);
  // Apart from `chosen`, so that the modal keeps its panel while it fades out.
  const [showDetail, setShowDetail] = useState(false);

  // The last period's figures stay on screen until the new period's arrive.
  const updating = perDay.isPlaceholderData || panels.isPlaceholderData || withoutSignIn.isPlaceholderData;
  const totalViews = perDay.data?.porDia.reduce((sum, d) => sum + d.visualizacoes, 0);

  return (
    <Container fluid="xl" className="py-4">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-4">
        <h1 className="h3 mb-0">Uso dos Painéis</h1>
        <div className="d-flex align-items-center gap-3">
          {updating && (
            <span className="d-inline-flex align-items-center gap-1 small text-body-secondary" role="status">
              <Spinner animation="border" size="sm" aria-hidden="true" />
              Atualizando...
            </span>
          )}
          <PeriodSelector value={dias} onChange={setDias} />
        </div>
      </div>

      <Row className="g-4" aria-busy={updating}>
        <Col xs={12}>
          <UsageCard
            title="Visualizações por dia"
            onExport={
              perDay.data &&
              (() => downloadCsv(`visualizacoes-por-dia-${dias}-dias.csv`, toCsv(perDayColumns, perDay.data.porDia)))
            }
          >
            {perDay.data ? (
              <Card.Body>
                <p className="small text-body-secondary mb-2">
                  {formatInteger(totalViews ?? 0)} {totalViews === 1 ? 'visualização' : 'visualizações'} nos últimos{' '}
                  {perDay.data.dias} dias.
                </p>
                <ViewsChart porDia={perDay.data.porDia} />
              </Card.Body>
            ) : (
              <Pending query={perDay} />
            )}
          </UsageCard>
        </Col>

        {panels.data ? (
          <PanelUsageCards
            paineis={panels.data.paineis}
            dias={dias}
            onChoose={(painel) => {
              setChosen(painel);
              setShowDetail(true);
            }}
          />
        ) : (
          // Four parts come from this one call: one spinner, or one error, stands for them all.
          <Col xs={12}>
            <Card className="shadow-sm">
              <Pending query={panels} />
            </Card>
          </Col>
        )}

        <Col lg={panels.data ? 8 : 12}>
          {withoutSignIn.data ? (
            <PeopleWithoutSignInCard data={withoutSignIn.data} dias={dias} />
          ) : (
            <UsageCard title="Pessoas sem login no período">
              <Pending query={withoutSignIn} />
            </UsageCard>
          )}
        </Col>
      </Row>

      <PanelDetailModal painel={chosen} show={showDetail} dias={dias} onHide={() => setShowDetail(false)} />
    </Container>
  );
}
