/**
 * Two reports of the stand-in Power BI in one workspace, Vendas (no RLS) and Vendas por Região (RLS), and a panel
 * over each: what the embedding, export and usage tests open. Not a test file itself.
 */
import { beforeEach } from 'vitest';
import type { StandInReport } from '@paineis/microsoft-stand-ins/types';
import type { AppDependencies } from '../src/app.ts';
import type { Db } from '../src/db/client.ts';
import type { PanelInput } from '../src/modules/panels/panels.repository.ts';
import type { PowerBiEmbeddingService } from '../src/integrations/power-bi/power-bi-embedding-service.ts';
import { useTestApp } from './context.ts';
import { panelOver } from './fixtures.ts';
import { microsoftConfig, useStandIns } from './microsoft.ts';

export interface SalesReports {
  vendas: StandInReport;
  regional: StandInReport;
}

/** `first` numbers Vendas' report and dataset ids (Vendas por Região's are the next), so each file has its own. */
export function salesReports(first: number): SalesReports {
  const id = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const workspaceId = '0a0a0a0a-0000-4000-8000-000000000001';
  return {
    vendas: {
      workspaceId,
      reportId: id('0b0b0b0b', first),
      name: 'Vendas',
      datasetId: id('0c0c0c0c', first),
      rls: false,
    },
    regional: {
      workspaceId,
      reportId: id('0b0b0b0b', first + 1),
      name: 'Vendas por Região',
      datasetId: id('0c0c0c0c', first + 1),
      rls: true,
    },
  };
}

/** A panel over each report: `plain` over Vendas, `rls` over Vendas por Região with the roles given. */
export async function salesPanels(
  db: Db,
  { vendas, regional }: SalesReports,
  rlsConfigurations: PanelInput['rlsConfigurations'],
) {
  const plain = await panelOver(db, vendas, { nomePainel: 'Vendas' });
  const rls = await panelOver(db, regional, { nomePainel: 'Vendas por Região', usaRls: true, rlsConfigurations });
  return { plain, rls };
}

/**
 * The real app over the Microsoft stand-ins, which serve these reports. Before each test Power BI forgets what it was
 * asked and any report a test changed, and the app forgets the embed details it cached.
 */
export function useSalesApp(reports: SalesReports, dependencies: Partial<AppDependencies> = {}) {
  const standIns = useStandIns({ people: [], reports: [reports.vendas, reports.regional] });
  const ctx = useTestApp(() => ({ config: microsoftConfig(standIns.current), ...dependencies }));
  beforeEach(() => {
    standIns.current.powerBi.reset();
    standIns.current.powerBi.setReports([reports.vendas, reports.regional]);
    (ctx.app.embedding as PowerBiEmbeddingService).clear();
  });
  return { standIns, ctx };
}
