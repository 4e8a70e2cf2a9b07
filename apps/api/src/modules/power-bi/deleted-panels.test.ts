import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/context.ts';
import { panel } from '../../../test/fixtures.ts';
import { rows } from '../../db/client.ts';
import { saveRound, storedDatasets } from './freshness.repository.ts';
import { saveHealth, storedHealth } from './panel-health.repository.ts';

/**
 * A round's findings for a panel deleted while the round read Power BI: the foreign key refuses them, those alone are
 * left out, and the round's other findings are saved.
 */
describe('a panel deleted while a round read Power BI', () => {
  const ctx = useTestApp();
  const WS = '0a0a0a0a-0000-4000-8000-00000000c001';
  const gone = 987_654;

  it('health: the checks of the panels still there are saved', async () => {
    const kept = await panel(ctx.db);
    const check = (painelId: number) => ({
      painelId,
      workspaceId: WS,
      reportId: `0a0a0a0a-0000-4000-8000-${String(painelId).padStart(12, '0')}`,
      estado: 'ok' as const,
      mensagem: null,
      verificadoEm: new Date(),
    });
    await saveHealth(ctx.db, [check(gone), check(kept.id)]);
    expect((await storedHealth(ctx.db)).map((h) => h.painelId)).toEqual([kept.id]);
  });

  it('freshness: the links and datasets of the panels still there are saved', async () => {
    const kept = await panel(ctx.db);
    const link = (painelId: number, datasetId: string) => ({
      painelId,
      workspaceId: WS,
      reportId: `0a0a0a0a-0000-4000-8000-${String(painelId).padStart(12, '0')}`,
      datasetId,
      datasetWorkspaceId: WS,
    });
    const dataset = (datasetId: string) => ({
      datasetId,
      status: 'concluida' as const,
      ultimaAtualizacao: new Date(),
      ultimaTentativa: new Date(),
      mensagem: null,
    });
    await saveRound(
      ctx.db,
      [link(gone, 'ds-gone'), link(kept.id, 'ds-kept')],
      [dataset('ds-gone'), dataset('ds-kept')],
    );
    const links = await rows<{ painel_id: number }>(ctx.db, sql`select painel_id from painel_datasets`);
    expect(links.map((l) => l.painel_id)).toEqual([kept.id]);
    // A dataset no panel reads is not kept.
    expect([...(await storedDatasets(ctx.db)).keys()]).toEqual(['ds-kept']);
  });
});
