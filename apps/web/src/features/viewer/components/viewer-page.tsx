import type { ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { paths } from '../../../config/paths.ts';
import { errorMessage, statusOf } from '../../../lib/api-client.ts';
import { usePanel } from '../api/get-panel.ts';
import { useRoleNames } from '../api/get-role-names.ts';
import { ReportArea } from './report-area.tsx';

export const PANEL_NOT_FOUND = 'Painel não encontrado';
export const PANEL_LOAD_ERROR = 'Erro ao carregar painel';
export const RLS_BANNER = 'Este painel utiliza Row Level Security (RLS)';
export const ROLE_LABEL = 'Visualizar como';
export const ALL_ROLES = 'Todos os papéis';
export const SHOW_ALL_ROLES = 'Visualizar com todos os papéis';

interface ViewerPageProps {
  /** Admins may preview an RLS panel as one of its roles (`?papel=`); others always see their own. */
  canChooseRole?: boolean;
}

/**
 * /visualizar/{id}: header with the name and Voltar, the RLS banner, and the report
 * (docs/requirements.md#screen-viewer).
 */
export default function ViewerPage({ canChooseRole = false }: ViewerPageProps) {
  const { id } = useParams();
  const panelId = Number(id);
  const [searchParams, setSearchParams] = useSearchParams();
  const papel = (canChooseRole && searchParams.get('papel')?.trim()) || undefined;
  const { data: opened, error, isPending, refetch } = usePanel(panelId, papel);

  const choose = (role: string) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (role) next.set('papel', role);
        else next.delete('papel');
        return next;
      },
      { replace: true },
    );

  if (!Number.isInteger(panelId) || panelId <= 0 || statusOf(error) === 404) {
    return <ViewerProblem title={PANEL_NOT_FOUND} />;
  }
  if (error) {
    return (
      <ViewerProblem title={PANEL_LOAD_ERROR} detail={errorMessage(error, '')} onRetry={() => void refetch()}>
        {papel && (
          <Button variant="outline-primary" onClick={() => choose('')}>
            {SHOW_ALL_ROLES}
          </Button>
        )}
      </ViewerProblem>
    );
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
  const { panel: painel, view } = opened;
  return (
    <div className="viewer flex-grow-1 d-flex flex-column">
      {/* On a narrow screen the role choice moves to a line of its own instead of squeezing the name away. */}
      <header className="d-flex flex-wrap align-items-center column-gap-3 row-gap-2 px-3 py-2 bg-white border-bottom">
        <Link to={paths.home} className="btn btn-outline-secondary btn-sm text-nowrap">
          ← Voltar
        </Link>
        <h1 className="h5 mb-0 text-truncate flex-grow-1" style={{ flexBasis: '8rem', minWidth: 0 }}>
          {painel.nomePainel}
        </h1>
        {canChooseRole && painel.usaRls && <RoleChoice panelId={painel.id} papel={papel} onChoose={choose} />}
      </header>
      {painel.usaRls && (
        <Alert variant="info" className="rounded-0 mb-0 py-2 px-3 border-0 border-bottom">
          {RLS_BANNER}
        </Alert>
      )}
      {/* Another role is another identity: the report is embedded anew with its token (and its opening's view). */}
      <ReportArea key={papel ?? ''} painel={painel} papel={papel} view={view} />
    </div>
  );
}

/** The admin's choice of the RLS role to preview the panel as; all roles by default. */
function RoleChoice({
  panelId,
  papel,
  onChoose,
}: {
  panelId: number;
  papel: string | undefined;
  onChoose: (role: string) => void;
}) {
  const { data: roles, isPending } = useRoleNames(panelId);
  const options = roles ?? [];
  // A role in the address that the list does not (yet) hold is still shown as chosen.
  const listed = papel && !options.includes(papel) ? [papel, ...options] : options;
  return (
    <div className="d-flex align-items-center gap-2">
      <Form.Label htmlFor="papel-rls" className="mb-0 small text-nowrap">
        {ROLE_LABEL}
      </Form.Label>
      <Form.Select
        id="papel-rls"
        size="sm"
        style={{ width: 'auto', maxWidth: 280 }}
        value={papel ?? ''}
        disabled={isPending}
        onChange={(event) => onChoose(event.target.value)}
      >
        <option value="">{ALL_ROLES}</option>
        {listed.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </Form.Select>
    </div>
  );
}

function ViewerProblem({
  title,
  detail,
  onRetry,
  children,
}: {
  title: string;
  detail?: string;
  onRetry?: () => void;
  children?: ReactNode;
}) {
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
        {children}
      </div>
    </div>
  );
}
