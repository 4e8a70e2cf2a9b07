import type { StandInAzureCapacity } from '@paineis/microsoft-stand-ins/types';

/**
 * The demo's Power BI capacity (issue 40): a running A1 in the stand-in's Azure Resource Manager, which every demo
 * report runs on (the stand-in's default Power BI capacity), so pausing it pauses the demo's panels.
 */
export const DEMO_CAPACITY: StandInAzureCapacity = {
  subscriptionId: '5e1f0c2a-7d3b-4c6e-9a8f-0b1d2e3f4a5b',
  resourceGroup: 'rg-paineis-demo',
  name: 'paineisdemo',
  kind: 'embedded',
  sku: 'A1',
  state: 'running',
};

/** How long the demo capacity takes to resume: long enough to see the viewer wait, short enough to wait. */
export const DEMO_RESUME_SECONDS = 10;
