import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Classificacao } from '@paineis/contract/classifications';
import { SEM_CLASSIFICACAO_ID } from '@paineis/contract/constants';
import { paths } from '../../../config/paths.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useConfiguration } from '../../../lib/api/get-configuration.ts';
import { useCreatePanel } from '../api/create-panel.ts';
import { usePrefetchNextOrder, useResolveNextOrder } from '../api/get-next-order.ts';
import { PanelForm, PanelFormFrame, type PanelFormValues } from './panel-form.tsx';

export const CREATE_PANEL_ERROR = 'Erro ao criar painel. Tente novamente.';
/** docs/requirements.md#panel-entity and #ui-constants. */
const DEFAULT_CLASSIFICACAO_ID = 1;

/** Classification 1 when it is active, else the first option offered. */
function defaultClassificacaoId(classifications: Classificacao[]): number {
  if (classifications.some((c) => c.id === DEFAULT_CLASSIFICACAO_ID)) return DEFAULT_CLASSIFICACAO_ID;
  return classifications[0]?.id ?? SEM_CLASSIFICACAO_ID;
}

/** /cadastro: 'Novo Painel' (docs/requirements.md#panel-forms). */
export function NewPanelPage({ classifications }: { classifications: Classificacao[] }) {
  const navigate = useNavigate();
  const create = useCreatePanel();
  const idiomaPortal = useConfiguration().data?.idiomaRelatorios;
  // null until the user picks one: the default follows the classifications, which may still be loading.
  const [chosenClassificacao, setChosenClassificacao] = useState<number | null>(null);
  const [fields, setFields] = useState<Omit<PanelFormValues, 'classificacaoId'>>({
    nomePainel: '',
    workspaceId: '',
    reportId: '',
    usaRls: false,
    permiteExportacao: true,
    permiteExportarDados: true,
    idioma: null,
  });
  const values: PanelFormValues = {
    ...fields,
    classificacaoId: chosenClassificacao ?? defaultClassificacaoId(classifications),
  };
  // Not before there is something to choose from, so the loading moment asks for nothing.
  usePrefetchNextOrder(values.classificacaoId, chosenClassificacao !== null || classifications.length > 0);
  const resolveNextOrder = useResolveNextOrder();
  const [preparing, setPreparing] = useState(false);

  function handleChange({ classificacaoId, ...rest }: PanelFormValues) {
    setFields(rest);
    if (classificacaoId !== values.classificacaoId) setChosenClassificacao(classificacaoId);
  }

  async function handleSubmit(valid: PanelFormValues) {
    setPreparing(true);
    // Last in its classification rather than the fixed 1 of docs/requirements.md#panel-forms, which would tie with the
    // panel already first.
    const ordem = await resolveNextOrder(valid.classificacaoId);
    setPreparing(false);
    create.mutate(
      {
        ...valid,
        ordem,
        rlsConfigurations: [],
      },
      { onSuccess: () => void navigate(paths.home) },
    );
  }

  return (
    <PanelFormFrame>
      <PanelForm
        idiomaPortal={idiomaPortal}
        title="Novo Painel"
        submitLabel="Criar Painel"
        values={values}
        onChange={handleChange}
        classifications={classifications}
        saving={preparing || create.isPending}
        error={create.isError ? CREATE_PANEL_ERROR : null}
        errorDetail={create.isError ? errorMessage(create.error, '') || null : null}
        onSubmit={(valid) => void handleSubmit(valid)}
      />
    </PanelFormFrame>
  );
}
