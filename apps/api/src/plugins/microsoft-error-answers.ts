import type { MicrosoftError } from '../integrations/microsoft-error.ts';
import { EffectiveIdentityRefused } from '../integrations/power-bi/effective-identity.ts';

/**
 * The one place where a failed call to Microsoft becomes an HTTP answer: a status and a Portuguese message
 * for the person waiting. What Microsoft said stays in the log.
 */

/** Every use of Power BI on a server without its configuration: opening, import, checks, subscriptions. */
export const POWER_BI_NOT_CONFIGURED = 'O Power BI não está configurado neste servidor.';
export const POWER_BI_TIMEOUT = 'O Power BI não respondeu a tempo. Tente novamente em instantes.';
export const POWER_BI_UNAVAILABLE = 'O Power BI está indisponível no momento. Tente novamente em instantes.';
export const POWER_BI_REFUSED =
  'O Power BI recusou o acesso a este relatório. Verifique o workspace, o relatório e o RLS do painel.';
export const SYNC_NOT_CONFIGURED = 'A sincronização com o Microsoft Graph não está configurada neste servidor.';
export const SYNC_FAILED =
  'Não foi possível sincronizar com o Microsoft Graph agora. Os dados anteriores foram mantidos.';
export const RLS_WITHOUT_ROLES = 'Este painel usa RLS, mas ainda não tem papéis configurados.';
/** An identity that breaks Power BI's rules, with each rule it breaks (power-bi/effective-identity.ts). */
export const rlsIdentityRefused = (problems: readonly string[]) =>
  `O Power BI recusaria a identidade RLS deste acesso ao painel. ${problems.join(' ')} Avise um administrador.`;
export const ENTRA_UNAVAILABLE =
  'O Entra ID (identidade Microsoft) está indisponível no momento. Tente novamente em instantes.';
export const ENTRA_REFUSED =
  'O Entra ID recusou as credenciais do portal para os serviços da Microsoft. Avise um administrador.';

export const AZURE_NOT_CONFIGURED = 'A capacidade do Power BI não está configurada neste servidor.';
export const AZURE_REFUSED_ROLE =
  'O portal não tem permissão no Azure para operar a capacidade do Power BI (falta um papel com leitura, escrita, ' +
  'suspensão e retomada da capacidade). Avise um administrador do Azure.';
export const AZURE_REFUSED = 'O Azure recusou a operação na capacidade do Power BI. Avise um administrador.';
export const AZURE_UNAVAILABLE = 'O Azure está indisponível no momento. Tente novamente em instantes.';

export function microsoftErrorAnswer(error: MicrosoftError): { status: 409 | 502 | 503 | 504; message: string } {
  switch (error.service) {
    case 'power-bi':
      if (error.failure === 'not-configured') return { status: 503, message: POWER_BI_NOT_CONFIGURED };
      if (error.failure === 'identity-without-roles') return { status: 409, message: RLS_WITHOUT_ROLES };
      if (error.failure === 'identity-over-limits') {
        const problems = error instanceof EffectiveIdentityRefused ? error.problems : [];
        return { status: 409, message: rlsIdentityRefused(problems) };
      }
      if (error.failure === 'timeout') return { status: 504, message: POWER_BI_TIMEOUT };
      if (error.failure === 'refused') return { status: 502, message: POWER_BI_REFUSED };
      return { status: 503, message: POWER_BI_UNAVAILABLE };
    case 'graph':
      if (error.failure === 'not-configured') return { status: 503, message: SYNC_NOT_CONFIGURED };
      // A sync writes nothing until Graph has answered every page, so the previous data is always kept.
      return { status: 502, message: SYNC_FAILED };
    case 'entra':
      if (error.failure === 'refused') return { status: 502, message: ENTRA_REFUSED };
      return { status: 503, message: ENTRA_UNAVAILABLE };
    case 'azure':
      if (error.failure === 'not-configured') return { status: 503, message: AZURE_NOT_CONFIGURED };
      if (error.code === 'AuthorizationFailed') return { status: 502, message: AZURE_REFUSED_ROLE };
      if (error.failure === 'refused') return { status: 502, message: AZURE_REFUSED };
      return { status: 503, message: AZURE_UNAVAILABLE };
  }
}
