import type { AcessoPainel, MotivoAcesso } from '@paineis/contract/groups';
import { formatInteger } from '../../../lib/format.ts';
import { searchKey } from '../../../lib/search-key.ts';

/**
 * A reason written as the screens show it: 'Vínculo direto', 'Grupo: Comercial' (with the path down the nesting when
 * the person is in a group inside the linked one: 'Grupo: Comercial (Comercial → Comercial - Sul)'), 'E-mail no
 * papel' (an RLS role listing the person's e-mail or UPN) or 'Administrador'.
 */
export function reasonText(motivo: MotivoAcesso): string {
  switch (motivo.tipo) {
    case 'direto':
      return 'Vínculo direto';
    case 'email':
      return 'E-mail no papel';
    case 'administrador':
      return 'Administrador';
    case 'grupo': {
      const nome = motivo.grupo?.nome ?? motivo.via?.[0] ?? '';
      const via = motivo.via ?? [];
      return via.length > 1 ? `Grupo: ${nome} (${via.join(' → ')})` : `Grupo: ${nome}`;
    }
  }
}

/** Every reason of a person, in one line (the CSV's 'Motivos'). */
export const reasonsText = (motivos: readonly MotivoAcesso[]) => motivos.map(reasonText).join('; ');

export type PanelAccessPerson = AcessoPainel['pessoas'][number];

/** A row of 'Quem tem acesso': the person, their reasons written out, and the text the filter looks in. */
export interface PanelAccessRow {
  person: PanelAccessPerson;
  reasons: string[];
  search: string;
}

export function panelAccessRows(pessoas: readonly PanelAccessPerson[]): PanelAccessRow[] {
  return pessoas.map((person) => {
    const reasons = person.motivos.map(reasonText);
    // Newlines keep a query from matching across the end of one field and the start of the next.
    return { person, reasons, search: searchKey(`${person.nome}\n${person.email}\n${reasons.join('\n')}`) };
  });
}

/** Rows whose name, e-mail or reasons (the group names among them) contain the query, ignoring case and accents. */
export function filterAccessRows(rows: PanelAccessRow[], query: string): PanelAccessRow[] {
  const needle = searchKey(query);
  return needle ? rows.filter((row) => row.search.includes(needle)) : rows;
}

/** '3 de 120 pessoas'; a total of one reads 'pessoa'. */
export const peopleCount = (shown: number, total: number) =>
  `${formatInteger(shown)} de ${formatInteger(total)} ${total === 1 ? 'pessoa' : 'pessoas'}`;
