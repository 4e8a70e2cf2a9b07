import { useEffect, useId, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { errorMessage } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { BusyButton } from '../../../components/busy-button.tsx';
import { recordDataExport } from '../api/record-data-export.ts';
import {
  MAX_EXPORT_DATA_ROWS,
  type DataExportKind,
  type ReportControls,
  type ReportPage,
  type ReportVisual,
} from '../embedding/report-embedder.ts';
import {
  csvBlob,
  csvRowCount,
  dataExportFileName,
  exportsData,
  powerBiReason,
  visualKind,
} from '../utils/data-export.ts';

export const DATA_EXPORT_TITLE = 'Exportar dados';
export const NO_EXPORTABLE_VISUAL = 'Nenhum visual desta página permite exportar dados.';
export const VISUALS_ERROR = 'Não foi possível listar os visuais desta página.';
export const RECORD_ERROR = 'Não foi possível registrar a exportação dos dados. O arquivo não foi salvo.';
export const powerBiRefused = (reason: string | null) =>
  `O Power BI recusou a exportação dos dados deste visual${reason ? `: ${reason}` : '.'}`;

type Listing = { kind: 'loading' } | { kind: 'failed' } | { kind: 'listed'; page: ReportPage; visuals: ReportVisual[] };

interface DataExportModalProps {
  show: boolean;
  painelId: number;
  nomePainel: string;
  controls: ReportControls | null;
  onHide: () => void;
  /** Reports whether an export runs, so the header's button waits for it (one export at a time per report). */
  onRunning: (running: boolean) => void;
  /** After the file was handed to the browser. */
  onSaved: (fileName: string) => void;
}

/**
 * 'Exportar dados' (docs/requirements.md#viewer-data-export): the current page's visuals that Power BI exports data
 * from, 'Dados resumidos' or 'Dados subjacentes', and a CSV as Power BI writes it. The file is saved only after the
 * server recorded the export, which it refuses when the panel does not allow it.
 */
export function DataExportModal({ show, ...props }: DataExportModalProps) {
  const titleId = useId();
  const [running, setRunning] = useState(false);
  const busy = (value: boolean) => {
    setRunning(value);
    props.onRunning(value);
  };
  return (
    <Modal
      show={show}
      onHide={running ? () => undefined : props.onHide}
      centered
      backdrop={running ? 'static' : true}
      aria-labelledby={titleId}
    >
      {/* Remounted on every opening: the page shown may have changed since. */}
      {show && <DataExportForm {...props} titleId={titleId} running={running} onBusy={busy} />}
    </Modal>
  );
}

function DataExportForm({
  painelId,
  nomePainel,
  controls,
  onHide,
  onSaved,
  titleId,
  running,
  onBusy,
}: Omit<DataExportModalProps, 'show' | 'onRunning'> & {
  titleId: string;
  running: boolean;
  onBusy: (running: boolean) => void;
}) {
  const [listing, setListing] = useState<Listing>({ kind: 'loading' });
  const [chosen, setChosen] = useState<string | null>(null);
  const [kind, setKind] = useState<DataExportKind>('resumidos');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!controls) return;
    let gone = false;
    controls.getVisuals().then(
      ({ page, visuals }) => {
        if (gone) return;
        const exportable = visuals.filter(exportsData);
        setListing({ kind: 'listed', page, visuals: exportable });
        setChosen(exportable[0]?.name ?? null);
      },
      (failure: unknown) => {
        console.warn('Não foi possível listar os visuais da página', failure);
        if (!gone) setListing({ kind: 'failed' });
      },
    );
    return () => {
      gone = true;
    };
  }, [controls]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!controls || listing.kind !== 'listed' || running) return;
    const visual = listing.visuals.find((each) => each.name === chosen);
    if (!visual) return;
    const { page } = listing;
    setError(null);
    onBusy(true);
    try {
      let csv: string;
      try {
        csv = await controls.exportData(page.name, visual.name, kind, MAX_EXPORT_DATA_ROWS);
      } catch (refusal) {
        console.warn('O Power BI recusou a exportação dos dados', refusal);
        setError(powerBiRefused(powerBiReason(refusal)));
        return;
      }
      try {
        await recordDataExport(painelId, {
          pagina: page.displayName,
          visual: visual.name,
          tituloVisual: visual.title || null,
          tipo: kind,
          linhas: Math.min(csvRowCount(csv), MAX_EXPORT_DATA_ROWS),
        });
      } catch (failure) {
        // The server's word when it refuses (403: the panel does not allow it; 404: no longer visible).
        setError(errorMessage(failure, RECORD_ERROR));
        return;
      }
      const fileName = dataExportFileName(nomePainel, page.displayName, visual.title || visual.name);
      saveFile(csvBlob(csv), fileName);
      onSaved(fileName);
    } finally {
      onBusy(false);
    }
  };

  return (
    <Form noValidate onSubmit={(event) => void submit(event)}>
      <Modal.Header closeButton={!running} closeLabel="Fechar">
        <Modal.Title as="h2" className="h5" id={titleId}>
          {DATA_EXPORT_TITLE}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {error && (
          <Alert variant="danger" className="py-2">
            {error}
          </Alert>
        )}
        {listing.kind === 'loading' && (
          <div className="d-flex align-items-center gap-2" role="status">
            <Spinner animation="border" size="sm" aria-hidden="true" />
            <span>Carregando os visuais da página…</span>
          </div>
        )}
        {listing.kind === 'failed' && <Alert variant="warning">{VISUALS_ERROR}</Alert>}
        {listing.kind === 'listed' && listing.visuals.length === 0 && (
          <Alert variant="info" className="mb-0">
            {NO_EXPORTABLE_VISUAL}
          </Alert>
        )}
        {listing.kind === 'listed' && listing.visuals.length > 0 && (
          <>
            <p className="small text-body-secondary">
              Página: <strong>{listing.page.displayName}</strong>. Até {MAX_EXPORT_DATA_ROWS.toLocaleString('pt-BR')}{' '}
              linhas, em CSV, como o Power BI as exporta.
            </p>
            <fieldset className="mb-3" disabled={running}>
              <legend className="fs-6 fw-semibold">Visual</legend>
              {listing.visuals.map((visual) => (
                <Form.Check
                  key={visual.name}
                  type="radio"
                  name="visual"
                  id={`visual-${visual.name}`}
                  label={
                    <>
                      {visual.title || visual.name}{' '}
                      <span className="text-body-secondary small">({visualKind(visual.type)})</span>
                    </>
                  }
                  checked={chosen === visual.name}
                  onChange={() => setChosen(visual.name)}
                />
              ))}
            </fieldset>
            <fieldset disabled={running}>
              <legend className="fs-6 fw-semibold">Dados</legend>
              <Form.Check
                type="radio"
                name="tipo-dados"
                id="dados-resumidos"
                label="Dados resumidos (como o visual os mostra)"
                checked={kind === 'resumidos'}
                onChange={() => setKind('resumidos')}
              />
              <Form.Check
                type="radio"
                name="tipo-dados"
                id="dados-subjacentes"
                label="Dados subjacentes (as linhas por trás do visual)"
                checked={kind === 'subjacentes'}
                onChange={() => setKind('subjacentes')}
              />
            </fieldset>
          </>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide} disabled={running}>
          Cancelar
        </Button>
        <BusyButton
          type="submit"
          variant="primary"
          busy={running}
          disabled={listing.kind !== 'listed' || listing.visuals.length === 0 || !chosen}
        >
          {running ? 'Exportando…' : 'Exportar'}
        </BusyButton>
      </Modal.Footer>
    </Form>
  );
}
