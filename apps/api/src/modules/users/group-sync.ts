import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { GraphClient } from '../../integrations/microsoft-graph/graph-client.ts';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import { groupsDeltaLink, writeGroupChanges } from './groups.repository.ts';
import { groupMembership } from './group-membership.ts';

/** Graph's answers to a delta link it no longer honours (expired, or from another tenant's sync state). */
const REFUSED_LINK = new Set([400, 404, 410]);

/**
 * Reads the Entra groups and their direct members through Graph's delta query and stores them: every group on the
 * first sync, only what changed on the later ones (from the saved delta link); a link Graph no longer honours starts
 * over with every group. Answers how many groups are kept, or null when Graph would not list them: then the
 * previous groups stay, and so does everyone's access through them (a missing permission must not lock people out).
 */
export async function syncGroups(
  database: Database,
  graph: GraphClient,
  log: FastifyBaseLogger,
): Promise<number | null> {
  try {
    const saved = await groupsDeltaLink(database.db);
    let round;
    let full = saved === null;
    try {
      round = await graph.groupChanges(saved);
    } catch (error) {
      if (!(saved && error instanceof MicrosoftError && REFUSED_LINK.has(error.status ?? 0))) throw error;
      log.warn(
        { graphStatus: error.status, graphCode: error.code },
        'o Graph recusou o delta de grupos salvo; lendo todos',
      );
      round = await graph.groupChanges(null);
      full = true;
    }
    const written = await writeGroupChanges(database, round.changes, full, round.deltaLink);
    const kept = (await groupMembership(database.db)).groups.size;
    log.info({ ...written, completo: full, mantidos: kept }, 'grupos sincronizados com o Microsoft Graph');
    return kept;
  } catch (error) {
    const failed = error instanceof MicrosoftError ? error : null;
    log.error(
      { err: error, graphStatus: failed?.status, graphCode: failed?.code, graphRequestId: failed?.requestId },
      'não foi possível ler os grupos no Graph; grupos e acessos por grupo mantidos. ' +
        'O aplicativo precisa da permissão GroupMember.Read.All.',
    );
    return null;
  }
}
