import { useId, useState, type FormEvent } from 'react';
import type { TipoCapacidade } from '@paineis/contract/capacity-constants';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { BusyButton } from '../../../components/busy-button.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useChangeCapacitySku } from '../api/change-capacity-sku.ts';
import { usePauseCapacity } from '../api/pause-capacity.ts';
import { useResumeCapacity } from '../api/resume-capacity.ts';
import { SKUS } from '../utils/capacity-labels.ts';

export type CapacityAction = 'pausar' | 'retomar' | 'sku';

const MOTIVO_MAX = 500;

const TEXTS: Record<CapacityAction, { title: string; confirm: string; error: string }> = {
  pausar: {
    title: 'Pausar a capacidade',
    confirm: 'Pausar',
    error: 'Não foi possível pausar a capacidade.',
  },
  retomar: {
    title: 'Retomar a capacidade',
    confirm: 'Retomar',
    error: 'Não foi possível retomar a capacidade.',
  },
  sku: { title: 'Alterar o SKU da capacidade', confirm: 'Alterar SKU', error: 'Não foi possível alterar o SKU.' },
};

interface CapacityActionModalProps {
  /** The action to confirm; null: the dialog is closed. Remount (key) for each opening, so its fields start afresh. */
  action: CapacityAction | null;
  onHide: () => void;
  sku: string | null;
  tipo: TipoCapacidade | null;
  retomadaSegundos: number;
}

/** 'Pausar', 'Retomar' and 'Alterar SKU', each confirmed here, with an optional reason for the audit. */
export function CapacityActionModal({ action, onHide, sku, tipo, retomadaSegundos }: CapacityActionModalProps) {
  const titleId = useId();
  const pause = usePauseCapacity();
  const resume = useResumeCapacity();
  const changeSku = useChangeCapacitySku();
  const [motivo, setMotivo] = useState('');
  const [novoSku, setNovoSku] = useState(sku ?? '');
  const [error, setError] = useState<string | null>(null);
  // Kept while the dialog fades out, so its texts do not change under the animation.
  const [shown, setShown] = useState<CapacityAction>(action ?? 'pausar');
  if (action && action !== shown) setShown(action);

  const busy = pause.isPending || resume.isPending || changeSku.isPending;
  const texts = TEXTS[shown];
  const skus = SKUS[tipo ?? 'embedded'];
  const sameSku = shown === 'sku' && novoSku === sku;

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || sameSku) return;
    setError(null);
    const reason = motivo.trim() || null;
    try {
      if (shown === 'pausar') await pause.mutateAsync(reason);
      else if (shown === 'retomar') await resume.mutateAsync(reason);
      else await changeSku.mutateAsync({ sku: novoSku, motivo: reason });
      onHide();
    } catch (failure) {
      setError(errorMessage(failure, texts.error));
    }
  }

  return (
    <Modal
      show={action !== null}
      onHide={busy ? () => undefined : onHide}
      centered
      backdrop={busy ? 'static' : true}
      aria-labelledby={titleId}
    >
      <Form noValidate onSubmit={(event) => void confirm(event)}>
        <Modal.Header closeButton={!busy} closeLabel="Fechar">
          <Modal.Title as="h2" className="h5" id={titleId}>
            {texts.title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {shown === 'pausar' && (
            <p>
              Com a capacidade pausada, os relatórios não abrem e as atualizações agendadas não rodam até que ela seja
              retomada. A cobrança por hora para enquanto ela estiver pausada.
            </p>
          )}
          {shown === 'retomar' && (
            <p>
              A capacidade volta a ser cobrada por hora enquanto estiver ativa. Ela leva cerca de {retomadaSegundos}{' '}
              segundos para iniciar.
            </p>
          )}
          {shown === 'sku' && (
            <>
              <p>Durante a alteração, que leva cerca de um minuto, os relatórios podem não carregar.</p>
              <Form.Group className="mb-3" controlId="capacidade-novo-sku">
                <Form.Label>Novo SKU</Form.Label>
                <Form.Select value={novoSku} onChange={(event) => setNovoSku(event.target.value)} disabled={busy}>
                  {skus.map((s) => (
                    <option key={s} value={s}>
                      {s === sku ? `${s} (atual)` : s}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
            </>
          )}
          <Form.Group controlId="capacidade-motivo">
            <Form.Label>Motivo (opcional)</Form.Label>
            <Form.Control
              as="textarea"
              rows={2}
              value={motivo}
              maxLength={MOTIVO_MAX}
              disabled={busy}
              onChange={(event) => setMotivo(event.target.value)}
            />
            <Form.Text>Fica registrado no histórico e na auditoria.</Form.Text>
          </Form.Group>
          {error && (
            <Alert variant="danger" className="mt-3 mb-0 py-2">
              {error}
            </Alert>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
            Cancelar
          </Button>
          <BusyButton type="submit" variant={shown === 'pausar' ? 'warning' : 'primary'} busy={busy} disabled={sameSku}>
            {texts.confirm}
          </BusyButton>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
