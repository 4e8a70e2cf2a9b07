import { describe, expect, it } from 'vitest';
import { checkExchange, operationOf } from './check-exchange.ts';
import { REDACTED, type Exchange } from './exchange.ts';

/**
 * The description of the capacity calls must be able to fail: each case breaks one thing Microsoft's swaggers say
 * about a call, in an exchange that conforms otherwise (docs/decisions/016-microsoft-contract-tests.md).
 */

const SUBSCRIPTION = '0d0d0d0d-0000-4000-8000-000000000001';
const A = `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-paineis/providers/Microsoft.PowerBIDedicated/capacities/paineisa1`;
const F = `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-paineis/providers/Microsoft.Fabric/capacities/paineisf2`;
const LOCATION = `https://management.azure.com/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Fabric/locations/brazilsouth/operationresults/1b2c?api-version=2023-11-01`;

function exchange(partial: {
  method?: string;
  url: string;
  body?: unknown;
  status?: number;
  answerHeaders?: Record<string, string>;
  answer?: unknown;
}): Exchange {
  return {
    service: 'arm',
    method: partial.method ?? 'GET',
    url: partial.url,
    request: {
      headers: {
        authorization: `Bearer ${REDACTED}`,
        ...(partial.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(partial.body === undefined ? {} : { body: partial.body }),
    },
    answer: {
      status: partial.status ?? 200,
      headers: {
        ...(partial.answer === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
        ...partial.answerHeaders,
      },
      ...(partial.answer === undefined ? {} : { body: partial.answer }),
      bytes: partial.answer === undefined ? 0 : JSON.stringify(partial.answer).length,
    },
  };
}

const fabricCapacity = (properties: Record<string, unknown> = {}, sku: Record<string, unknown> = {}) => ({
  id: F,
  name: 'paineisf2',
  type: 'Microsoft.Fabric/capacities',
  location: 'brazilsouth',
  sku: { name: 'F2', tier: 'Fabric', ...sku },
  properties: { state: 'Active', provisioningState: 'Succeeded', administration: { members: [] }, ...properties },
});
const embeddedCapacity = (properties: Record<string, unknown> = {}) => ({
  id: A,
  name: 'paineisa1',
  type: 'Microsoft.PowerBIDedicated/capacities',
  location: 'brazilsouth',
  sku: { name: 'A1', tier: 'PBIE_Azure' },
  properties: { state: 'Paused', provisioningState: 'Paused', mode: 'Gen2', ...properties },
});
const accepted = { location: LOCATION, 'retry-after': '10' };

const found = (e: Exchange) => checkExchange(e).map((v) => `${v.part} ${v.at}: ${v.message}`);

describe('the Azure capacity calls, checked against the swaggers', () => {
  it('finds nothing wrong with calls as Microsoft describes them', () => {
    expect(found(exchange({ url: `${F}?api-version=2023-11-01`, answer: fabricCapacity() }))).toEqual([]);
    expect(found(exchange({ url: `${A}?api-version=2021-01-01`, answer: embeddedCapacity() }))).toEqual([]);
    expect(
      found(
        exchange({ method: 'POST', url: `${F}/suspend?api-version=2023-11-01`, status: 202, answerHeaders: accepted }),
      ),
    ).toEqual([]);
    expect(found(exchange({ method: 'POST', url: `${A}/resume?api-version=2021-01-01`, status: 200 }))).toEqual([]);
    expect(
      found(
        exchange({
          method: 'PATCH',
          url: `${A}?api-version=2021-01-01`,
          body: { sku: { name: 'A2' } },
          status: 202,
          answerHeaders: accepted,
          answer: embeddedCapacity({ state: 'Scaling', provisioningState: 'Scaling' }),
        }),
      ),
    ).toEqual([]);
    expect(
      found(
        exchange({ url: LOCATION.replace('https://management.azure.com', ''), status: 202, answerHeaders: accepted }),
      ),
    ).toEqual([]);
    expect(
      found(
        exchange({
          method: 'POST',
          url: `${A}/suspend?api-version=2021-01-01`,
          status: 403,
          answer: { error: { code: 'AuthorizationFailed', message: 'The client …' } },
        }),
      ),
    ).toEqual([]);
  });

  it('names each operation by its operationId', () => {
    const id = (e: Exchange) => operationOf(e)?.operation.id;
    expect(id(exchange({ method: 'PATCH', url: `${F}?api-version=2023-11-01`, body: {} }))).toBe(
      'FabricCapacities_Update',
    );
    expect(id(exchange({ method: 'POST', url: `${A}/suspend?api-version=2021-01-01` }))).toBe('Capacities_Suspend');
  });

  it('finds the api-version of the other provider, and none at all', () => {
    expect(found(exchange({ url: `${F}?api-version=2021-01-01`, answer: fabricCapacity() }))).toEqual([
      'request query.api-version: Invalid input: expected "2023-11-01"',
    ]);
    expect(found(exchange({ url: A, answer: embeddedCapacity() }))).toEqual([
      'request query.api-version: Invalid input: expected "2021-01-01"',
    ]);
  });

  it('finds a Fabric suspend answered 200 (its swagger has only 202) and a 202 without Location', () => {
    expect(found(exchange({ method: 'POST', url: `${F}/suspend?api-version=2023-11-01`, status: 200 }))).toEqual([
      'answer status: 200 is none of the answers documented (202)',
    ]);
    expect(
      found(
        exchange({
          method: 'POST',
          url: `${F}/resume?api-version=2023-11-01`,
          status: 202,
          answerHeaders: { 'retry-after': '5' },
        }),
      ),
    ).toEqual(['answer header location: required']);
  });

  it('finds a state the enum lacks, a wrong tier, a PATCH field the swagger does not have, an error without a code', () => {
    expect(
      found(exchange({ url: `${F}?api-version=2023-11-01`, answer: fabricCapacity({ state: 'Running' }) })),
    ).toHaveLength(1);
    expect(
      found(exchange({ url: `${F}?api-version=2023-11-01`, answer: fabricCapacity({}, { tier: 'PBIE_Azure' }) })),
    ).toEqual(['answer body.sku.tier: Invalid input: expected "Fabric"']);
    expect(
      found(
        exchange({
          method: 'PATCH',
          url: `${F}?api-version=2023-11-01`,
          body: { sku: { name: 'F4' }, state: 'Paused' },
        }),
      ),
    ).toContain('request body: Unrecognized key: "state"');
    expect(
      found(exchange({ url: `${A}?api-version=2021-01-01`, status: 404, answer: { error: { message: 'não achei' } } })),
    ).toEqual(['answer body.error.code: Invalid input: expected string, received undefined']);
  });

  it('finds a capacity name ARM would refuse', () => {
    expect(
      found(
        exchange({ url: `${A.replace('paineisa1', 'Paineis-A1')}?api-version=2021-01-01`, answer: embeddedCapacity() }),
      ),
    ).toEqual(['request path.dedicatedCapacityName: lower-case letters and digits, starting with a letter']);
  });
});
