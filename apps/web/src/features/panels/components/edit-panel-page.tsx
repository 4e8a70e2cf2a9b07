import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import type { Classificacao } from '@paineis/contract/classifications';
import { SEM_CLASSIFICACAO_ID } from '@paineis/contract/constants';
import type { PainelDados } from '@paineis/contract/panels';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage, statusOf } from '../../../lib/api-client.ts';
import { usePrefetchNextOrder, useResolveNextOrder } from '../api/get-next-order.ts';
import { usePanelData } from '../api/get-panel-data.ts';
import { useUpdatePanel } from '../api/update-panel.ts';
import { PanelForm, PanelFormFrame, type ClassificationOption, type PanelFormValues } from './panel-form.tsx';
import { formatDateMinutes } from '../../../lib/format.ts';
import { useConfiguration } from '../../../lib/api/get-configuration.ts';

export const UPDATE_PANEL_ERROR = 'Erro ao atualizar painel. Tente novamente.';
export const LOAD_PANEL_ERROR = 'Erro ao carregar dados do painel.';

function parseId(raw: string | undefined): number | null {
  const id = Number(raw);
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}

/** /editar/{id}: 'Editar Painel' (docs/requirements.md#panel-forms). */
export function EditPanelPage({ classifications }: { classifications: Classificacao[] }) {
  const params = useParams();
  const id = parseId(params.id);
  // An id that cannot exist is not found, without asking the server.
  if (id === null) return <PanelNotFound />;
  return <EditPanel key={id} id={id} classifications={classifications} />;
}

function EditPanel({ id, classifications }: { id: number; classifications: Classificacao[] }) {
  const navigate = useNavigate();
  const { data, error, isError } = usePanelData(id);
  const status = statusOf(error);
  const failed = isError && status !== 404;

  useEffect(() => {
    // A 401 already signs the user out and goes to /login.
    if (!failed || status === 401) return;
    window.alert(LOAD_PANEL_ERROR);
    void navigate(paths.home, { replace: true });
  }, [failed, status, navigate]);

  if (isError && status === 404) return <PanelNotFound />;
  if (!data) {
    return (
      <PanelFormFrame>
        <LoadingSpinner />
      </PanelFormFrame>
    );
  }
  return <EditPanelForm painel={data} classifications={classifications} />;
}

function EditPanelForm({ painel, classifications }: { painel: PainelDados; classifications: Classificacao[] }) {
  const navigate = useNavigate();
  const update = useUpdatePanel();
  const idiomaPortal = useConfiguration().data?.idiomaRelatorios;
  const [values, setValues] = useState<PanelFormValues>({
    nomePainel: painel.nomePainel,
    classificacaoId: painel.classificacaoId,
    workspaceId: painel.workspaceId,
    reportId: painel.reportId,
    usaRls: painel.usaRls,
    permiteExportacao: painel.permiteExportacao,
    permiteExportarDados: painel.permiteExportarDados,
    idioma: painel.idioma,
  });
  const moved = values.classificacaoId !== painel.classificacaoId;
  usePrefetchNextOrder(values.classificacaoId, moved);
  const resolveNextOrder = useResolveNextOrder();
  const [preparing, setPreparing] = useState(false);

  // A panel may sit in a classification that is no longer active: keep it selectable, or the select would
  // silently show another one.
  const options: ClassificationOption[] =
    painel.classificacaoId === SEM_CLASSIFICACAO_ID || classifications.some((c) => c.id === painel.classificacaoId)
      ? classifications
      : [...classifications, { id: painel.classificacaoId, nome: painel.classificacaoNome }].sort((a, b) =>
          a.nome.localeCompare(b.nome, 'pt-BR'),
        );

  async function handleSubmit(valid: PanelFormValues) {
    let ordem: number | undefined = painel.ordem;
    if (moved) {
      // Moved: last in the new classification (left out if unknown: the server then puts it last).
      setPreparing(true);
      ordem = await resolveNextOrder(valid.classificacaoId);
      setPreparing(false);
    }
    update.mutate(
      {
        id: painel.id,
        body: {
          ...valid,
          ordem,
          // rlsConfigurations is left out on purpose: the server then keeps the panel's roles, which the RLS
          // modal manages. Sending the roles loaded with this form could undo changes made there meanwhile.
        },
      },
      { onSuccess: () => void navigate(paths.home) },
    );
  }

  const info = (
    <div className="bg-body-tertiary border rounded-3 px-3 py-2 mb-3 small d-flex flex-wrap column-gap-4 row-gap-1">
      <span>ID: {painel.id}</span>
      <span>Cadastrado em: {formatDateMinutes(new Date(painel.dataCadastro))}</span>
      {painel.dataAtualizacao && <span>Atualizado em: {formatDateMinutes(new Date(painel.dataAtualizacao))}</span>}
    </div>
  );

  return (
    <PanelFormFrame>
      <PanelForm
        idiomaPortal={idiomaPortal}
        title="Editar Painel"
        submitLabel="Atualizar Painel"
        values={values}
        onChange={setValues}
        classifications={options}
        saving={preparing || update.isPending}
        error={update.isError ? UPDATE_PANEL_ERROR : null}
        errorDetail={update.isError ? errorMessage(update.error, '') || null : null}
        info={info}
        onSubmit={(valid) => void handleSubmit(valid)}
      />
    </PanelFormFrame>
  );
}

function PanelNotFound() {
  const navigate = useNavigate();
  return (
    <PanelFormFrame>
      <Card className="shadow-sm">
        <Card.Body className="p-3 p-sm-4">
          <Card.Title as="h1" className="h4 mb-3">
            Editar Painel
          </Card.Title>
          <Alert variant="warning" className="mb-3">
            Painel não encontrado.
          </Alert>
          <Button variant="primary" onClick={() => void navigate(paths.home)}>
            Voltar ao Início
          </Button>
        </Card.Body>
      </Card>
    </PanelFormFrame>
  );
}
