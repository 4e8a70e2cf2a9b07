import { useId, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { BusyButton } from '../../../components/busy-button.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatInteger } from '../../../lib/format.ts';

export const USAGE_LOAD_ERROR = 'Não foi possível carregar o uso dos painéis.';

interface UsageCardProps {
  title: string;
  /** A count beside the title (rows of a table that shows only some of them). */
  count?: number | undefined;
  /** Downloads the card's data as CSV; no button while there is nothing to export. */
  onExport?: (() => void) | undefined;
  footer?: ReactNode;
  children: ReactNode;
}

/** One part of '/uso': a card named by its heading (a region for assistive technology), with 'Exportar CSV'. */
export function UsageCard({ title, count, onExport, footer, children }: UsageCardProps) {
  const titleId = useId();
  return (
    <Card as="section" aria-labelledby={titleId} className="shadow-sm h-100">
      {/* On a narrow card the title wraps, and the button keeps its place at the end of the line. */}
      <Card.Header className="bg-body d-flex align-items-center gap-2 py-3">
        <div className="d-flex flex-wrap align-items-center gap-2 me-auto">
          <h2 id={titleId} className="h6 mb-0">
            {title}
          </h2>
          {count !== undefined && (
            <Badge bg="secondary-subtle" text="secondary-emphasis" pill>
              {formatInteger(count)}
            </Badge>
          )}
        </div>
        {onExport && (
          <Button
            variant="outline-secondary"
            size="sm"
            className="flex-shrink-0"
            aria-describedby={titleId}
            onClick={onExport}
          >
            Exportar CSV
          </Button>
        )}
      </Card.Header>
      {children}
      {footer && <Card.Footer className="bg-body small text-body-secondary">{footer}</Card.Footer>}
    </Card>
  );
}

/** In place of a part of the page whose data did not load: the server's message, or the page's, and a retry. */
export function LoadError({ error, onRetry, retrying }: { error: unknown; onRetry: () => void; retrying: boolean }) {
  return (
    <Alert variant="danger" className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-0">
      <span>{errorMessage(error, USAGE_LOAD_ERROR)}</span>
      <BusyButton variant="outline-danger" size="sm" onClick={onRetry} busy={retrying}>
        Tentar novamente
      </BusyButton>
    </Alert>
  );
}

/** A message in place of an empty table. */
export const EmptyTable = ({ children }: { children: ReactNode }) => (
  <Card.Body className="text-body-secondary text-center py-4">{children}</Card.Body>
);
