import { useRef, useState, type CSSProperties, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { SEM_CLASSIFICACAO_ID, SEM_CLASSIFICACAO_NOME } from '@paineis/contract/constants';
import { DEFAULT_REPORT_LOCALE, REPORT_LOCALE_CHOICES } from '@paineis/contract/report-locales';
import { BusyButton } from '../../../components/busy-button.tsx';
import { paths } from '../../../config/paths.ts';

export interface PanelFormValues {
  nomePainel: string;
  /** 0: 'Sem Classificação'. */
  classificacaoId: number;
  workspaceId: string;
  reportId: string;
  usaRls: boolean;
  /** Whether people may export the report to PDF and PowerPoint from the viewer. */
  permiteExportacao: boolean;
  /** Whether people may export a visual's data to CSV from the viewer ('Exportar dados'). */
  permiteExportarDados: boolean;
  /** The report's language (BCP 47); null: the portal's. */
  idioma: string | null;
}

export const REPORT_LANGUAGE_LABEL = 'Idioma do relatório';
export const PORTAL_LANGUAGE = (tag: string) => `Padrão do portal (${tag})`;

export interface ClassificationOption {
  id: number;
  nome: string;
}

type FieldErrors = Partial<Record<'nomePainel' | 'workspaceId' | 'reportId', string>>;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const GUID_EXAMPLE = '00000000-0000-0000-0000-000000000000';
const NOME_MAX = 200;

const trimmed = (values: PanelFormValues): PanelFormValues => ({
  ...values,
  nomePainel: values.nomePainel.trim(),
  workspaceId: values.workspaceId.trim(),
  reportId: values.reportId.trim(),
});

function guidError(label: string, value: string): string | undefined {
  if (!value) return `${label} é obrigatório.`;
  // The server only accepts GUIDs; saying so here spares a round trip.
  if (!GUID.test(value)) return `${label} deve ser um GUID, como ${GUID_EXAMPLE}.`;
  return undefined;
}

/** docs/requirements.md#form-validation: name, workspace ID and report ID are required; the IDs are GUIDs. */
export function validatePanelForm(values: PanelFormValues): FieldErrors {
  const v = trimmed(values);
  const errors: FieldErrors = {};
  if (!v.nomePainel) errors.nomePainel = 'Nome do painel é obrigatório.';
  const workspace = guidError('Workspace ID', v.workspaceId);
  if (workspace) errors.workspaceId = workspace;
  const report = guidError('Report ID', v.reportId);
  if (report) errors.reportId = report;
  return errors;
}

export interface PanelFormProps {
  title: string;
  submitLabel: string;
  values: PanelFormValues;
  onChange: (values: PanelFormValues) => void;
  /** The classifications offered; 'Sem Classificação' is always added last. */
  classifications: ClassificationOption[];
  saving: boolean;
  /** This form's failure message from docs/requirements.md#error-catalogue, when the save failed. */
  error: string | null;
  /** The server's own explanation of the failure, shown under the catalogue's message. */
  errorDetail?: string | null;
  /** Shown between the title and the fields (the edit form's info box). */
  info?: ReactNode;
  /** Called with trimmed values, only when they are valid. */
  onSubmit: (values: PanelFormValues) => void;
  /** The portal's report language (GET /configuracao), named in the 'Padrão do portal' choice. */
  idiomaPortal?: string | undefined;
}

// The theme's body colour is the page's light grey; inside the form, cards and fields are white so they stand
// out from the page (Bootstrap derives both from this variable).
const frameStyle = { maxWidth: 720, '--bs-body-bg': '#fff' } as CSSProperties;

/** Both panel pages: a centred column as wide as a comfortable form. */
export function PanelFormFrame({ children }: { children: ReactNode }) {
  return (
    <div className="container py-3 py-sm-4">
      <div className="mx-auto" style={frameStyle}>
        {children}
      </div>
    </div>
  );
}

/** The panel form shared by /cadastro and /editar/{id}. */
export function PanelForm({
  title,
  submitLabel,
  values,
  onChange,
  classifications,
  saving,
  error,
  errorDetail,
  info,
  onSubmit,
  idiomaPortal = DEFAULT_REPORT_LOCALE,
}: PanelFormProps) {
  // Messages appear after the first submit and then follow every keystroke.
  const [submitted, setSubmitted] = useState(false);
  const navigate = useNavigate();
  const fields = useRef<Partial<Record<keyof FieldErrors, HTMLInputElement | null>>>({});
  const errors = submitted ? validatePanelForm(values) : {};

  const set = <K extends keyof PanelFormValues>(key: K, value: PanelFormValues[K]) =>
    onChange({ ...values, [key]: value });

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    setSubmitted(true);
    const found = validatePanelForm(values);
    const first = (['nomePainel', 'workspaceId', 'reportId'] as const).find((key) => found[key]);
    if (first) {
      fields.current[first]?.focus();
      return;
    }
    onSubmit(trimmed(values));
  }

  const textField = (
    key: keyof FieldErrors,
    label: string,
    extra: { placeholder?: string; maxLength?: number; autoComplete?: string; spellCheck?: boolean },
  ) => (
    <Form.Group className="mb-3" controlId={`painel-${key}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        ref={(element: HTMLInputElement | null) => {
          fields.current[key] = element;
        }}
        type="text"
        value={values[key]}
        onChange={(event) => set(key, event.target.value)}
        isInvalid={Boolean(errors[key])}
        // is-invalid only paints the field red: assistive technology hears that it is invalid from aria-invalid.
        aria-invalid={Boolean(errors[key])}
        aria-describedby={errors[key] ? `painel-${key}-erro` : undefined}
        required
        {...extra}
      />
      <Form.Control.Feedback type="invalid" id={`painel-${key}-erro`}>
        {errors[key]}
      </Form.Control.Feedback>
    </Form.Group>
  );

  const checkField = (key: 'usaRls' | 'permiteExportacao' | 'permiteExportarDados', label: string) => (
    <Form.Check
      className="mb-4"
      type="checkbox"
      id={`painel-${key}`}
      label={label}
      checked={values[key]}
      onChange={(event) => set(key, event.target.checked)}
    />
  );

  return (
    <Card className="shadow-sm">
      <Card.Body className="p-3 p-sm-4">
        <Card.Title as="h1" className="h4 mb-3">
          {title}
        </Card.Title>
        {info}
        {error && (
          <Alert variant="danger">
            <div className="fw-semibold">{error}</div>
            {errorDetail && <div className="small mt-1">{errorDetail}</div>}
          </Alert>
        )}
        <Form noValidate onSubmit={handleSubmit}>
          {textField('nomePainel', 'Nome do painel', { maxLength: NOME_MAX, autoComplete: 'off' })}
          <Form.Group className="mb-3" controlId="painel-classificacaoId">
            <Form.Label>Classificação</Form.Label>
            <Form.Select
              value={String(values.classificacaoId)}
              onChange={(event) => set('classificacaoId', Number(event.target.value))}
            >
              {classifications.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.nome}
                </option>
              ))}
              <option value={SEM_CLASSIFICACAO_ID}>{SEM_CLASSIFICACAO_NOME}</option>
            </Form.Select>
          </Form.Group>
          {textField('workspaceId', 'Workspace ID', {
            placeholder: GUID_EXAMPLE,
            autoComplete: 'off',
            spellCheck: false,
          })}
          {textField('reportId', 'Report ID', { placeholder: GUID_EXAMPLE, autoComplete: 'off', spellCheck: false })}
          <Form.Group className="mb-3" controlId="painel-idioma">
            <Form.Label>{REPORT_LANGUAGE_LABEL}</Form.Label>
            <Form.Select value={values.idioma ?? ''} onChange={(event) => set('idioma', event.target.value || null)}>
              <option value="">{PORTAL_LANGUAGE(idiomaPortal)}</option>
              {/* A language set through the API outside the short list stays selectable, rather than shown as another. */}
              {values.idioma && !REPORT_LOCALE_CHOICES.some((choice) => choice.tag === values.idioma) && (
                <option value={values.idioma}>{values.idioma}</option>
              )}
              {REPORT_LOCALE_CHOICES.map((choice) => (
                <option key={choice.tag} value={choice.tag}>
                  {choice.nome} ({choice.tag})
                </option>
              ))}
            </Form.Select>
            <Form.Text>Textos e formatos de números e datas do relatório.</Form.Text>
          </Form.Group>
          {checkField('usaRls', 'Usa RLS (Row Level Security)')}
          {checkField('permiteExportacao', 'Permitir exportação (PDF e PowerPoint)')}
          {checkField('permiteExportarDados', 'Permitir exportar dados')}
          <div className="d-flex flex-column-reverse flex-sm-row justify-content-end gap-2">
            <Button variant="outline-secondary" onClick={() => void navigate(paths.home)}>
              Cancelar
            </Button>
            <BusyButton type="submit" variant="primary" busy={saving}>
              {submitLabel}
            </BusyButton>
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}
