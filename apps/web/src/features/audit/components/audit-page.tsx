import { useState } from 'react';
import {
  ACOES_AUDITORIA,
  NOMES_ACOES,
  NOMES_OBJETOS,
  OBJETOS_AUDITORIA,
  type AcaoAuditoria,
  type ObjetoAuditoria,
} from '@paineis/contract/usage-audit-constants';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { BusyButton } from '../../../components/busy-button.tsx';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useAudit, type AuditFilters } from '../api/get-audit.ts';
import { useDebouncedValue } from '../hooks/use-debounced-value.ts';
import { AuditTable } from './audit-table.tsx';

export const AUDIT_LOAD_ERROR = 'Não foi possível carregar a auditoria.';
/** The person filter waits for the typing to pause before it asks the server. */
export const PESSOA_DEBOUNCE_MS = 300;

/**
 * /auditoria: 'Auditoria' (docs/requirements.md#audit), for administrators (the route guards it). The records, newest
 * first, 50 at a time, filtered by person, object and kind of change; each expands to show its changes.
 */
export function AuditPage() {
  const [pessoa, setPessoa] = useState('');
  const [objeto, setObjeto] = useState<ObjetoAuditoria | ''>('');
  const [acao, setAcao] = useState<AcaoAuditoria | ''>('');
  const usuario = useDebouncedValue(pessoa.trim(), PESSOA_DEBOUNCE_MS);
  // The server refuses an empty filter: an empty field is no filter at all.
  const filters: AuditFilters = {
    ...(usuario && { usuario }),
    ...(objeto && { objeto }),
    ...(acao && { acao }),
  };
  const audit = useAudit(filters);
  const { data, error, isFetching, isFetchNextPageError, hasNextPage, isFetchingNextPage, isPlaceholderData } = audit;
  const registros = data?.pages.flatMap((page) => page.registros);

  const loadError = error && (
    <LoadErrorAlert
      message={errorMessage(error, AUDIT_LOAD_ERROR)}
      className="m-3"
      retryDisabled={isFetching}
      // A failed next page is asked for again; otherwise the whole list.
      onRetry={() => void (isFetchNextPageError ? audit.fetchNextPage() : audit.refetch())}
    />
  );

  return (
    <Container fluid="xl" className="py-4">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-4">
        <h1 className="h3 mb-0">Auditoria</h1>
        {isPlaceholderData && (
          <span className="d-inline-flex align-items-center gap-1 small text-body-secondary" role="status">
            <Spinner animation="border" size="sm" aria-hidden="true" />
            Atualizando...
          </span>
        )}
      </div>

      <Card className="shadow-sm">
        <Card.Body className="border-bottom">
          <Form role="search" onSubmit={(event) => event.preventDefault()}>
            <Row className="g-3">
              <Form.Group as={Col} md={6} controlId="auditoria-pessoa">
                <Form.Label>Pessoa</Form.Label>
                <Form.Control
                  type="search"
                  placeholder="E-mail ou parte dele"
                  maxLength={200}
                  autoComplete="off"
                  value={pessoa}
                  onChange={(event) => setPessoa(event.target.value)}
                />
              </Form.Group>
              <Form.Group as={Col} xs={6} md={3} controlId="auditoria-objeto">
                <Form.Label>Objeto</Form.Label>
                <Form.Select value={objeto} onChange={(event) => setObjeto(event.target.value as ObjetoAuditoria | '')}>
                  <option value="">Todos</option>
                  {OBJETOS_AUDITORIA.map((o) => (
                    <option key={o} value={o}>
                      {NOMES_OBJETOS[o]}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
              <Form.Group as={Col} xs={6} md={3} controlId="auditoria-acao">
                <Form.Label>Ação</Form.Label>
                <Form.Select value={acao} onChange={(event) => setAcao(event.target.value as AcaoAuditoria | '')}>
                  <option value="">Todas</option>
                  {ACOES_AUDITORIA.map((a) => (
                    <option key={a} value={a}>
                      {NOMES_ACOES[a]}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
            </Row>
          </Form>
        </Card.Body>

        {registros === undefined ? (
          (loadError ?? <LoadingSpinner />)
        ) : (
          <>
            {registros.length === 0 ? (
              <Card.Body className="text-center text-body-secondary py-5">Nenhum registro encontrado.</Card.Body>
            ) : (
              <AuditTable registros={registros} />
            )}
            {loadError}
            {hasNextPage && !isFetchNextPageError && (
              <Card.Footer className="bg-body d-flex justify-content-center py-3">
                <BusyButton
                  variant="outline-primary"
                  onClick={() => void audit.fetchNextPage()}
                  busy={isFetchingNextPage}
                  disabled={isFetching}
                >
                  Carregar mais
                </BusyButton>
              </Card.Footer>
            )}
          </>
        )}
      </Card>
    </Container>
  );
}
