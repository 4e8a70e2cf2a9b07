import { describe, expect, it } from 'vitest';
import { errorCodeFor, simulatedFailure } from './error-codes.ts';

describe('the error codes the stand-ins answer a status with', () => {
  const statuses = [400, 401, 403, 404, 429, 500, 502, 503, 504, 418];

  it('gives Graph its own codes for refusals and the shared ones for throttling and server errors', () => {
    expect(statuses.map((status) => errorCodeFor('graph', status))).toEqual([
      'BadRequest',
      'InvalidAuthenticationToken',
      'Authorization_RequestDenied',
      'Request_ResourceNotFound',
      'TooManyRequests',
      'InternalServerError',
      'BadGateway',
      'ServiceUnavailable',
      'GatewayTimeout',
      'UnknownError',
    ]);
  });

  it('gives Power BI its own codes for refusals and the shared ones for throttling and server errors', () => {
    expect(statuses.map((status) => errorCodeFor('power-bi', status))).toEqual([
      'InvalidRequest',
      'PowerBINotAuthorizedException',
      'PowerBINotAuthorizedException',
      'PowerBIEntityNotFound',
      'TooManyRequests',
      'InternalServerError',
      'BadGateway',
      'ServiceUnavailable',
      'GatewayTimeout',
      'UnknownError',
    ]);
  });

  it('answers a queued failure with the code and a message that says it was simulated', () => {
    expect(simulatedFailure('power-bi', 503)).toEqual({
      status: 503,
      code: 'ServiceUnavailable',
      message: 'The service answered 503 (simulated failure).',
    });
  });
});
