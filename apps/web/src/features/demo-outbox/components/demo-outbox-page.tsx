import { useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import Table from 'react-bootstrap/Table';
import type { MensagemDemonstracao } from '@paineis/contract/subscriptions';
import { BusyButton } from '../../../components/busy-button.tsx';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useConfiguration } from '../../../lib/api/get-configuration.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useDemoOutbox } from '../api/get-demo-outbox.ts';
import { OutboxMessage } from './outbox-message.tsx';

export const OUTBOX_EXPLANATION =
  'No modo demonstração, as mensagens das assinaturas não saem do computador: o Microsoft Graph simulado as recebe e elas aparecem aqui.';
export const OUTBOX_EMPTY = 'Nenhuma mensagem enviada ainda.';
export const OUTBOX_DEMO_ONLY = 'A caixa de saída só existe no modo demonstração.';
export const OUTBOX_LOAD_ERROR = 'Não foi possível carregar a caixa de saída.';

const newestFirst = (a: MensagemDemonstracao, b: MensagemDemonstracao) =>
  Date.parse(b.enviadaEm) - Date.parse(a.enviadaEm);

/**
 * /caixa-de-saida: 'Caixa de saída (demonstração)' (docs/requirements.md#subscriptions), for administrators (the
 * route guards it). The messages the Graph stand-in received, newest first; one chosen is read below the list. Outside
 * demo mode, as the server's configuration says, there is no outbox to ask for.
 */
export function DemoOutboxPage() {
  const configuration = useConfiguration();
  const demoMode = configuration.data?.demonstracao;
  const outbox = useDemoOutbox(demoMode === true);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const mensagens = useMemo(() => outbox.data?.mensagens.toSorted(newestFirst), [outbox.data]);
  const chosen = mensagens?.find((m) => m.id === chosenId);

  return (
    <Container fluid="xl" className="py-4">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">Caixa de saída (demonstração)</h1>
        <BusyButton
          variant="outline-primary"
          busy={outbox.isFetching && !outbox.isPending}
          disabled={outbox.isPending || demoMode === false}
          onClick={() => void outbox.refetch()}
        >
          Atualizar
        </BusyButton>
      </div>
      <p className="text-body-secondary">{OUTBOX_EXPLANATION}</p>

      {mensagens ? (
        <>
          <Card className="shadow-sm mb-4">
            {mensagens.length === 0 ? (
              <Card.Body className="text-center text-body-secondary py-5">{OUTBOX_EMPTY}</Card.Body>
            ) : (
              <MessageTable mensagens={mensagens} chosenId={chosenId} onChoose={setChosenId} />
            )}
          </Card>
          {chosen && <OutboxMessage key={chosen.id} mensagem={chosen} />}
        </>
      ) : demoMode === false ? (
        <Alert variant="info">{OUTBOX_DEMO_ONLY}</Alert>
      ) : configuration.isError || outbox.isError ? (
        <LoadErrorAlert
          message={errorMessage(configuration.error ?? outbox.error, OUTBOX_LOAD_ERROR)}
          retryDisabled={configuration.isFetching || outbox.isFetching}
          onRetry={() => void (configuration.isError ? configuration.refetch() : outbox.refetch())}
        />
      ) : (
        <LoadingSpinner />
      )}
    </Container>
  );
}

interface MessageTableProps {
  mensagens: MensagemDemonstracao[];
  chosenId: string | null;
  onChoose: (id: string) => void;
}

/** 'Enviada em', 'Para', 'Assunto', 'Anexos': the subject opens the message. */
function MessageTable({ mensagens, chosenId, onChoose }: MessageTableProps) {
  return (
    <div className="table-responsive">
      <Table hover className="mb-0 align-middle">
        <thead className="table-light">
          <tr>
            <th scope="col">Enviada em</th>
            <th scope="col">Para</th>
            <th scope="col">Assunto</th>
            <th scope="col">Anexos</th>
          </tr>
        </thead>
        <tbody>
          {mensagens.map((m) => {
            const current = m.id === chosenId;
            return (
              <tr key={m.id} className={current ? 'table-active' : undefined}>
                <td className="text-nowrap">{formatDateTime(new Date(m.enviadaEm))}</td>
                <td className="text-break">{m.para.join(', ')}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-link p-0 text-start text-break"
                    aria-pressed={current}
                    onClick={() => onChoose(m.id)}
                  >
                    {m.assunto}
                  </button>
                </td>
                <td className="text-break">
                  {m.anexos.length === 0 ? (
                    <span className="text-body-secondary">—</span>
                  ) : (
                    m.anexos.map((a) => a.nome).join(', ')
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </Table>
    </div>
  );
}
