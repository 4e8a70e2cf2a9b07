import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { ClassificacaoAdmin } from '@paineis/contract/classifications';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { BusyButton } from '../../../components/busy-button.tsx';
// This screen is a chunk of its own already: the dialog comes with it rather than on first use.
import ConfirmDialog from '../../../components/confirm-dialog-modal.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage, statusOf } from '../../../lib/api-client.ts';
import { useDeleteClassification } from '../api/delete-classification.ts';
import { useAdminClassifications } from '../api/get-admin-classifications.ts';
import { ClassificationForm } from './classification-form.tsx';
import { ClassificationsTable } from './classifications-table.tsx';
import { formatInteger } from '../../../lib/format.ts';

export const LOAD_ERROR = 'Erro ao carregar classificações';
export const DELETE_ERROR = 'Erro ao excluir classificação';

export function deleteConfirmation({ nome, quantidadePaineis }: ClassificacaoAdmin): string {
  const question = `Tem certeza que deseja excluir a classificação "${nome}"?`;
  if (quantidadePaineis === 0) return `${question} Esta ação não pode ser desfeita.`;
  const panels =
    quantidadePaineis === 1 ? 'O painel dela ficará' : `Os ${formatInteger(quantidadePaineis)} painéis dela ficarão`;
  return `${question} ${panels} em "Sem Classificação". Esta ação não pode ser desfeita.`;
}

/**
 * /classificacoes: 'Gerenciar Classificações' (docs/requirements.md#screen-classifications). Admin only (the route
 * guards it).
 */
export function ClassificationsPage() {
  const { data: classificacoes, error, isPending, isFetching, refetch } = useAdminClassifications();
  const deleteClassification = useDeleteClassification();
  const [editing, setEditing] = useState<ClassificacaoAdmin | null>(null);
  const [toDelete, setToDelete] = useState<ClassificacaoAdmin | null>(null);
  // Separate from toDelete so the dialog keeps its text while it fades out.
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  // Entering edit mode moves focus (and, on a phone, the screen) to the form below the table.
  useEffect(() => {
    if (editing) nameRef.current?.focus();
  }, [editing]);

  const closeForm = (id: number | undefined) =>
    // Only the edit that was saved or cancelled ends, not one the user started meanwhile.
    setEditing((current) => (current?.id === id ? null : current));

  async function confirmDelete() {
    if (!toDelete) return;
    setDeleteError(null);
    try {
      await deleteClassification.mutateAsync(toDelete.id);
      if (editing?.id === toDelete.id) setEditing(null);
    } catch (e) {
      setDeleteError(errorMessage(e, DELETE_ERROR));
      // Already gone (another admin): show the list as it is now.
      if (statusOf(e) === 404) void refetch();
    } finally {
      setConfirming(false);
    }
  }

  return (
    <Container fluid="xl" className="py-4">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-4">
        <h1 className="h3 mb-0 d-flex align-items-center gap-2">
          Gerenciar Classificações{' '}
          {classificacoes && (
            <Badge bg="primary" pill className="fs-6 fw-semibold">
              {formatInteger(classificacoes.length)}
            </Badge>
          )}
        </h1>
        <Link to={paths.home} className="btn btn-outline-secondary">
          ← Voltar
        </Link>
      </div>

      {deleteError && (
        <Alert variant="danger" dismissible closeLabel="Fechar" onClose={() => setDeleteError(null)}>
          {deleteError}
        </Alert>
      )}

      <Row className="g-4">
        <Col lg={8}>
          <Card className="shadow-sm">
            {isPending ? (
              <Card.Body className="d-flex justify-content-center py-5">
                <Spinner animation="border" variant="primary" role="status">
                  <span className="visually-hidden">Carregando...</span>
                </Spinner>
              </Card.Body>
            ) : error ? (
              <Card.Body>
                <Alert variant="danger">{errorMessage(error, LOAD_ERROR)}</Alert>
                <BusyButton variant="outline-primary" onClick={() => void refetch()} busy={isFetching}>
                  Tentar novamente
                </BusyButton>
              </Card.Body>
            ) : classificacoes.length === 0 ? (
              <Card.Body className="text-center py-5">
                <p className="text-body-secondary mb-3">Nenhuma classificação cadastrada.</p>
                <Button variant="primary" onClick={() => nameRef.current?.focus()}>
                  Criar Primeira Classificação
                </Button>
              </Card.Body>
            ) : (
              <ClassificationsTable
                classificacoes={classificacoes}
                editingId={editing?.id ?? null}
                onEdit={setEditing}
                onDelete={(c) => {
                  setDeleteError(null);
                  setToDelete(c);
                  setConfirming(true);
                }}
              />
            )}
          </Card>
        </Col>
        <Col lg={4}>
          <ClassificationForm
            key={editing?.id ?? 'nova'}
            editing={editing}
            onClose={() => closeForm(editing?.id)}
            nameRef={nameRef}
          />
        </Col>
      </Row>

      <ConfirmDialog
        show={confirming}
        title="Excluir Classificação"
        message={toDelete ? deleteConfirmation(toDelete) : ''}
        confirmLabel="Excluir"
        variant="danger"
        busy={deleteClassification.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(false)}
      />
    </Container>
  );
}
