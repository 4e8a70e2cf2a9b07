import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { SEM_CLASSIFICACAO_ID, SEM_CLASSIFICACAO_NOME } from '@paineis/contract/constants';
import type { RelatorioPowerBi, ResultadoImportacao } from '@paineis/contract/power-bi';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import { BusyButton } from '../../../components/busy-button.tsx';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useClassifications } from '../../../lib/api/get-classifications.ts';
import { useWorkspaceReports } from '../api/get-workspace-reports.ts';
import { useWorkspaces } from '../api/get-workspaces.ts';
import { useImportReports } from '../api/import-reports.ts';
import { ImportSummary } from './import-summary.tsx';
import { ReportChoice } from './report-choice.tsx';

export const WORKSPACES_LOAD_ERROR = 'Erro ao carregar os workspaces do Power BI';
export const REPORTS_LOAD_ERROR = 'Erro ao carregar os relatórios do workspace';
export const IMPORT_ERROR = 'Erro ao importar os relatórios. Tente novamente.';

/** The panel's name typed for each ticked report, by report id ('' : the report's own name). */
type Chosen = Map<string, string>;

/**
 * /importar: 'Importar do Power BI' (docs/requirements.md#power-bi). An admin picks a workspace, ticks its reports
 * (those already panels are shown, not offered), may rename each, chooses the classification and imports; the
 * summary names the panels created and the reports skipped. Admin only (the route guards it).
 */
export function ImportPage() {
  const workspaces = useWorkspaces();
  const classifications = useClassifications();
  const [workspaceId, setWorkspaceId] = useState<string | null>(null);
  const reports = useWorkspaceReports(workspaceId);
  const [chosen, setChosen] = useState<Chosen>(new Map());
  const [classificacaoId, setClassificacaoId] = useState<number>(SEM_CLASSIFICACAO_ID);
  const importing = useImportReports();
  const [result, setResult] = useState<ResultadoImportacao | null>(null);
  const summaryRef = useRef<HTMLDivElement>(null);

  // The summary takes the focus when it appears, so that a screen reader reads it and the keyboard starts there.
  useEffect(() => {
    if (result) summaryRef.current?.focus();
  }, [result]);

  // Once the classifications are known, the first one is offered (as 'Novo Painel' does), unless one was picked.
  const [classificationTouched, setClassificationTouched] = useState(false);
  const firstClassification = classifications.data?.[0]?.id;
  const shownClassificacaoId = classificationTouched ? classificacaoId : (firstClassification ?? SEM_CLASSIFICACAO_ID);

  function chooseWorkspace(id: string) {
    setWorkspaceId(id === '' ? null : id);
    setChosen(new Map());
  }

  function toggle(report: RelatorioPowerBi, ticked: boolean) {
    setChosen((current) => {
      const next = new Map(current);
      if (ticked) next.set(report.reportId, report.nome);
      else next.delete(report.reportId);
      return next;
    });
  }

  function rename(report: RelatorioPowerBi, nome: string) {
    setChosen((current) => new Map(current).set(report.reportId, nome));
  }

  // In the order the list shows them, which is the order they take in the classification.
  const selected = (reports.data ?? []).filter((r) => r.painelId === null && chosen.has(r.reportId));

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!workspaceId || selected.length === 0 || importing.isPending) return;
    importing.mutate(
      {
        classificacaoId: shownClassificacaoId,
        relatorios: selected.map((r) => {
          const nome = chosen.get(r.reportId)?.trim() ?? '';
          return { workspaceId, reportId: r.reportId, ...(nome && nome !== r.nome ? { nomePainel: nome } : {}) };
        }),
      },
      {
        onSuccess: (done) => {
          setResult(done);
          setChosen(new Map());
        },
      },
    );
  }

  let reportList;
  if (workspaceId === null) {
    reportList = null;
  } else if (reports.data) {
    reportList =
      reports.data.length === 0 ? (
        <p className="text-body-secondary mb-0">Nenhum relatório neste workspace.</p>
      ) : (
        <ul className="list-unstyled mb-0 d-grid gap-2">
          {reports.data.map((report) => (
            <ReportChoice
              key={report.reportId}
              report={report}
              ticked={chosen.has(report.reportId)}
              nomePainel={chosen.get(report.reportId) ?? ''}
              onToggle={(ticked) => toggle(report, ticked)}
              onRename={(nome) => rename(report, nome)}
            />
          ))}
        </ul>
      );
  } else if (reports.error && !reports.isFetching) {
    reportList = (
      <LoadErrorAlert
        className="mb-0"
        message={errorMessage(reports.error, REPORTS_LOAD_ERROR)}
        onRetry={() => void reports.refetch()}
      />
    );
  } else {
    reportList = <LoadingSpinner />;
  }

  let workspacePicker;
  if (workspaces.data) {
    workspacePicker = (
      <Form.Group controlId="importar-workspace" className="mb-4">
        <Form.Label>Workspace</Form.Label>
        <Form.Select value={workspaceId ?? ''} onChange={(e) => chooseWorkspace(e.target.value)}>
          <option value="">Selecione um workspace</option>
          {workspaces.data.map((w) => (
            <option key={w.id} value={w.id}>
              {w.nome}
            </option>
          ))}
        </Form.Select>
        {workspaces.data.length === 0 && (
          <Form.Text>
            O Power BI não mostra ao portal nenhum workspace. Dê acesso à entidade de serviço do portal.
          </Form.Text>
        )}
      </Form.Group>
    );
  } else if (workspaces.error && !workspaces.isFetching) {
    workspacePicker = (
      <LoadErrorAlert
        message={errorMessage(workspaces.error, WORKSPACES_LOAD_ERROR)}
        onRetry={() => void workspaces.refetch()}
      />
    );
  } else {
    workspacePicker = <LoadingSpinner />;
  }

  return (
    <Container fluid="xl" className="py-4">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-4">
        <h1 className="h3 mb-0">Importar do Power BI</h1>
        <Link to={paths.home} className="btn btn-outline-secondary">
          ← Voltar
        </Link>
      </div>

      {result && <ImportSummary ref={summaryRef} result={result} onClose={() => setResult(null)} />}

      <Card className="shadow-sm">
        <Card.Body>
          <Form noValidate onSubmit={handleSubmit}>
            {workspacePicker}

            {workspaceId !== null && (
              <fieldset className="mb-4">
                <legend className="fs-6 fw-semibold">Relatórios</legend>
                {reportList}
              </fieldset>
            )}

            <Form.Group controlId="importar-classificacao" className="mb-4">
              <Form.Label>Classificação</Form.Label>
              <Form.Select
                value={String(shownClassificacaoId)}
                onChange={(e) => {
                  setClassificationTouched(true);
                  setClassificacaoId(Number(e.target.value));
                }}
              >
                {(classifications.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.nome}
                  </option>
                ))}
                <option value={SEM_CLASSIFICACAO_ID}>{SEM_CLASSIFICACAO_NOME}</option>
              </Form.Select>
              <Form.Text>Os painéis entram no fim da classificação, na ordem da lista.</Form.Text>
            </Form.Group>

            {importing.isError && (
              <Alert variant="danger" dismissible closeLabel="Fechar" onClose={() => importing.reset()}>
                {errorMessage(importing.error, IMPORT_ERROR)}
              </Alert>
            )}

            <BusyButton type="submit" variant="primary" busy={importing.isPending} disabled={selected.length === 0}>
              Importar ({selected.length})
            </BusyButton>
          </Form>
        </Card.Body>
      </Card>
    </Container>
  );
}
