import { useMemo } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Row from 'react-bootstrap/Row';
import {
  DIAS_SEMANA,
  FREQUENCIA_ROTULOS,
  FREQUENCIAS,
  MAX_DIA_MES,
  MAX_INTERVALO_HORAS,
  type FormatoAssinatura,
  type Frequencia,
} from '@paineis/contract/subscription-constants';
import {
  BAD_HOUR,
  BAD_INTERVAL,
  FORMATO_ROTULOS,
  PORTAL_ZONE,
  timeZoneChoices,
  type ScheduleValue,
} from '../utils/subscription-schedule.ts';

const MONTH_DAYS = Array.from({ length: MAX_DIA_MES }, (_, i) => i + 1);

interface SubscriptionScheduleFieldsProps {
  value: ScheduleValue;
  onChange: (value: ScheduleValue) => void;
  /** Prefixes the fields' ids, unique in the page. */
  idPrefix: string;
  /** The form was sent with an incomplete hour. */
  badHour: boolean;
  /** The form was sent with a quiet window out of bounds ('Enviar no máximo uma vez a cada N horas'). */
  badInterval?: boolean;
  /**
   * The zone of the subscription edited: listed after the browser's, and 'Padrão do portal' is not offered (sending
   * nothing would change nothing). Without it (a new subscription), 'Padrão do portal' comes first.
   */
  storedZone?: string | undefined;
  /** 'Formato' takes the focus (the dialog's first field). */
  autoFocus?: boolean;
}

/** The quiet window's field, named for screen readers (its visible words are the checkbox's and 'horas'). */
export const INTERVAL_LABEL = 'Intervalo mínimo entre envios, em horas';
export const LIMIT_LABEL = 'Enviar no máximo uma vez a cada';

/**
 * A subscription's schedule: 'Formato', 'Frequência', 'Dia da semana' or 'Dia do mês', 'Hora' and 'Fuso horário', as
 * the viewer's dialog and the administrators' 'Nova assinatura' both ask it. 'Após cada atualização dos dados' has no
 * day nor hour, and asks instead whether to send at most once every so many hours.
 */
export function SubscriptionScheduleFields({
  value,
  onChange,
  idPrefix,
  badHour,
  badInterval = false,
  storedZone,
  autoFocus = false,
}: SubscriptionScheduleFieldsProps) {
  const zones = useMemo(() => timeZoneChoices(storedZone), [storedZone]);
  const set = <K extends keyof ScheduleValue>(key: K, field: ScheduleValue[K]) => onChange({ ...value, [key]: field });
  const afterRefresh = value.frequencia === 'apos-atualizacao';
  const intervalId = `${idPrefix}-intervalo`;
  return (
    <Row className="g-3">
      <Form.Group as={Col} sm={6} controlId={`${idPrefix}-formato`}>
        <Form.Label>Formato</Form.Label>
        <Form.Select
          autoFocus={autoFocus}
          value={value.formato}
          onChange={(e) => set('formato', e.target.value as FormatoAssinatura)}
        >
          {Object.entries(FORMATO_ROTULOS).map(([formato, label]) => (
            <option key={formato} value={formato}>
              {label}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group as={Col} sm={6} controlId={`${idPrefix}-frequencia`}>
        <Form.Label>Frequência</Form.Label>
        <Form.Select value={value.frequencia} onChange={(e) => set('frequencia', e.target.value as Frequencia)}>
          {FREQUENCIAS.map((f) => (
            <option key={f} value={f}>
              {FREQUENCIA_ROTULOS[f]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      {value.frequencia === 'semanal' && (
        <Form.Group as={Col} sm={6} controlId={`${idPrefix}-dia-semana`}>
          <Form.Label>Dia da semana</Form.Label>
          <Form.Select value={value.diaSemana} onChange={(e) => set('diaSemana', Number(e.target.value))}>
            {Object.entries(DIAS_SEMANA).map(([day, name]) => (
              <option key={day} value={day}>
                {name}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      )}
      {value.frequencia === 'mensal' && (
        <Form.Group as={Col} sm={6} controlId={`${idPrefix}-dia-mes`}>
          <Form.Label>Dia do mês</Form.Label>
          <Form.Select value={value.diaMes} onChange={(e) => set('diaMes', Number(e.target.value))}>
            {MONTH_DAYS.map((day) => (
              <option key={day} value={day}>
                {day}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      )}
      {!afterRefresh && (
        <Form.Group as={Col} sm={6} controlId={`${idPrefix}-hora`}>
          <Form.Label>Hora</Form.Label>
          <Form.Control
            type="time"
            step={60}
            required
            isInvalid={badHour}
            value={value.hora}
            onChange={(e) => set('hora', e.target.value)}
          />
          <Form.Control.Feedback type="invalid">{BAD_HOUR}</Form.Control.Feedback>
        </Form.Group>
      )}
      {afterRefresh && (
        <Col xs={12}>
          <div className="d-flex flex-wrap align-items-center column-gap-2 row-gap-1">
            <Form.Check
              type="checkbox"
              id={`${idPrefix}-limitar`}
              className="mb-0"
              label={LIMIT_LABEL}
              checked={value.limitarIntervalo}
              onChange={(e) => set('limitarIntervalo', e.target.checked)}
            />
            <InputGroup size="sm" className="flex-nowrap w-auto">
              <Form.Control
                id={intervalId}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_INTERVALO_HORAS}
                step={1}
                style={{ width: '5rem' }}
                aria-label={INTERVAL_LABEL}
                aria-describedby={badInterval ? `${intervalId}-erro` : undefined}
                disabled={!value.limitarIntervalo}
                isInvalid={badInterval}
                value={value.intervaloHoras}
                onChange={(e) => set('intervaloHoras', e.target.value)}
              />
              <InputGroup.Text>horas</InputGroup.Text>
            </InputGroup>
          </div>
          {badInterval && (
            <div className="invalid-feedback d-block" id={`${intervalId}-erro`}>
              {BAD_INTERVAL}
            </div>
          )}
          <Form.Text>Enviada a cada atualização concluída dos dados do painel.</Form.Text>
        </Col>
      )}
      {/* Beside 'Hora' when no day takes that place; otherwise a line of its own, where a long zone name fits. */}
      <Form.Group as={Col} sm={value.frequencia === 'diaria' ? 6 : 12} controlId={`${idPrefix}-fuso`}>
        <Form.Label>Fuso horário</Form.Label>
        <Form.Select value={value.fusoHorario} onChange={(e) => set('fusoHorario', e.target.value)}>
          {storedZone === undefined && <option value="">{PORTAL_ZONE}</option>}
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
    </Row>
  );
}
