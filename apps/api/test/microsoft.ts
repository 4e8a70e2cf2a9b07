import { beforeAll, afterAll } from 'vitest';
import { portalEnvironment, startStandIns } from '@paineis/microsoft-stand-ins/stand-ins';
import type {
  StandInAzureCapacity,
  StandIns,
  StandInPerson,
  StandInsOptions,
} from '@paineis/microsoft-stand-ins/types';
import type { Config } from '../src/config/env.ts';
import { testConfig } from './context.ts';

/** Starts the Microsoft stand-ins for this test file; read `.current` inside tests and useTestApp's function. */
export function useStandIns(options: Partial<StandInsOptions> & { people: StandInPerson[] }) {
  const holder = {} as { current: StandIns };
  beforeAll(async () => {
    holder.current = await startStandIns(options);
  });
  afterAll(async () => {
    await holder.current?.close();
  });
  return holder;
}

/** The portal's configuration pointed at the stand-ins, as demo mode does. */
export function microsoftConfig(standIns: StandIns, overrides: Record<string, string> = {}): Config {
  return testConfig({
    ...portalEnvironment(standIns),
    GRAPH_SYNC_INTERVAL_MINUTES: '0',
    ...overrides,
  });
}

export function person(id: string, displayName: string, extra: Partial<StandInPerson> = {}): StandInPerson {
  const mail = `${id}@empresa.com.br`;
  return { id, displayName, mail, userPrincipalName: mail, showOnSignIn: true, ...extra };
}

/** The tests' Power BI capacity (docs/decisions/024-capacity-cost.md): an A1 in Azure, running unless a test says so. */
export const TEST_CAPACITY: StandInAzureCapacity = {
  subscriptionId: '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
  resourceGroup: 'rg-paineis',
  name: 'paineisa1',
  kind: 'embedded',
  sku: 'A1',
};
