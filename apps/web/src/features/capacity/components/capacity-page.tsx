import Alert from 'react-bootstrap/Alert';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Row from 'react-bootstrap/Row';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useCapacity, CHANGING_REFETCH_MS, STEADY_REFETCH_MS } from '../api/get-capacity.ts';
import { useCapacityHistory } from '../api/get-capacity-history.ts';
import { CapacityHistory } from './capacity-history-table.tsx';
import { CapacityMonthCard } from './capacity-month-card.tsx';
import { CapacityPolicyForm } from './capacity-policy-form.tsx';
import { CapacityStateCard } from './capacity-state-card.tsx';

export const CAPACITY_TITLE = 'Capacidade do Power BI';
export const CAPACITY_LOAD_ERROR = 'Não foi possível carregar a capacidade.';
export const NOT_CONFIGURED_TITLE = 'Nenhuma capacidade configurada';

/**
 * /capacidade: 'Capacidade do Power BI' (issue 40), for administrators (the route guards it): the state, live, and
 * its actions; the month's hours and cost; the policy; the history.
 */
export function CapacityPage() {
  const capacity = useCapacity();
  const data = capacity.data;
  const changing = data && ['pausando', 'retomando', 'escalando'].includes(data.estado);
  const history = useCapacityHistory(data?.configurada ? (changing ? CHANGING_REFETCH_MS : STEADY_REFETCH_MS) : null);

  return (
    <Container fluid="xl" className="py-4">
      <h1 className="h3 mb-4">{CAPACITY_TITLE}</h1>
      {!data ? (
        capacity.error ? (
          <LoadErrorAlert
            message={errorMessage(capacity.error, CAPACITY_LOAD_ERROR)}
            onRetry={() => void capacity.refetch()}
            retryDisabled={capacity.isFetching}
          />
        ) : (
          <LoadingSpinner />
        )
      ) : !data.configurada ? (
        <Alert variant="info">
          <Alert.Heading as="h2" className="h5">
            {NOT_CONFIGURED_TITLE}
          </Alert.Heading>
          <p className="mb-0">
            O portal não controla nenhuma capacidade do Power BI. Para pausá-la fora do horário de uso e acompanhar o
            custo aqui, informe o id de recurso do Azure da capacidade em <code>POWER_BI_CAPACITY_ID</code> (veja o
            README) e reinicie o portal.
          </p>
        </Alert>
      ) : (
        <Row className="g-4">
          <Col lg={5}>
            <CapacityStateCard capacidade={data} />
          </Col>
          <Col lg={7}>
            <CapacityMonthCard mes={data.mes} />
          </Col>
          <Col xs={12}>
            <CapacityPolicyForm politica={data.politica} tipo={data.tipo} />
          </Col>
          <Col xs={12}>
            <CapacityHistory
              historico={history.data}
              error={history.error}
              retrying={history.isFetching}
              onRetry={() => void history.refetch()}
            />
          </Col>
        </Row>
      )}
    </Container>
  );
}
