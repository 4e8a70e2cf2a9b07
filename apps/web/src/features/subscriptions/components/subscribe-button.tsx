import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import Button from 'react-bootstrap/Button';
import { ASSINATURA_MESSAGES } from '@paineis/contract/subscription-constants';
import { paths } from '../../../config/paths.ts';
import { SubscriptionModal } from './subscription-modal.tsx';

export interface SubscribeButtonProps {
  painelId: number;
  /** The page the viewer shows (`?pagina=`), which 'Página atual' sends. */
  pagina: string | undefined;
  /** Shows a notice under the viewer's header, as its own actions do. */
  onNotice: (notice: ReactNode) => void;
}

/** The viewer's 'Assinar': opens 'Assinar por e-mail', and once created says so with a link to the person's list. */
export function SubscribeButton({ painelId, pagina, onNotice }: SubscribeButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline-primary" size="sm" onClick={() => setOpen(true)}>
        Assinar
      </Button>
      <SubscriptionModal
        show={open}
        painelId={painelId}
        paginaAtual={pagina}
        onHide={() => setOpen(false)}
        onSaved={() => {
          setOpen(false);
          onNotice(
            <>
              {ASSINATURA_MESSAGES.criada}{' '}
              <Link to={paths.subscriptions} className="alert-link">
                Ver minhas assinaturas
              </Link>
            </>,
          );
        }}
      />
    </>
  );
}
