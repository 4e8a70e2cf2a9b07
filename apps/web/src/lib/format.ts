// Numbers and dates written as pt-BR writes them ('25.000', '23/11/2026, 14:05:09'), without Intl. A page's first
// Intl formatter loads ICU's locale data: a 20–70 ms task on this machine's Chromium (several times that on a
// phone), on the very screens held to no long task while they load (docs/requirements.md#quality-bars). The output
// is Intl's own for pt-BR (format.test.ts compares them).

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** An integer with '.' between thousands: 25000 → '25.000'. */
export function formatInteger(n: number): string {
  const digits = String(Math.trunc(Math.abs(n)));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, '.');
  return n < 0 && digits !== '0' ? `-${grouped}` : grouped;
}

/** The local date: '23/11/2026'. */
export function formatDate(date: Date): string {
  return `${twoDigits(date.getDate())}/${twoDigits(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** The local date and time to the minute: '23/11/2026 14:05'. */
export function formatDateMinutes(date: Date): string {
  return `${formatDate(date)} ${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
}

/** The local date and time to the second, as toLocaleString('pt-BR') writes it: '23/11/2026, 14:05:09'. */
export function formatDateTime(date: Date): string {
  return `${formatDate(date)}, ${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}:${twoDigits(date.getSeconds())}`;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long ago the data was refreshed, as the list and the viewer say it: 'Atualizado agora' (under a minute, or a
 * time this browser's clock puts ahead), 'Atualizado há 5 min', 'Atualizado há 2 h', and from a day on the local day
 * and time, 'Atualizado em 03/11 07:15' (with the year, '03/11/2025 07:15', when it is not this year's).
 */
export function formatUpdatedAt(when: Date, now: number): string {
  const ago = now - when.getTime();
  if (ago < MINUTE_MS) return 'Atualizado agora';
  if (ago < HOUR_MS) return `Atualizado há ${Math.floor(ago / MINUTE_MS)} min`;
  if (ago < DAY_MS) return `Atualizado há ${Math.floor(ago / HOUR_MS)} h`;
  const day = `${twoDigits(when.getDate())}/${twoDigits(when.getMonth() + 1)}`;
  const year = when.getFullYear() === new Date(now).getFullYear() ? '' : `/${when.getFullYear()}`;
  return `Atualizado em ${day}${year} ${twoDigits(when.getHours())}:${twoDigits(when.getMinutes())}`;
}
