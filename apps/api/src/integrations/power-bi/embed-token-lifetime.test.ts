import { afterEach, describe, expect, it, vi } from 'vitest';
import { vendas } from '@paineis/microsoft-stand-ins/test-helpers';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import { appTokenUseMs, EntraClient } from '../microsoft-identity/entra-client.ts';
import { PowerBiClient } from './power-bi-client.ts';

const HOUR_MS = 3600_000;
const MINUTE_MS = 60_000;

describe('how long a service-principal token is used (docs/decisions/014)', () => {
  it('is the first sixth of its life, never within five minutes of its end', () => {
    expect(appTokenUseMs(3600)).toBe(10 * MINUTE_MS);
    expect(appTokenUseMs(24 * 3600)).toBe(4 * HOUR_MS);
    expect(appTokenUseMs(420)).toBe(70_000);
    expect(appTokenUseMs(330)).toBe(30_000);
    expect(appTokenUseMs(240)).toBe(0);
  });
});

describe('embed tokens made with an older service-principal token', () => {
  // Entra's tokens and Power BI's embed tokens both last an hour, as Microsoft issues them.
  const standIns = useStandIns({ people: [], reports: [vendas] });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('still get at least five sixths of their hour, however old the cached access token is', async () => {
    // Only Date is faked: the stand-in (which signs and checks the tokens) and the clients share this clock.
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    const entra = new EntraClient(microsoftConfig(standIns.current).microsoft!);
    const powerBi = new PowerBiClient(standIns.current.powerBiApiUrl, entra);
    const body = { reports: [{ id: vendas.reportId }], datasets: [{ id: vendas.datasetId }] };

    const lifetimes: Record<number, number> = {};
    for (const minutes of [0, 9, 11, 30, 50, 54, 56, 59]) {
      vi.setSystemTime(start + minutes * MINUTE_MS);
      const token = await powerBi.generateToken(body);
      lifetimes[minutes] = Date.parse(token.expiration) - Date.now();
    }
    // Power BI writes whole seconds, so a second may be lost to rounding.
    for (const [minutes, lifetime] of Object.entries(lifetimes)) {
      expect(lifetime, `embed token made ${minutes} min after the first`).toBeGreaterThanOrEqual(
        (5 / 6) * HOUR_MS - 1000,
      );
    }
  });
});
