import { Link, useParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { paths } from '../../../config/paths.ts';
import { errorMessage, statusOf } from '../../../lib/api-client.ts';
import { usePanel } from '../api/get-panel.ts';
import { ReportArea } from './report-area.tsx';

export const PANEL_NOT_FOUND = 'Painel não encontrado';
export const PANEL_LOAD_ERROR = 'Erro ao carregar painel';
export const RLS_BANNER = 'Este painel utiliza Row Level Security (RLS)';

/** /visualizar/{id}: header with the name and Voltar, the RLS banner, and the report (SPEC.md section 2). */
export default function ViewerPage() {
  const { id } = useParams();
  const panelId = Number(id);
  const { data: painel, error, isPending, refetch } = usePanel(panelId);

  if (!Number.isInteger(panelId) || panelId <= 0 || statusOf(error) === 404) {
    return <ViewerProblem title={PANEL_NOT_FOUND} />;
  }
  if (error) {
    return <ViewerProblem title={PANEL_LOAD_ERROR} detail={errorMessage(error, '')} onRetry={() => void refetch()} />;
  }
  if (isPending) {
    return (
      <div className="flex-grow-1 d-flex align-items-center justify-content-center py-5">
        <Spinner animation="border" variant="primary" role="status">
          <span className="visually-hidden">Carregando...</span>
        </Spinner>
      </div>
    );
  }
  return (
    <div className="viewer flex-grow-1 d-flex flex-column">
      <header className="d-flex align-items-center gap-3 px-3 py-2 bg-white border-bottom">
        <Link to={paths.home} className="btn btn-outline-secondary btn-sm">
          ← Voltar
        </Link>
        <h1 className="h5 mb-0 text-truncate">{painel.nomePainel}</h1>
      </header>
      {painel.usaRls && (
        <Alert variant="info" className="rounded-0 mb-0 py-2 px-3 border-0 border-bottom">
          {RLS_BANNER}
        </Alert>
      )}
      <ReportArea painel={painel} />
    </div>
  );
}

function ViewerProblem({ title, detail, onRetry }: { title: string; detail?: string; onRetry?: () => void }) {
  return (
    <div className="container py-5" style={{ maxWidth: 640 }}>
      <Alert variant={title === PANEL_NOT_FOUND ? 'warning' : 'danger'}>
        <Alert.Heading as="h1" className="h4">
          {title}
        </Alert.Heading>
        {detail && <p className="mb-0">{detail}</p>}
      </Alert>
      <div className="d-flex gap-2">
        <Link to={paths.home} className="btn btn-primary">
          Voltar para Lista
        </Link>
        {onRetry && (
          <Button variant="outline-secondary" onClick={onRetry}>
            Tentar novamente
          </Button>
        )}
      </div>
    </div>
  );
}
