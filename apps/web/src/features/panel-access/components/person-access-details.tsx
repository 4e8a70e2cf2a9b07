import { Fragment, useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import type { AcessoPessoa } from '@paineis/contract/groups';
import { LoadErrorAlert } from '../../../components/load-error-alert.tsx';
import { LoadingSpinner } from '../../../components/loading-spinner.tsx';
import { PublicGroupBadge } from '../../../components/public-group-badge.tsx';
import { errorMessage, statusOf } from '../../../lib/api-client.ts';
import { usePersonAccess } from '../api/get-person-access.ts';
import { reasonText } from '../utils/access-reasons.ts';
import { IgnoredGroups } from './ignored-groups.tsx';

export const PERSON_ACCESS_LOAD_ERROR = 'Erro ao carregar os acessos da pessoa';

type PanelOfPerson = AcessoPessoa['paineis'][number];

/** The chosen person: who they are, the panels they may open and why, and why not the others. */
export function PersonAccessDetails({ pessoaId }: { pessoaId: string }) {
  const access = usePersonAccess(pessoaId);
  if (access.isError) {
    // An unknown person (a link to someone no longer in the directory): the server's own message.
    if (statusOf(access.error) === 404) {
      return <Alert variant="warning">{errorMessage(access.error, PERSON_ACCESS_LOAD_ERROR)}</Alert>;
    }
    return (
      <LoadErrorAlert
        message={errorMessage(access.error, PERSON_ACCESS_LOAD_ERROR)}
        retryDisabled={access.isFetching}
        onRetry={() => void access.refetch()}
      />
    );
  }
  if (!access.data) return <LoadingSpinner />;

  const { pessoa, paineis } = access.data;
  const openable = paineis.filter((p) => p.podeAbrir);
  const refused = paineis.filter((p) => !p.podeAbrir);
  return (
    <>
      <Card className="shadow-sm mb-4">
        <Card.Body>
          <div className="d-flex flex-wrap align-items-center gap-2">
            <h2 className="h4 mb-0 text-break">{pessoa.nome}</h2>
            {pessoa.administrador && <Badge bg="primary">Administrador</Badge>}
            {!pessoa.ativo && <Badge bg="secondary">Desativado</Badge>}
          </div>
          <div className="text-body-secondary text-break">{pessoa.email}</div>
        </Card.Body>
      </Card>
      <OpenablePanels paineis={openable} />
      <RefusedPanels key={pessoa.id} paineis={refused} />
    </>
  );
}

type Reason = PanelOfPerson['motivos'][number];

/** A reason in words, a public group marked. */
function ReasonText({ motivo }: { motivo: Reason }) {
  return (
    <>
      {reasonText(motivo)}
      {motivo.grupo?.publico && (
        <>
          {' '}
          <PublicGroupBadge />
        </>
      )}
    </>
  );
}

function Reasons({ motivos }: { motivos: Reason[] }) {
  return (
    <>
      {motivos.map((motivo, index) => (
        <div key={index}>
          <ReasonText motivo={motivo} />
        </div>
      ))}
    </>
  );
}

function OpenablePanels({ paineis }: { paineis: PanelOfPerson[] }) {
  const titleId = useId();
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby={titleId}>
      <Card.Header className="bg-body py-3">
        <h3 id={titleId} className="h5 mb-0">
          Painéis que pode abrir ({paineis.length})
        </h3>
      </Card.Header>
      {paineis.length === 0 ? (
        <Card.Body className="text-body-secondary">Nenhum painel.</Card.Body>
      ) : (
        // On a phone the table scrolls sideways rather than breaking every name into syllables; the scrolling box
        // takes the focus, so that it can be scrolled from the keyboard.
        <div className="table-responsive" tabIndex={0} role="group" aria-labelledby={titleId}>
          <Table className="mb-0 align-top" style={{ minWidth: 600 }} aria-labelledby={titleId}>
            <thead>
              <tr>
                <th scope="col">Painel</th>
                <th scope="col">Motivo</th>
                <th scope="col">Papéis RLS</th>
              </tr>
            </thead>
            <tbody>
              {paineis.map((painel) => (
                <tr key={painel.painelId}>
                  <td className="fw-medium">{painel.nomePainel}</td>
                  <td>
                    <Reasons motivos={painel.motivos} />
                    <IgnoredGroups grupos={painel.gruposSemEfeito} className="mt-1" />
                  </td>
                  <td>
                    {painel.papeisRls.length === 0 ? (
                      <span className="text-body-secondary">—</span>
                    ) : (
                      <ul className="list-unstyled mb-0">
                        {painel.papeisRls.map((role) => (
                          <li key={role.papel}>
                            <span className="fw-medium">{role.papel}</span>
                            <span className="text-body-secondary">
                              :{' '}
                              {role.motivos.map((motivo, index) => (
                                <Fragment key={index}>
                                  {index > 0 && '; '}
                                  <ReasonText motivo={motivo} />
                                </Fragment>
                              ))}
                            </span>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
    </Card>
  );
}

function RefusedPanels({ paineis }: { paineis: PanelOfPerson[] }) {
  const titleId = useId();
  const selectId = useId();
  const [chosenId, setChosenId] = useState<number | null>(null);
  const chosen = paineis.find((p) => p.painelId === chosenId);
  return (
    <Card as="section" className="shadow-sm mb-4" aria-labelledby={titleId}>
      <Card.Header className="bg-body py-3">
        <h3 id={titleId} className="h5 mb-0">
          Painéis que não pode abrir ({paineis.length})
        </h3>
      </Card.Header>
      <Card.Body>
        {paineis.length === 0 ? (
          <p className="text-body-secondary mb-0">Nenhum: esta pessoa pode abrir todos os painéis.</p>
        ) : (
          <>
            <Form.Label htmlFor={selectId}>Por que não pode abrir…</Form.Label>
            <Form.Select
              id={selectId}
              value={chosenId ?? ''}
              onChange={(event) => setChosenId(event.target.value ? Number(event.target.value) : null)}
            >
              <option value="">Escolha um painel</option>
              {paineis.map((painel) => (
                <option key={painel.painelId} value={painel.painelId}>
                  {painel.nomePainel}
                </option>
              ))}
            </Form.Select>
            {chosen && (
              <Alert variant="secondary" className="mt-3 mb-0" aria-live="polite">
                <span className="fw-semibold">{chosen.nomePainel}:</span> {chosen.recusa}
              </Alert>
            )}
          </>
        )}
      </Card.Body>
    </Card>
  );
}
