import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import {
  DIAS_SEMANA,
  FREQUENCIA_ROTULOS,
  FREQUENCIAS,
  MAX_DIA_MES,
  type FormatoAssinatura,
  type Frequencia,
} from '@paineis/contract/subscription-constants';
import { browserTimeZone } from '../../../lib/subscription-schedule.ts';

/** The schedule as the form holds it: both days kept, so switching the frequency back and forth loses neither. */
export interface ScheduleValue {
  formato: FormatoAssinatura;
  frequencia: Frequencia;
  /** ISO weekday, 1 (Monday) to 7 (Sunday); sent for 'semanal' only. */
  diaSemana: number;
  /** 1 to MAX_DIA_MES; sent for 'mensal' only. */
  diaMes: number;
  hora: string;
  /** An IANA zone; '' is 'Padrão do portal' (the server's USAGE_TIME_ZONE). */
  fusoHorario: string;
}

export const DEFAULT_SCHEDULE: ScheduleValue = {
  formato: 'PDF',
  frequencia: 'semanal',
  diaSemana: 1,
  diaMes: 1,
  hora: '07:00',
  fusoHorario: '',
};

/** The schedule's part of POST /assinaturas: only the day its frequency needs, no zone for the portal's. */
export function scheduleBody({ formato, frequencia, diaSemana, diaMes, hora, fusoHorario }: ScheduleValue) {
  return {
    formato,
    frequencia,
    hora,
    ...(frequencia === 'semanal' && { diaSemana }),
    ...(frequencia === 'mensal' && { diaMes }),
    ...(fusoHorario && { fusoHorario }),
  };
}

const FORMATOS: { value: FormatoAssinatura; label: string }[] = [
  { value: 'PDF', label: 'PDF' },
  { value: 'PPTX', label: 'PowerPoint' },
];

/** What 'Hora' must hold; the time field gives it, or nothing while it is incomplete. */
const HOUR = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
export const BAD_HOUR = 'Informe a hora no formato HH:MM.';

/** Whether the schedule may be sent: the hour is complete (everything else is a choice from a list). */
export const validHour = (value: ScheduleValue) => HOUR.test(value.hora);

let zones: string[] | undefined;
/**
 * The IANA zones this browser knows, its own first, as the viewer's dialog lists them (the server refuses a zone it
 * does not know with its own message).
 */
function timeZones(): string[] {
  if (!zones) {
    const own = browserTimeZone();
    const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    zones = [own, ...known.filter((zone) => zone !== own)];
  }
  return zones;
}

interface ScheduleFieldsProps {
  value: ScheduleValue;
  onChange: (value: ScheduleValue) => void;
  /** Prefixes the fields' ids, unique in the page. */
  idPrefix: string;
  /** The form was sent with an incomplete hour. */
  badHour: boolean;
}

/** 'Formato', 'Frequência', 'Dia da semana' or 'Dia do mês', 'Hora' and 'Fuso horário'. */
export function ScheduleFields({ value, onChange, idPrefix, badHour }: ScheduleFieldsProps) {
  const set = <K extends keyof ScheduleValue>(key: K, field: ScheduleValue[K]) => onChange({ ...value, [key]: field });
  return (
    <Row className="g-3">
      <Form.Group as={Col} sm={6} controlId={`${idPrefix}-formato`}>
        <Form.Label>Formato</Form.Label>
        <Form.Select value={value.formato} onChange={(e) => set('formato', e.target.value as FormatoAssinatura)}>
          {FORMATOS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
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
            {Array.from({ length: MAX_DIA_MES }, (_, i) => i + 1).map((day) => (
              <option key={day} value={day}>
                {day}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      )}
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
      <Form.Group as={Col} sm={value.frequencia === 'diaria' ? 6 : 12} controlId={`${idPrefix}-fuso`}>
        <Form.Label>Fuso horário</Form.Label>
        <Form.Select value={value.fusoHorario} onChange={(e) => set('fusoHorario', e.target.value)}>
          <option value="">Padrão do portal</option>
          {timeZones().map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
    </Row>
  );
}
