import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { microsoftConfig, useStandIns } from '../../../test/microsoft.ts';
import { EntraClient } from './entra-client.ts';

const POWER_BI = 'https://analysis.windows.net/powerbi/api/.default';
const GRAPH = 'https://graph.microsoft.com/.default';

describe('service-principal tokens from Entra ID', () => {
  const standIns = useStandIns({ people: [] });
  const client = () => new EntraClient(microsoftConfig(standIns.current).microsoft!);

  it('are requested once for callers arriving together, reused after, and kept per API', async () => {
    const entra = client();
    const together = await Promise.all(Array.from({ length: 20 }, () => entra.appToken(POWER_BI)));
    // Every stand-in token carries a random `uti`: one string means one request.
    expect(new Set(together).size).toBe(1);
    expect(await entra.appToken(POWER_BI)).toBe(together[0]);
    const graph = await entra.appToken(GRAPH);
    expect(graph).not.toBe(together[0]);
    expect(decodeJwt(graph).aud).toBe('https://graph.microsoft.com');
    expect(decodeJwt(together[0]!).aud).toBe('https://analysis.windows.net/powerbi/api');
  });
});

describe('service-principal tokens close to their expiry', () => {
  // Tokens of four minutes are always inside the five minutes before expiry.
  const standIns = useStandIns({ people: [], tokenLifetimeSeconds: 240 });

  it('are requested anew instead of reused', async () => {
    const entra = new EntraClient(microsoftConfig(standIns.current).microsoft!);
    const first = await entra.appToken(POWER_BI);
    expect(await entra.appToken(POWER_BI)).not.toBe(first);
  });
});
