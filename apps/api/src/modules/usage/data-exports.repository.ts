import { sql } from 'drizzle-orm';
import type { ExportacaoDados, TipoExportacaoDados } from '@paineis/contract/usage';
import { rows, type Db } from '../../db/client.ts';
import { exportacoesDados } from '../../db/schema.ts';

/** The visuals' data exports ('Exportar dados'): one row each, written before the person gets the file. */

export interface NewDataExport {
  usuarioId: string;
  painelId: number;
  pagina: string;
  visual: string;
  tituloVisual: string | null;
  tipo: TipoExportacaoDados;
  linhas: number;
}

export async function insertDataExport(db: Db, record: NewDataExport): Promise<ExportacaoDados> {
  const [row] = await db.insert(exportacoesDados).values(record).returning({
    id: exportacoesDados.id,
    momento: exportacoesDados.momento,
    painelId: exportacoesDados.painelId,
    pagina: exportacoesDados.pagina,
    visual: exportacoesDados.visual,
    tituloVisual: exportacoesDados.tituloVisual,
    tipo: exportacoesDados.tipo,
    linhas: exportacoesDados.linhas,
  });
  return { ...row!, momento: row!.momento.toISOString() };
}

/** Data exports per panel since the period began (midnight `dias - 1` days ago in the portal's time zone). */
export async function dataExportsPerPanel(db: Db, dias: number, timeZone: string): Promise<Map<number, number>> {
  const found = await rows<{ painelId: number; total: number }>(
    db,
    sql`
    select painel_id as "painelId", count(*)::int as total from exportacoes_dados
    where momento >= (date_trunc('day', now() at time zone ${timeZone}) - make_interval(days => ${dias - 1})) at time zone ${timeZone}
    group by painel_id`,
  );
  return new Map(found.map((r) => [r.painelId, r.total]));
}
