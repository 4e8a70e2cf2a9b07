import type { EstadoCapacidade } from '@paineis/contract/capacity-constants';
import { ApiError } from '../../../lib/api-client.ts';

/** How long to wait before asking again when the server names no time (about a resume of the A1 in the demo). */
export const DEFAULT_WAIT_SECONDS = 10;

/** The capacity's side of an opening answered 503 while it is paused or changing (CapacidadeIndisponivel). */
export interface CapacityUnavailable {
  estado: EstadoCapacidade;
  podeRetomar: boolean;
  contato: string | null;
  /** When to ask again: Retry-After, else about how long a resume takes. */
  waitSeconds: number;
}

/** Retry-After in seconds, from its number of seconds or its HTTP date; null when absent or unreadable. */
function retryAfterSeconds(headers: Headers | undefined): number | null {
  const value = headers?.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The 503 of a paused capacity, read from a failed call; null for any other failure. */
export function capacityUnavailableOf(error: unknown): CapacityUnavailable | null {
  if (!(error instanceof ApiError) || error.status !== 503) return null;
  const capacidade = (error.data as { capacidade?: unknown } | undefined)?.capacidade;
  if (!capacidade || typeof capacidade !== 'object') return null;
  const { estado, podeRetomar, retomadaSegundos, contato } = capacidade as Record<string, unknown>;
  const resume = typeof retomadaSegundos === 'number' && retomadaSegundos > 0 ? retomadaSegundos : null;
  return {
    estado: estado as EstadoCapacidade,
    podeRetomar: podeRetomar === true,
    contato: typeof contato === 'string' && contato.trim() ? contato.trim() : null,
    // At least a second: a zero would ask the server again in a tight loop.
    waitSeconds: Math.max(1, retryAfterSeconds(error.headers) ?? resume ?? DEFAULT_WAIT_SECONDS),
  };
}
