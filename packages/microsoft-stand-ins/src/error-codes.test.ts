import { describe, expect, it } from 'vitest';
import { errorCodeFor, simulatedFailure } from './error-codes.ts';

describe('the error codes the stand-ins answer a status with', () => {
  it('gives each service its own codes for refusals, and both the same for throttling and server errors', () => {
    const table: [number, string, string][] = [
      [400, 'BadRequest', 'InvalidRequest'],
      [401, 'InvalidAuthenticationToken', 'PowerBINotAuthorizedException'],
      [403, 'Authorization_RequestDenied', 'PowerBINotAuthorizedException'],
      [404, 'Request_ResourceNotFound', 'PowerBIEntityNotFound'],
      [429, 'TooManyRequests', 'TooManyRequests'],
      [500, 'InternalServerError', 'InternalServerError'],
      [502, 'BadGateway', 'BadGateway'],
      [503, 'ServiceUnavailable', 'ServiceUnavailable'],
      [504, 'GatewayTimeout', 'GatewayTimeout'],
      [418, 'UnknownError', 'UnknownError'],
    ];
    const answered = table.map(([status]) => [status, errorCodeFor('graph', status), errorCodeFor('power-bi', status)]);
    expect(answered).toEqual(table);
  });

  it('answers a queued failure with the code and a message that says it was simulated', () => {
    expect(simulatedFailure('power-bi', 503)).toEqual({
      status: 503,
      code: 'ServiceUnavailable',
      message: 'The service answered 503 (simulated failure).',
    });
  });
});
