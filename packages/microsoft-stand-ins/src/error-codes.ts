/** The REST services whose errors the stand-ins answer in `{ "error": { "code", "message" } }`. */
export type RestService = 'graph' | 'power-bi' | 'arm';

/** Throttling and server errors carry the same codes in Graph and Power BI… */
const SHARED_CODES: Record<number, string> = {
  429: 'TooManyRequests',
  500: 'InternalServerError',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
  504: 'GatewayTimeout',
};

/** …and each has its own for a refusal. */
const OWN_CODES: Record<RestService, Record<number, string>> = {
  graph: {
    400: 'BadRequest',
    401: 'InvalidAuthenticationToken',
    403: 'Authorization_RequestDenied',
    404: 'Request_ResourceNotFound',
  },
  'power-bi': {
    400: 'InvalidRequest',
    401: 'PowerBINotAuthorizedException',
    403: 'PowerBINotAuthorizedException',
    404: 'PowerBIEntityNotFound',
  },
  // Azure Resource Manager's own (https://learn.microsoft.com/azure/azure-resource-manager/troubleshooting/common-deployment-errors).
  arm: {
    400: 'BadRequest',
    401: 'InvalidAuthenticationToken',
    403: 'AuthorizationFailed',
    404: 'ResourceNotFound',
  },
};

/** The error code `service` answers `status` with ('UnknownError' for a status it has no code for). */
export function errorCodeFor(service: RestService, status: number): string {
  return OWN_CODES[service][status] ?? SHARED_CODES[status] ?? 'UnknownError';
}

/** The error a queued `failNext(status)` answers, with the service's code for the status. */
export function simulatedFailure(
  service: RestService,
  status: number,
): { status: number; code: string; message: string } {
  return {
    status,
    code: errorCodeFor(service, status),
    message: `The service answered ${status} (simulated failure).`,
  };
}
