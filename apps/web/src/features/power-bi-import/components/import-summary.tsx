import type { Ref } from 'react';
import type { ResultadoImportacao } from '@paineis/contract/power-bi';
import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { formatInteger } from '../../../lib/format.ts';

export const createdCount = (n: number) => (n === 1 ? '1 painel criado' : `${formatInteger(n)} painéis criados`);
export const skippedCount = (n: number) => (n === 1 ? '1 ignorado' : `${formatInteger(n)} ignorados`);

interface ImportSummaryProps {
  result: ResultadoImportacao;
  onClose: () => void;
  /** Takes the focus when it appears (the page does it). */
  ref: Ref<HTMLDivElement>;
}

/** What an import did: the panels created, each a link to the viewer, and the reports skipped with the reason. */
export function ImportSummary({ result, onClose, ref }: ImportSummaryProps) {
  const { criados, ignorados } = result;
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      variant={criados.length > 0 ? 'success' : 'warning'}
      dismissible
      closeLabel="Fechar"
      onClose={onClose}
      aria-labelledby="resultado-importacao"
    >
      <h2 id="resultado-importacao" className="h5">
        Resultado da importação
      </h2>
      <p className="fw-semibold mb-1">{createdCount(criados.length)}</p>
      {criados.length > 0 && (
        <ul className="mb-2">
          {criados.map((c) => (
            <li key={c.painelId}>
              <Link to={paths.viewer(c.painelId)} className="alert-link text-break">
                {c.nomePainel}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {ignorados.length > 0 && (
        <>
          <p className="fw-semibold mb-1">{skippedCount(ignorados.length)}</p>
          <ul className="mb-0">
            {ignorados.map((i, index) => (
              <li key={`${i.reportId}-${index}`} className="text-break">
                {i.nome}: {i.motivo}
              </li>
            ))}
          </ul>
        </>
      )}
    </Alert>
  );
}
