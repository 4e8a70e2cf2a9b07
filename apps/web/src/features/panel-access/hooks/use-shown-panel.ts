import { useState } from 'react';
import type { Painel } from '@paineis/contract/panels';

/**
 * The panel a modal shows: the current one, or, once it is cleared, the last one, so that the modal keeps
 * its title and content while it fades out.
 */
export function useShownPanel(painel: Painel | null): Painel | null {
  const [last, setLast] = useState(painel);
  if (painel !== null && painel !== last) setLast(painel);
  return painel ?? last;
}
