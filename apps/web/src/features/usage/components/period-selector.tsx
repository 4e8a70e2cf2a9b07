import { PERIODOS_USO, type PeriodoUso } from '@paineis/contract/usage-audit-constants';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';

/** The period every part of '/uso' covers: 7, 30 or 90 days (docs/requirements.md#usage). */
export function PeriodSelector({ value, onChange }: { value: PeriodoUso; onChange: (dias: PeriodoUso) => void }) {
  return (
    <ToggleButtonGroup type="radio" name="periodo-uso" value={value} onChange={onChange} aria-label="Período">
      {PERIODOS_USO.map((dias) => (
        <ToggleButton key={dias} id={`periodo-uso-${dias}`} value={dias} variant="outline-primary">
          {dias} dias
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
