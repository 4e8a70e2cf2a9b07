import { describe, expect, it } from 'vitest';
import {
  errorFromFetchFailure,
  errorFromResponse,
  MicrosoftError,
  readJson,
  readJsonAnswer,
} from './microsoft-error.ts';

const answer = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });

describe('MicrosoftError: one reading of every Microsoft service’s failures', () => {
  it('reads the shared error body and the request id, whichever header the service uses', async () => {
    const powerBi = await errorFromResponse(
      'power-bi',
      answer(404, '{"error":{"code":"PowerBIEntityNotFound","message":"not found"}}', { requestid: 'r-1' }),
    );
    expect(powerBi).toBeInstanceOf(MicrosoftError);
    expect(powerBi).toMatchObject({
      service: 'power-bi',
      failure: 'refused',
      status: 404,
      code: 'PowerBIEntityNotFound',
    });
    expect(powerBi.requestId).toBe('r-1');
    expect(powerBi.message).toBe('Power BI respondeu 404: not found');
    const graph = await errorFromResponse(
      'graph',
      answer(403, '{"error":{"code":"Authorization_RequestDenied"}}', {
        'request-id': 'r-2',
      }),
    );
    expect(graph).toMatchObject({ service: 'graph', failure: 'refused', code: 'Authorization_RequestDenied' });
    expect(graph.requestId).toBe('r-2');
  });

  it('tells throttling and server failures from refusals, and copes with a body that is not the shared shape', async () => {
    expect((await errorFromResponse('graph', answer(429, ''))).failure).toBe('throttled');
    expect((await errorFromResponse('power-bi', answer(503, '<html>down</html>'))).failure).toBe('unavailable');
    const odd = await errorFromResponse('power-bi', answer(400, '{"error":{"code":7,"message":["x"]}}'));
    expect(odd).toMatchObject({ failure: 'refused', status: 400, code: undefined, requestId: null });
    expect((await errorFromResponse('graph', answer(400, 'null'))).failure).toBe('refused');
  });

  it('tells a timeout from no connection, and keeps an error that is already typed', () => {
    const timeout = Object.assign(new Error('timed out'), { name: 'TimeoutError' });
    expect(errorFromFetchFailure('power-bi', timeout).failure).toBe('timeout');
    expect(errorFromFetchFailure('graph', new TypeError('fetch failed')).failure).toBe('unreachable');
    const entra = new MicrosoftError('entra', 'refused', 'Entra ID respondeu 401');
    expect(errorFromFetchFailure('power-bi', entra)).toBe(entra);
  });

  it('turns a successful answer that is not JSON into a malformed failure, not a crash', async () => {
    await expect(readJson('power-bi', answer(200, '{"token": '))).rejects.toMatchObject({
      service: 'power-bi',
      failure: 'malformed',
      status: 200,
    });
    await expect(readJson('graph', answer(200, '{"value":[]}'))).resolves.toEqual({ value: [] });
  });

  it('takes JSON only from an answer that says it is JSON', async () => {
    const typed = (type: string | null, body: string) =>
      new Response(body, { status: 200, headers: type ? { 'content-type': type } : {} });
    for (const type of ['text/html; charset=utf-8', 'text/plain', null]) {
      await expect(readJsonAnswer('power-bi', typed(type, '{"token":"x"}'))).rejects.toMatchObject({
        service: 'power-bi',
        failure: 'malformed',
        status: 200,
      });
    }
    const graphType = 'application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false';
    await expect(readJsonAnswer('graph', typed(graphType, '{"value":[]}'))).resolves.toEqual({ value: [] });
    await expect(readJsonAnswer('graph', typed('application/json', '<html>'))).rejects.toMatchObject({
      failure: 'malformed',
    });
  });
});

describe('what a failure says for the log', () => {
  it('names the innermost cause, and never the credentials a URL carries', () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    expect(errorFromFetchFailure('graph', refused).message).toBe(
      'Microsoft Graph: fetch failed: connect ECONNREFUSED 127.0.0.1:9',
    );
    const leaky = new TypeError(
      'Request cannot be constructed from a URL that includes credentials: https://u:segredo@x/',
    );
    expect(errorFromFetchFailure('power-bi', leaky).message).not.toContain('segredo');
  });
});
