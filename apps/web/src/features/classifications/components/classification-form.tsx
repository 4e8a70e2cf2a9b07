import { useState, type FormEvent, type Ref } from 'react';
import type { ClassificacaoAdmin } from '@paineis/contract/classifications';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { BusyButton } from '../../../components/busy-button.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useCreateClassification } from '../api/create-classification.ts';
import { useUpdateClassification } from '../api/update-classification.ts';

export const NAME_REQUIRED = 'Nome é obrigatório';
export const SAVE_ERROR = 'Erro ao salvar classificação';

// The contract's limits (packages/contract/src/classifications.ts), so the server never has to refuse them.
const NOME_MAX = 100;
const DESCRICAO_MAX = 500;

interface ClassificationFormProps {
  /** The classification being edited; null for a new one. Remount (key) to switch between them. */
  editing: ClassificacaoAdmin | null;
  /** Edit mode ends: saved or cancelled. */
  onClose: () => void;
  nameRef?: Ref<HTMLInputElement>;
}

/**
 * The 'Nova Classificação' / 'Editar Classificação' card (docs/requirements.md#screen-classifications,
 * #classification-form and #form-validation).
 */
export function ClassificationForm({ editing, onClose, nameRef }: ClassificationFormProps) {
  const [nome, setNome] = useState(editing?.nome ?? '');
  const [descricao, setDescricao] = useState(editing?.descricao ?? '');
  const [ativo, setAtivo] = useState(editing?.ativo ?? true);
  const [touched, setTouched] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const create = useCreateClassification();
  const update = useUpdateClassification();

  const saving = create.isPending || update.isPending;
  const nameMissing = nome.trim() === '';
  const showNameError = touched && nameMissing;
  const prefix = editing ? `classificacao-${editing.id}` : 'classificacao-nova';

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    if (nameMissing || saving) return;
    setSaveError(null);
    const body = { nome: nome.trim(), descricao: descricao.trim() || null };
    try {
      if (editing) {
        await update.mutateAsync({ id: editing.id, body: { ...body, ativo } });
        onClose();
      } else {
        await create.mutateAsync(body);
        setNome('');
        setDescricao('');
        setTouched(false);
      }
    } catch (error) {
      setSaveError(errorMessage(error, SAVE_ERROR));
    }
  }

  return (
    <Card className="shadow-sm">
      <Card.Header className="bg-white py-3">
        <Card.Title as="h2" className="h5 mb-0">
          {editing ? 'Editar Classificação' : 'Nova Classificação'}
        </Card.Title>
      </Card.Header>
      <Card.Body>
        <Form noValidate onSubmit={(event) => void handleSubmit(event)}>
          <Form.Group className="mb-3" controlId={`${prefix}-nome`}>
            <Form.Label>Nome</Form.Label>
            <Form.Control
              ref={nameRef}
              value={nome}
              onChange={(event) => {
                setNome(event.target.value);
                setTouched(true);
              }}
              onBlur={() => setTouched(true)}
              isInvalid={showNameError}
              aria-invalid={showNameError}
              aria-describedby={showNameError ? `${prefix}-nome-erro` : undefined}
              maxLength={NOME_MAX}
              required
              autoComplete="off"
            />
            {showNameError && (
              <Form.Control.Feedback type="invalid" id={`${prefix}-nome-erro`}>
                {NAME_REQUIRED}
              </Form.Control.Feedback>
            )}
          </Form.Group>
          <Form.Group className="mb-3" controlId={`${prefix}-descricao`}>
            <Form.Label>Descrição</Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              value={descricao}
              onChange={(event) => setDescricao(event.target.value)}
              maxLength={DESCRICAO_MAX}
            />
          </Form.Group>
          {editing && (
            <Form.Check
              type="switch"
              id={`${prefix}-ativo`}
              className="mb-3"
              label="Ativo"
              checked={ativo}
              onChange={(event) => setAtivo(event.target.checked)}
            />
          )}
          {saveError && (
            <Alert variant="danger" className="py-2">
              {saveError}
            </Alert>
          )}
          <div className="d-flex flex-wrap gap-2">
            <BusyButton type="submit" variant="primary" busy={saving} disabled={nameMissing}>
              {editing ? 'Atualizar Classificação' : 'Criar Classificação'}
            </BusyButton>
            {editing && (
              <Button variant="outline-secondary" onClick={onClose} disabled={saving}>
                Cancelar
              </Button>
            )}
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}
