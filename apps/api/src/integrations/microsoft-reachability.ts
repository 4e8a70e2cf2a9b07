import type { MicrosoftSettings } from '../config/env.ts';
import { causeChain, type MicrosoftService } from './microsoft-error.ts';

/** Whether one Microsoft service answered at all, and where it was asked. */
export interface ServiceReachability {
  service: MicrosoftService;
  /** 'Entra ID', 'Microsoft Graph', 'Power BI'. */
  name: string;
  /** The address asked, without credentials or query. */
  url: string;
  reachable: boolean;
  /** The HTTP status it answered with (any status counts as reachable). */
  status?: number;
  /** Why it did not answer, e.g. 'connect ECONNREFUSED 127.0.0.1:1' or 'sem resposta em 5 s'. */
  reason?: string;
}

export interface ReachabilityOptions {
  /** Per request; default 5000. */
  timeoutMs?: number;
}

/** What stops working while each service is out of reach. */
const CONSEQUENCES: Record<MicrosoftService, string> = {
  entra: 'o login Microsoft não funcionará até ele responder',
  graph: 'a sincronização do diretório de usuários não funcionará até ele responder',
  'power-bi': 'os painéis não abrirão até ele responder',
  azure: 'a capacidade do Power BI não poderá ser pausada nem retomada até ele responder',
};

/**
 * One cheap, unauthenticated request to each configured Microsoft service, all at once: the tenant's OpenID
 * discovery document (Entra ID), and the API root of Microsoft Graph and of Power BI. Any HTTP answer, even
 * 401 or 404, counts as reachable: the check is about the network path, not about permissions. Never
 * throws.
 */
export async function checkMicrosoftReachability(
  settings: MicrosoftSettings,
  options: ReachabilityOptions = {},
): Promise<ServiceReachability[]> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const targets: { service: MicrosoftService; name: string; url: string }[] = [
    {
      service: 'entra',
      name: 'Entra ID',
      url: `${settings.authorityHost}/${encodeURIComponent(settings.tenantId)}/v2.0/.well-known/openid-configuration`,
    },
    { service: 'graph', name: 'Microsoft Graph', url: `${settings.graphUrl}/v1.0/` },
    { service: 'power-bi', name: 'Power BI', url: `${settings.powerBiApiUrl}/v1.0/myorg/` },
  ];
  return Promise.all(
    targets.map(async ({ service, name, url }) => {
      // Asked without credentials (the check needs none), so none can show in the log either.
      const shown = withoutCredentials(url);
      try {
        const response = await fetch(shown, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
        await response.body?.cancel().catch(() => undefined);
        return { service, name, url: shown, reachable: true, status: response.status };
      } catch (error) {
        return { service, name, url: shown, reachable: false, reason: failureReason(error, timeoutMs) };
      }
    }),
  );
}

/** The log line for a service that did not answer, in Portuguese, naming it and where it was asked. */
export function unreachableMessage(result: ServiceReachability): string {
  return (
    `${result.name} inacessível em ${result.url}: ${result.reason ?? 'sem resposta'}; ` +
    `${CONSEQUENCES[result.service]}. O login local continua disponível.`
  );
}

export const ALL_REACHABLE_MESSAGE = 'Serviços Microsoft acessíveis: Entra ID, Microsoft Graph e Power BI.';

/** Checks the services and logs one error line per service that did not answer, or one info line if all did. */
export async function logMicrosoftReachability(
  log: {
    info(details: object, message: string): void;
    error(details: object, message: string): void;
  },
  settings: MicrosoftSettings,
  options: ReachabilityOptions = {},
): Promise<ServiceReachability[]> {
  const results = await checkMicrosoftReachability(settings, options);
  const down = results.filter((r) => !r.reachable);
  for (const result of down) {
    log.error({ service: result.service, url: result.url, reason: result.reason }, unreachableMessage(result));
  }
  if (down.length === 0) {
    log.info(
      { services: Object.fromEntries(results.map((r) => [r.service, { url: r.url, status: r.status }])) },
      ALL_REACHABLE_MESSAGE,
    );
  }
  return results;
}

function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** undici's 'fetch failed' hides the cause (ECONNREFUSED, ENOTFOUND, a TLS error): name it instead. */
function failureReason(error: unknown, timeoutMs: number): string {
  const name = (error as Error | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `sem resposta em ${timeoutMs / 1000} s`;
  // The innermost cause is the one that says what happened; an AggregateError lists each address tried.
  let cause =
    causeChain(error)
      .filter((e) => e instanceof Error)
      .at(-1) ?? error;
  if (cause instanceof AggregateError && cause.errors[0] instanceof Error) cause = cause.errors[0];
  const message = cause instanceof Error ? cause.message : String(cause);
  return message || (cause as NodeJS.ErrnoException | undefined)?.code || 'falha de conexão';
}
