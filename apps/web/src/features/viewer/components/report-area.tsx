import Alert from 'react-bootstrap/Alert';
import type { PainelComEmbed } from '@paineis/contract/panels';

export const EMBED_TOKEN_MISSING = 'Token de embed não fornecido';
export const REPORT_ERROR_TITLE = 'Erro ao carregar relatório';

/** The error panel of SPEC.md section 8: a title, the message and what helps to debug it. */
export function ReportError({ message, painel }: { message: string; painel: PainelComEmbed }) {
  return (
    <Alert variant="danger" className="m-3">
      <Alert.Heading as="h2" className="h5">
        {REPORT_ERROR_TITLE}
      </Alert.Heading>
      <p className="mb-2">{message}</p>
      <details>
        <summary>Informações para depuração</summary>
        <dl className="row small mb-0 mt-2">
          <dt className="col-sm-3">Painel</dt>
          <dd className="col-sm-9">{painel.id}</dd>
          <dt className="col-sm-3">Workspace ID</dt>
          <dd className="col-sm-9 font-monospace">{painel.workspaceId}</dd>
          <dt className="col-sm-3">Report ID</dt>
          <dd className="col-sm-9 font-monospace">{painel.reportId}</dd>
          <dt className="col-sm-3">URL de incorporação</dt>
          <dd className="col-sm-9 font-monospace text-break">{painel.embedUrl || '—'}</dd>
          <dt className="col-sm-3">Token expira em</dt>
          <dd className="col-sm-9">
            {painel.tokenExpiration ? new Date(painel.tokenExpiration).toLocaleString('pt-BR') : '—'}
          </dd>
        </dl>
      </details>
    </Alert>
  );
}

/**
 * Where the report goes: a 220 px sidebar of report pages beside the embedded report, using the full height
 * below the header. The embedding itself (powerbi-client) lives here when it lands.
 */
export function ReportArea({ painel }: { painel: PainelComEmbed }) {
  if (!painel.embedToken) return <ReportError message={EMBED_TOKEN_MISSING} painel={painel} />;
  return (
    <div className="report-layout flex-grow-1 d-flex">
      <nav className="report-pages border-end bg-white" aria-label="Páginas do relatório" />
      <div className="report-frame flex-grow-1" />
    </div>
  );
}
