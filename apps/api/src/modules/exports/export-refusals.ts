import { exportacaoOcupada, EXPORT_MESSAGES } from '@paineis/contract/personal';
import { MicrosoftError } from '../../integrations/microsoft-error.ts';
import { busy, conflict, invalid } from '../../lib/domain-failure.ts';

/**
 * The one place where Power BI's refusal to start an export (ExportTo) becomes the person's answer
 * (docs/decisions/015-export-as-power-bi-documents-it.md). Microsoft publishes no error codes for these refusals: the
 * codes below are the project's assumption (the stand-in answers them). An unknown code still gets a sensible answer
 * from its status and from whether the request carried an RLS identity. Power BI's code and request id go to the log
 * where the call failed (PowerBiEmbeddingService).
 */

/** What the administrator must fix in Power BI: 409. */
const BY_CODE = new Map<string, string>([
  ['ExportToFileDisabledByTenantSetting', EXPORT_MESSAGES.desativadaNoPowerBi],
  ['ExportToFileRequiresCapacity', EXPORT_MESSAGES.semCapacidade],
  ['ExportToFileNotSupportedOnPremiumPerUser', EXPORT_MESSAGES.semCapacidade],
  ['ExportToFileBlockedBySensitivityLabel', EXPORT_MESSAGES.rotuloConfidencialidade],
  ['ExportToFileRequiresDatasetWritePermission', EXPORT_MESSAGES.rlsSemPermissao],
  ['ExportToFileTooManyPages', EXPORT_MESSAGES.paginasDemais],
]);

/** When Power BI's 429 named no time to come back. */
const BUSY_SECONDS = 30;

/** What the ExportTo request carried that Power BI may have refused. */
export interface ExportSent {
  /** An effective identity (the panel uses RLS). */
  identity: boolean;
  /** The viewer's state or page. */
  stateOrPage: boolean;
}

/**
 * The answer for an ExportTo that failed: a refusal of Power BI's export-to-file becomes a DomainFailure in Portuguese;
 * anything else (an outage, a timeout, an identity refused before asking) is returned as it came, for the error
 * handler's usual answer.
 */
export function exportRefusal(error: unknown, sent: ExportSent): unknown {
  if (!(error instanceof MicrosoftError) || error.service !== 'power-bi') return error;
  // Too many exports on the capacity at once: Power BI is busy, not refusing; 503 says when to try again.
  if (error.status === 429) {
    const seconds = Math.max(1, error.retryAfterSeconds ?? BUSY_SECONDS);
    return busy(exportacaoOcupada(seconds), seconds);
  }
  if (error.failure !== 'refused') return error;
  const known = error.code === undefined ? undefined : BY_CODE.get(error.code);
  if (known) return conflict(known);
  // Power BI's 400 to a request carrying the viewer's state or page is about them: the caller's input.
  if (error.status === 400 && sent.stateOrPage) return invalid(EXPORT_MESSAGES.estadoRecusado);
  // A 403 to an export with an identity most likely lacks the permissions RLS export needs; without one, a
  // precondition of export to file (capacity, tenant setting, label).
  if (error.status === 403) {
    return conflict(sent.identity ? EXPORT_MESSAGES.rlsSemPermissao : EXPORT_MESSAGES.recusada);
  }
  return error;
}
