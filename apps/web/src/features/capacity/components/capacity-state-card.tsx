import { useId, useState } from 'react';
import type { Capacidade } from '@paineis/contract/capacity';
import type { EstadoCapacidade, QuemRetoma } from '@paineis/contract/capacity-constants';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { formatDateTime } from '../../../lib/format.ts';
import { NOMES_ESTADOS, NOMES_TIPOS } from '../utils/capacity-labels.ts';
import { CapacityActionModal, type CapacityAction } from './capacity-action-modal.tsx';

/** What opening a panel does while the capacity is paused, by the policy's `quemRetomaAoAbrir`. */
const RETOMA_AO_ABRIR: Record<QuemRetoma, string> = {
  todos: 'qualquer pessoa a retoma',
  administradores: 'só administradores a retomam',
  ninguem: 'ninguém a retoma',
};

const CHANGING: readonly EstadoCapacidade[] = ['pausando', 'retomando', 'escalando'];

/** Which actions the state allows: nothing while Azure is changing it; a failed or unknown state may try either. */
function allowed(estado: EstadoCapacidade) {
  const changing = CHANGING.includes(estado);
  return {
    pausar: !changing && estado !== 'pausada',
    retomar: !changing && estado !== 'ativa',
    sku: !changing,
  };
}

/** The state, live, with the SKU and kind, Azure's last complaint, and the three actions. */
export function CapacityStateCard({ capacidade }: { capacidade: Capacidade }) {
  const titleId = useId();
  const [action, setAction] = useState<CapacityAction | null>(null);
  // A new key per opening: the dialog's fields start afresh.
  const [opening, setOpening] = useState(0);
  const { estado, nome, sku, tipo, mensagem, lidoEm } = capacidade;
  const state = NOMES_ESTADOS[estado];
  const can = allowed(estado);
  const open = (chosen: CapacityAction) => {
    setOpening((n) => n + 1);
    setAction(chosen);
  };

  return (
    <Card as="section" aria-labelledby={titleId} className="shadow-sm h-100">
      <Card.Header className="bg-body py-3">
        <h2 id={titleId} className="h6 mb-0">
          Estado
        </h2>
      </Card.Header>
      <Card.Body>
        <p className="d-flex flex-wrap align-items-center gap-2 mb-3" aria-live="polite">
          <Badge
            bg={state.bg}
            text={state.bg === 'light' || state.bg === 'warning' ? 'dark' : undefined}
            className="fs-6"
          >
            {state.label}
          </Badge>
          {nome && <span className="text-body-secondary text-break">{nome}</span>}
        </p>
        <dl className="row mb-0">
          <dt className="col-5 col-sm-4 fw-normal text-body-secondary">SKU</dt>
          <dd className="col-7 col-sm-8">{sku ?? '—'}</dd>
          <dt className="col-5 col-sm-4 fw-normal text-body-secondary">Tipo</dt>
          <dd className="col-7 col-sm-8">{tipo ? NOMES_TIPOS[tipo] : '—'}</dd>
          <dt className="col-5 col-sm-4 fw-normal text-body-secondary">Lido em</dt>
          <dd className="col-7 col-sm-8">{lidoEm ? formatDateTime(new Date(lidoEm)) : '—'}</dd>
          <dt className="col-5 col-sm-4 fw-normal text-body-secondary">Retomada</dt>
          <dd className="col-7 col-sm-8">cerca de {capacidade.retomadaSegundos} segundos</dd>
          <dt className="col-5 col-sm-4 fw-normal text-body-secondary">Ao abrir um painel</dt>
          <dd className="col-7 col-sm-8">{RETOMA_AO_ABRIR[capacidade.politica.quemRetomaAoAbrir]}</dd>
        </dl>
        {mensagem && (
          <Alert variant="warning" className="mt-3 mb-0 py-2 text-break">
            {mensagem}
          </Alert>
        )}
      </Card.Body>
      <Card.Footer className="bg-body d-flex flex-wrap gap-2">
        <Button variant="outline-warning" className="text-body" disabled={!can.pausar} onClick={() => open('pausar')}>
          Pausar
        </Button>
        <Button variant="outline-primary" disabled={!can.retomar} onClick={() => open('retomar')}>
          Retomar
        </Button>
        <Button variant="outline-secondary" disabled={!can.sku} onClick={() => open('sku')}>
          Alterar SKU
        </Button>
      </Card.Footer>
      <CapacityActionModal
        key={opening}
        action={action}
        onHide={() => setAction(null)}
        sku={sku}
        tipo={tipo}
        retomadaSegundos={capacidade.retomadaSegundos}
      />
    </Card>
  );
}
