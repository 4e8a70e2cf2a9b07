import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { GraphClient } from '../../integrations/microsoft-graph/graph-client.ts';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import { groupsDeltaLink, writeGroupChanges } from './groups.repository.ts';
import { groupMembership } from './group-membership.ts';

/**
 * Whether Graph's refusal of the saved delta link means: read every group again. Graph documents two answers for a
 * link it no longer honours (learn.microsoft.com/graph/delta-query-overview): "Synchronization reset", a 410 Gone
 * whose Location is the initial query (the portal starts from its own initial query, the same one), and "Token
 * duration", an expired token answered with "a 40X-series error with error codes such as syncStateNotFound", any
 * 4xx. A 400 or a 404 (a link Graph cannot read, or whose state it does not know) cannot be followed either. Other
 * refusals (401, 403 without that code, 429) are not about the link: reading everything again would not help.
 */
function mustStartOver(error: MicrosoftError): boolean {
  const status = error.status ?? 0;
  if (status < 400 || status > 499) return false;
  if (error.code?.toLowerCase() === 'syncstatenotfound') return true;
  return status === 400 || status === 404 || status === 410;
}

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
      if (!(saved && error instanceof MicrosoftError && mustStartOver(error))) throw error;
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
