import { EXPORTACAO_DADOS_DESATIVADA, type ExportacaoDados, type ExportacaoDadosBody } from '@paineis/contract/usage';
import type { Db } from '../../db/client.ts';
import { forbidden } from '../../lib/domain-failure.ts';
import { requireVisibleAccess } from '../panels/panel-access.ts';
import type { Requester } from '../panels/requester.ts';
import { insertDataExport } from './data-exports.repository.ts';

/**
 * Records a visual's data export (docs/requirements.md#viewer-data-export). The viewer exports through Power BI and
 * saves the file only once this accepts: so the panel's 'Permitir exportar dados' is the server's rule, not only the
 * button's. 404 when the person does not see the panel, 403 when the setting is off.
 */
export async function recordDataExport(
  db: Db,
  painelId: number,
  requester: Requester,
  body: Omit<ExportacaoDadosBody, 'tituloVisual'> & { tituloVisual?: string | null | undefined },
): Promise<ExportacaoDados> {
  const { panel } = await requireVisibleAccess(db, painelId, requester);
  if (!panel.permiteExportarDados) throw forbidden(EXPORTACAO_DADOS_DESATIVADA);
  return insertDataExport(db, {
    usuarioId: requester.id,
    painelId,
    pagina: body.pagina,
    visual: body.visual,
    tituloVisual: body.tituloVisual ?? null,
    tipo: body.tipo,
    linhas: body.linhas,
  });
}
