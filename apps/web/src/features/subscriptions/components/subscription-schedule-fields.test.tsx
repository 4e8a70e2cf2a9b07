import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { browserTimeZone, DEFAULT_SCHEDULE, type ScheduleValue } from '../utils/subscription-schedule.ts';
import { SubscriptionScheduleFields } from './subscription-schedule-fields.tsx';

/** The fields as a form holds them; every value they hand back is recorded. */
function renderFields(props: { initial?: ScheduleValue; storedZone?: string; badHour?: boolean } = {}) {
  const changes = vi.fn<(value: ScheduleValue) => void>();
  function Form() {
    const [value, setValue] = useState(props.initial ?? DEFAULT_SCHEDULE);
    return (
      <SubscriptionScheduleFields
        value={value}
        onChange={(next) => {
          changes(next);
          setValue(next);
        }}
        idPrefix="teste"
        badHour={props.badHour ?? false}
        storedZone={props.storedZone}
      />
    );
  }
  render(<Form />);
  return { user: userEvent.setup(), changes };
}

const field = (name: string) => screen.getByLabelText(name);

describe('SubscriptionScheduleFields', () => {
  it('keeps both days while the frequency goes back and forth', async () => {
    const { user, changes } = renderFields();
    await user.selectOptions(field('Dia da semana'), 'sexta-feira');
    await user.selectOptions(field('Frequência'), 'Mensal');
    await user.selectOptions(field('Dia do mês'), '15');
    await user.selectOptions(field('Frequência'), 'Semanal');
    expect(field('Dia da semana')).toHaveDisplayValue('sexta-feira');
    expect(changes).toHaveBeenLastCalledWith({ ...DEFAULT_SCHEDULE, diaSemana: 5, diaMes: 15 });
  });

  it("offers 'Padrão do portal' for a new subscription, and the stored zone instead when editing", () => {
    renderFields({ initial: { ...DEFAULT_SCHEDULE, fusoHorario: 'Etc/Desconhecida' }, storedZone: 'Etc/Desconhecida' });
    const zones = within(field('Fuso horário')).getAllByRole('option');
    expect(zones.slice(0, 2).map((o) => (o as HTMLOptionElement).value)).toEqual([
      browserTimeZone(),
      'Etc/Desconhecida',
    ]);
    expect(within(field('Fuso horário')).queryByText('Padrão do portal')).not.toBeInTheDocument();
    expect(field('Fuso horário')).toHaveDisplayValue('Etc/Desconhecida');
  });

  it('says how the hour must be written when the form found it incomplete', () => {
    renderFields({ initial: { ...DEFAULT_SCHEDULE, hora: '' }, badHour: true });
    expect(field('Hora')).toHaveClass('is-invalid');
    expect(screen.getByText('Informe a hora no formato HH:MM.')).toBeVisible();
  });
});
