import formbody from '@fastify/formbody';
import { registerAzureCapacities } from './azure-capacities.ts';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { registerEmbedHost } from './embed-host.ts';
import { exchangeOf } from './exchange-recorder.ts';
import { registerGraph } from './graph.ts';
import { registerIdentityProvider } from './identity-provider.ts';
import { registerPowerBi } from './power-bi.ts';
import { DEFAULT_EXPORT_DURATION_MS } from './power-bi-exports.ts';
import { createSigningKeys } from './signing-keys.ts';
import type { StandInContext } from './stand-in-context.ts';
import type { StandInExchange, StandIns, StandInsOptions } from './types.ts';

/** The portal's app registration in the stand-in tenant: an application (client) id is a GUID in Entra. */
export const DEFAULT_CLIENT_ID = '5d6b9c1e-2f4a-4e8b-9c3d-7a1f0e6b2d48';

/**
 * Starts Entra ID (OpenID Connect), Microsoft Graph (users, app role assignments, groups), Power BI (REST and embed
 * page) and Azure Resource Manager (capacities) stand-ins on one loopback server.
 */
export async function startStandIns(options: StandInsOptions): Promise<StandIns> {
  const ctx: StandInContext = {
    tenantId: options.tenantId ?? '00000000-0000-4000-8000-000000000001',
    clientId: options.clientId ?? DEFAULT_CLIENT_ID,
    clientSecret: options.clientSecret ?? 'segredo-demo',
    appDisplayName: options.appDisplayName ?? 'Painéis',
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
    authorityHost: '',
    issuer: '',
    keys: await createSigningKeys(),
    people: [...options.people],
    groups: [...(options.groups ?? [])],
    reports: [...(options.reports ?? [])],
    workspaces: [...(options.workspaces ?? [])],
    datasets: [...(options.datasets ?? [])],
    startedAt: Date.now(),
    embedTokenLifetimeSeconds: options.embedTokenLifetimeSeconds ?? 3600,
    exportDurationMs: options.exportDurationMs ?? DEFAULT_EXPORT_DURATION_MS,
    armCapacities: [],
  };

  // No logger: the stand-ins run inside tests and the demo, whose own output matters.
  // Power BI export ids are ~150 characters of base64: longer than Fastify's default path parameter limit (100).
  const app = Fastify({ logger: false, forceCloseConnections: true, routerOptions: { maxParamLength: 1000 } });
  await app.register(formbody);
  // Root-level, so every service's answers pass through it, the faults' error answers included.
  const exchanges: StandInExchange[] = [];
  if (options.recordExchanges) {
    app.addHook('onSend', async (request, reply, payload) => {
      const exchange = exchangeOf(request, reply, payload);
      if (exchange) exchanges.push(exchange);
      return payload;
    });
  }
  const identity = registerIdentityProvider(app, ctx);
  const graph = registerGraph(app, ctx, options.mailLimits);
  const powerBi = registerPowerBi(app, ctx);
  const embedHost = registerEmbedHost(app, ctx, options.embedScriptDelayMs ?? 0);
  const capacities = registerAzureCapacities(app, ctx, options.capacities ?? [], options.capacityTimings);

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const { port } = app.server.address() as AddressInfo;
  ctx.authorityHost = `http://127.0.0.1:${port}`;
  ctx.issuer = `${ctx.authorityHost}/${ctx.tenantId}/v2.0`;

  return {
    authorityHost: ctx.authorityHost,
    issuer: ctx.issuer,
    graphUrl: ctx.authorityHost,
    tenantId: ctx.tenantId,
    clientId: ctx.clientId,
    clientSecret: ctx.clientSecret,
    identity,
    graph,
    powerBiApiUrl: ctx.authorityHost,
    embedHostUrl: `${ctx.authorityHost}/reportEmbed`,
    embedHost,
    powerBi,
    managementUrl: ctx.authorityHost,
    capacities,
    exchanges,
    clearExchanges: () => {
      exchanges.length = 0;
    },
    close: () => app.close(),
  };
}

/** The portal's environment variables that point its real Microsoft clients at these stand-ins. */
export function portalEnvironment(standIns: StandIns): Record<string, string> {
  return {
    AZURE_TENANT_ID: standIns.tenantId,
    AZURE_CLIENT_ID: standIns.clientId,
    AZURE_CLIENT_SECRET: standIns.clientSecret,
    AZURE_AUTHORITY_HOST: standIns.authorityHost,
    GRAPH_API_URL: standIns.graphUrl,
    POWERBI_API_URL: standIns.powerBiApiUrl,
    AZURE_MANAGEMENT_URL: standIns.managementUrl,
  };
}
