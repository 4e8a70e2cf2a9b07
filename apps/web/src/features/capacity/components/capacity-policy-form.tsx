import { useId, useState, type FormEvent } from 'react';
import type { PoliticaCapacidade } from '@paineis/contract/capacity';
import { MAX_FAIXAS, QUEM_RETOMA, type TipoCapacidade } from '@paineis/contract/capacity-constants';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import '../capacity.scss';
import { BusyButton } from '../../../components/busy-button.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useUpdateCapacityPolicy } from '../api/update-capacity-policy.ts';
import { DIAS_SEMANA, NOMES_QUEM_RETOMA, SKUS } from '../utils/capacity-labels.ts';
import {
  hasErrors,
  newKey,
  toForm,
  toPolicy,
  validate,
  type FaixaForm,
  type PolicyForm,
  type PrecoForm,
} from '../utils/policy-form.ts';

export const POLICY_SAVE_ERROR = 'Erro ao salvar a política.';
export const POLICY_SAVED = 'Política salva.';
const CONTATO_MAX = 200;

interface CapacityPolicyFormProps {
  politica: PoliticaCapacidade;
  /** The capacity's kind: the SKUs offered are its own. */
  tipo: TipoCapacidade | null;
}

/**
 * The policy editor: working hours per weekday in a time zone, the idle pause, who may wake the capacity by opening a
 * panel, the prices of the estimate, a SKU for working hours and the contact the viewer names. It starts from the
 * policy the screen first read; a later refetch does not overwrite what is being typed (remount, by key, to reset).
 */
export function CapacityPolicyForm({ politica, tipo }: CapacityPolicyFormProps) {
  const titleId = useId();
  const [form, setForm] = useState<PolicyForm>(() => toForm(politica));
  const [submitted, setSubmitted] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const update = useUpdateCapacityPolicy();
  const errors = validate(form);
  const show = submitted ? errors : { faixas: {}, precos: {} };
  const skus = tipo ? SKUS[tipo] : [...SKUS.embedded, ...SKUS.fabric];

  const change = (patch: Partial<PolicyForm>) => {
    setSaved(false);
    setForm((current) => ({ ...current, ...patch }));
  };
  const changeFaixa = (key: number, patch: Partial<FaixaForm>) =>
    change({ horario: form.horario.map((f) => (f.key === key ? { ...f, ...patch } : f)) });
  const changePreco = (key: number, patch: Partial<PrecoForm>) =>
    change({ precos: form.precos.map((p) => (p.key === key ? { ...p, ...patch } : p)) });
  const addFaixa = () => {
    // The day after the last stretch's, with its hours: filling in a week is a few clicks.
    const last = form.horario.at(-1);
    const faixa = last
      ? { diaSemana: (last.diaSemana + 1) % 7, inicio: last.inicio, fim: last.fim }
      : { diaSemana: 1, inicio: '08:00', fim: '18:00' };
    change({ horario: [...form.horario, { key: newKey(), ...faixa }] });
  };
  const addPreco = () => {
    const used = new Set(form.precos.map((p) => p.sku));
    change({ precos: [...form.precos, { key: newKey(), sku: skus.find((s) => !used.has(s)) ?? '', preco: '' }] });
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    setSaved(false);
    if (hasErrors(errors) || update.isPending) return;
    setSaveError(null);
    try {
      await update.mutateAsync(toPolicy(form));
      setSaved(true);
    } catch (error) {
      setSaveError(errorMessage(error, POLICY_SAVE_ERROR));
    }
  }

  return (
    <Card as="section" aria-labelledby={titleId} className="shadow-sm">
      <Card.Header className="bg-body py-3">
        <h2 id={titleId} className="h6 mb-0">
          Política
        </h2>
      </Card.Header>
      <Card.Body>
        <Form noValidate onSubmit={(event) => void handleSubmit(event)}>
          <fieldset className="mb-4">
            <legend className="fs-6 fw-semibold">Horário de uso</legend>
            <p className="small text-body-secondary">
              Nestas faixas a capacidade fica ativa; fora delas ela é pausada, a menos que alguém a retome.
            </p>
            {form.horario.length === 0 && (
              <p className="small text-body-secondary">Nenhuma faixa: a capacidade não é ligada por horário.</p>
            )}
            {form.horario.map((f, i) => {
              const error = show.faixas[f.key];
              const errorId = `faixa-${f.key}-erro`;
              const n = i + 1;
              return (
                <div key={f.key} className="mb-2">
                  <div className="faixa-horario">
                    <div className="faixa-dia">
                      <Form.Label htmlFor={`faixa-${f.key}-dia`} className="small mb-1">
                        Dia da faixa {n}
                      </Form.Label>
                      <Form.Select
                        id={`faixa-${f.key}-dia`}
                        value={f.diaSemana}
                        onChange={(event) => changeFaixa(f.key, { diaSemana: Number(event.target.value) })}
                      >
                        {DIAS_SEMANA.map((dia, d) => (
                          <option key={dia} value={d}>
                            {dia}
                          </option>
                        ))}
                      </Form.Select>
                    </div>
                    <div className="faixa-inicio">
                      <Form.Label htmlFor={`faixa-${f.key}-inicio`} className="small mb-1">
                        Início da faixa {n}
                      </Form.Label>
                      <Form.Control
                        id={`faixa-${f.key}-inicio`}
                        type="time"
                        value={f.inicio}
                        isInvalid={Boolean(error)}
                        aria-invalid={Boolean(error)}
                        aria-describedby={error ? errorId : undefined}
                        onChange={(event) => changeFaixa(f.key, { inicio: event.target.value })}
                      />
                    </div>
                    <div className="faixa-fim">
                      <Form.Label htmlFor={`faixa-${f.key}-fim`} className="small mb-1">
                        Fim da faixa {n}
                      </Form.Label>
                      <Form.Control
                        id={`faixa-${f.key}-fim`}
                        type="time"
                        value={f.fim}
                        isInvalid={Boolean(error)}
                        aria-invalid={Boolean(error)}
                        aria-describedby={error ? errorId : undefined}
                        onChange={(event) => changeFaixa(f.key, { fim: event.target.value })}
                      />
                    </div>
                    <div className="faixa-remover">
                      <Button
                        variant="outline-danger"
                        aria-label={`Remover faixa ${n}`}
                        title={`Remover faixa ${n}`}
                        onClick={() => change({ horario: form.horario.filter((x) => x.key !== f.key) })}
                      >
                        ✕
                      </Button>
                    </div>
                  </div>
                  {error && (
                    <div id={errorId} className="invalid-feedback d-block">
                      {error}
                    </div>
                  )}
                </div>
              );
            })}
            {show.horario && <div className="invalid-feedback d-block">{show.horario}</div>}
            <Button
              variant="outline-primary"
              size="sm"
              className="mt-1"
              disabled={form.horario.length >= MAX_FAIXAS}
              onClick={addFaixa}
            >
              Adicionar faixa
            </Button>
          </fieldset>

          <Row className="g-3 mb-4">
            <Col md={6}>
              <Form.Group controlId="politica-fuso">
                <Form.Label>Fuso horário</Form.Label>
                <Form.Control
                  value={form.fusoHorario}
                  placeholder="America/Sao_Paulo"
                  autoComplete="off"
                  isInvalid={Boolean(show.fusoHorario)}
                  aria-invalid={Boolean(show.fusoHorario)}
                  aria-describedby={show.fusoHorario ? 'politica-fuso-erro' : undefined}
                  onChange={(event) => change({ fusoHorario: event.target.value })}
                />
                {show.fusoHorario && (
                  <Form.Control.Feedback type="invalid" id="politica-fuso-erro">
                    {show.fusoHorario}
                  </Form.Control.Feedback>
                )}
              </Form.Group>
            </Col>
            <Col md={6}>
              <Form.Group controlId="politica-ocioso">
                <Form.Label>Pausar após minutos sem uso</Form.Label>
                <Form.Control
                  type="number"
                  inputMode="numeric"
                  min={5}
                  step={1}
                  value={form.minutosOcioso}
                  isInvalid={Boolean(show.minutosOcioso)}
                  aria-invalid={Boolean(show.minutosOcioso)}
                  aria-describedby={show.minutosOcioso ? 'politica-ocioso-erro' : 'politica-ocioso-ajuda'}
                  onChange={(event) => change({ minutosOcioso: event.target.value })}
                />
                {show.minutosOcioso ? (
                  <Form.Control.Feedback type="invalid" id="politica-ocioso-erro">
                    {show.minutosOcioso}
                  </Form.Control.Feedback>
                ) : (
                  <Form.Text id="politica-ocioso-ajuda">
                    Sem abertura, exportação ou envio. Vazio: nunca pausar por ociosidade.
                  </Form.Text>
                )}
              </Form.Group>
            </Col>
          </Row>

          <fieldset className="mb-4">
            <legend className="fs-6 fw-semibold">Quem pode retomar ao abrir um painel</legend>
            {QUEM_RETOMA.map((q) => (
              <Form.Check
                key={q}
                type="radio"
                inline
                id={`politica-quem-${q}`}
                name="quemRetomaAoAbrir"
                label={NOMES_QUEM_RETOMA[q]}
                checked={form.quemRetomaAoAbrir === q}
                onChange={() => change({ quemRetomaAoAbrir: q })}
              />
            ))}
          </fieldset>

          <fieldset className="mb-4">
            <legend className="fs-6 fw-semibold">Preço por hora de cada SKU</legend>
            <p className="small text-body-secondary">Na moeda da organização, para a estimativa de custo.</p>
            {form.precos.map((p, i) => {
              const error = show.precos[p.key];
              const errorId = `preco-${p.key}-erro`;
              const n = i + 1;
              const options = p.sku && !skus.includes(p.sku) ? [p.sku, ...skus] : skus;
              return (
                <div key={p.key} className="mb-2">
                  <Row className="g-2 align-items-end">
                    <Col xs sm={4}>
                      <Form.Label htmlFor={`preco-${p.key}-sku`} className="small mb-1">
                        SKU do preço {n}
                      </Form.Label>
                      <Form.Select
                        id={`preco-${p.key}-sku`}
                        value={p.sku}
                        isInvalid={Boolean(error)}
                        aria-invalid={Boolean(error)}
                        onChange={(event) => changePreco(p.key, { sku: event.target.value })}
                      >
                        {options.map((s) => (
                          <option key={s} value={s}>
                            {s}
                          </option>
                        ))}
                      </Form.Select>
                    </Col>
                    <Col xs sm={4}>
                      <Form.Label htmlFor={`preco-${p.key}-valor`} className="small mb-1">
                        Preço por hora {n}
                      </Form.Label>
                      <Form.Control
                        id={`preco-${p.key}-valor`}
                        inputMode="decimal"
                        value={p.preco}
                        isInvalid={Boolean(error)}
                        aria-invalid={Boolean(error)}
                        aria-describedby={error ? errorId : undefined}
                        onChange={(event) => changePreco(p.key, { preco: event.target.value })}
                      />
                    </Col>
                    <Col xs="auto">
                      <Button
                        variant="outline-danger"
                        aria-label={`Remover preço ${n}`}
                        title={`Remover preço ${n}`}
                        onClick={() => change({ precos: form.precos.filter((x) => x.key !== p.key) })}
                      >
                        ✕
                      </Button>
                    </Col>
                  </Row>
                  {error && (
                    <div id={errorId} className="invalid-feedback d-block">
                      {error}
                    </div>
                  )}
                </div>
              );
            })}
            <Button variant="outline-primary" size="sm" className="mt-1" onClick={addPreco}>
              Adicionar preço
            </Button>
          </fieldset>

          <Row className="g-3 mb-4">
            <Col md={6}>
              <Form.Group controlId="politica-sku-horario">
                <Form.Label>SKU no horário de uso</Form.Label>
                <Form.Select
                  value={form.skuHorario}
                  isInvalid={Boolean(show.skuHorario)}
                  aria-invalid={Boolean(show.skuHorario)}
                  onChange={(event) => change({ skuHorario: event.target.value })}
                >
                  <option value="">O mesmo SKU sempre</option>
                  {(form.skuHorario && !skus.includes(form.skuHorario) ? [form.skuHorario, ...skus] : skus).map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </Form.Select>
                <Form.Text>Fora do horário a capacidade volta ao seu SKU.</Form.Text>
                {show.skuHorario && <Form.Control.Feedback type="invalid">{show.skuHorario}</Form.Control.Feedback>}
              </Form.Group>
            </Col>
            <Col md={6}>
              <Form.Group controlId="politica-contato">
                <Form.Label>Contato</Form.Label>
                <Form.Control
                  value={form.contato}
                  maxLength={CONTATO_MAX}
                  placeholder="a equipe de BI (bi@empresa.com.br)"
                  onChange={(event) => change({ contato: event.target.value })}
                />
                <Form.Text>Quem o visualizador indica quando os relatórios estão pausados.</Form.Text>
              </Form.Group>
            </Col>
          </Row>

          {saveError && (
            <Alert variant="danger" className="py-2">
              {saveError}
            </Alert>
          )}
          <div className="d-flex flex-wrap align-items-center gap-3">
            <BusyButton type="submit" variant="primary" busy={update.isPending}>
              Salvar política
            </BusyButton>
            <span role="status" className="small text-success">
              {saved ? POLICY_SAVED : ''}
            </span>
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}
