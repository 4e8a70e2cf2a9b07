import { toCsv, type CsvColumn } from '../../../lib/csv.ts';
import type { PanelAccessPerson } from './access-reasons.ts';
import { reasonsText } from './access-reasons.ts';

const COLUMNS: CsvColumn<PanelAccessPerson>[] = [
  { header: 'Nome', value: (p) => p.nome },
  { header: 'E-mail', value: (p) => p.email },
  { header: 'Motivos', value: (p) => reasonsText(p.motivos) },
];

/** 'Quem tem acesso' as a CSV: Nome, E-mail, Motivos (joined by '; '), as every CSV of the portal is written. */
export const panelAccessCsv = (pessoas: readonly PanelAccessPerson[]) => toCsv(COLUMNS, pessoas);

export const panelAccessCsvName = (painelId: number) => `quem-tem-acesso-painel-${painelId}.csv`;
