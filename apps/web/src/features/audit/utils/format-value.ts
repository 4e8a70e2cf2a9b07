import { formatInteger } from '../../../lib/format.ts';

/**
 * A value of an audit diff as text: strings as they are, numbers in pt-BR, booleans 'Sim'/'Não', lists and objects
 * as compact JSON, and '—' for none (a field added has no value before, one removed none after).
 */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'Sim' : 'Não';
  if (typeof value === 'number') {
    // Fractions are rare here (an order, a count): Intl, on this admin page only, writes them with a comma.
    return Number.isInteger(value)
      ? formatInteger(value)
      : value.toLocaleString('pt-BR', { maximumFractionDigits: 20 });
  }
  return JSON.stringify(value);
}
