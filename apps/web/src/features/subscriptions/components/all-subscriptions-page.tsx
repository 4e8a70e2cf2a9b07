import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { ASSINATURA_MESSAGES } from '@paineis/contract/subscription-constants';
// This screen is a chunk of its own already: the dialog comes with it rather than on first use.
import ConfirmDialog from '../../../components/confirm-dialog-modal.tsx';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useConfiguration } from '../../../lib/api/get-configuration.ts';
import { useAllSubscriptions } from '../api/get-all-subscriptions.ts';
import { useSubscriptionControls } from '../hooks/use-subscription-controls.ts';
import { AlertsSection } from './alerts-section.tsx';
import { filterSubscriptionRows, subscriptionRows, subscriptionsCount } from '../utils/subscription-rows.ts';
import { NewSubscriptionModal } from './new-subscription-modal.tsx';
import { SubscriptionsTable } from './subscriptions-table.tsx';

export const SUBSCRIPTIONS_LOAD_ERROR = 'Não foi possível carregar as assinaturas.';

type Notice = { variant: 'success' | 'danger'; text: string };

/**
 * /assinaturas/todas: 'Assinaturas' (docs/requirements.md#subscriptions), for administrators (the route guards it).
 * Every subscription with its owner, recipients, schedule, deliveries, status (with why it is not sent) and last
 * failure, filtered by panel or person; anyone's may be paused, resumed or deleted there (its contents stay its
 * owner's). 'Nova assinatura' subscribes people and groups. In demo mode, a link to the outbox the messages land in.
 */
export function AllSubscriptionsPage() {
  const subscriptions = useAllSubscriptions();
  const demoMode = useConfiguration().data?.demonstracao === true;
  const [query, setQuery] = useState('');
  const [onlyFailed, setOnlyFailed] = useState(false);
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const controls = useSubscriptionControls({
    onNotice: (text) => setNotice(text === null ? null : { variant: 'danger', text }),
    // Often someone else's: the owner is named.
    deleteMessage: (a) =>
      `A assinatura de ${a.nomePainel} de ${a.dono.displayName} será excluída e não será mais enviada.`,
  });
  const all = useMemo(() => subscriptionRows(subscriptions.data ?? []), [subscriptions.data]);
  const visible = useMemo(() => filterSubscriptionRows(all, query, onlyFailed), [all, query, onlyFailed]);

  return (
    <Container fluid="xl" className="py-4">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-4">
        <h1 className="h3 mb-0">Assinaturas</h1>
        <div className="d-flex flex-wrap align-items-center gap-3">
          {demoMode && <Link to={paths.demoOutbox}>Caixa de saída (demonstração)</Link>}
          <Button
            onClick={() => {
              setNotice(null);
              setCreating(true);
            }}
          >
            Nova assinatura
          </Button>
        </div>
      </div>

      {notice && (
        <Alert variant={notice.variant} dismissible closeLabel="Fechar" onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      )}

      <Card className="shadow-sm">
        <Card.Body className="border-bottom">
          <Form role="search" onSubmit={(event) => event.preventDefault()}>
            <Row className="g-3 align-items-center">
              <Col md={8}>
                <Form.Label htmlFor="assinaturas-busca" visuallyHidden>
                  Buscar assinaturas
                </Form.Label>
                <Form.Control
                  id="assinaturas-busca"
                  type="search"
                  placeholder="Buscar por painel ou pessoa..."
                  autoComplete="off"
                  value={query}
                  onChange={(event) => setQuery(event.target.value)}
                />
              </Col>
              <Col md={4}>
                <Form.Check
                  type="switch"
                  id="assinaturas-somente-falha"
                  label="Somente com falha"
                  checked={onlyFailed}
                  onChange={(event) => setOnlyFailed(event.target.checked)}
                />
              </Col>
            </Row>
          </Form>
          {subscriptions.data && (
            <div className="small text-body-secondary mt-2" aria-live="polite">
              {subscriptionsCount(visible.length, all.length)}
            </div>
          )}
        </Card.Body>
        {subscriptions.data ? (
          <SubscriptionsTable
            rows={visible}
            isToggling={controls.isToggling}
            onToggle={controls.toggle}
            onDelete={controls.askDelete}
          />
        ) : subscriptions.isError ? (
          <LoadErrorAlert
            className="m-3"
            message={errorMessage(subscriptions.error, SUBSCRIPTIONS_LOAD_ERROR)}
            retryDisabled={subscriptions.isFetching}
            onRetry={() => void subscriptions.refetch()}
          />
        ) : (
          <LoadingSpinner />
        )}
      </Card>

      <AlertsSection />

      <NewSubscriptionModal
        show={creating}
        onHide={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          setNotice({ variant: 'success', text: ASSINATURA_MESSAGES.criada });
        }}
      />
      <ConfirmDialog {...controls.deleteDialog} />
    </Container>
  );
}
