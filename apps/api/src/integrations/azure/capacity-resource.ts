/*
 * The Power BI capacity's Azure resource id, read on its own: the configuration (config/env.ts) parses it without
 * the client and its Entra dependency.
 */

export type CapacityKind = 'embedded' | 'fabric';

export interface CapacityResource {
  subscriptionId: string;
  resourceGroup: string;
  name: string;
  kind: CapacityKind;
  /** The resource id as given. */
  id: string;
}

const RESOURCE_ID =
  /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/(Microsoft\.PowerBIDedicated|Microsoft\.Fabric)\/capacities\/([^/]+)\/?$/i;

/**
 * Parses '/subscriptions/{s}/resourceGroups/{rg}/providers/Microsoft.PowerBIDedicated|Microsoft.Fabric/capacities/{name}'
 * (case-insensitive provider, as ARM's ids are); throws Error with a Portuguese message otherwise.
 */
export function parseCapacityResourceId(id: string): CapacityResource {
  const match = RESOURCE_ID.exec(id.trim());
  if (!match) {
    throw new Error(
      'O id da capacidade deve ser o id de recurso do Azure: /subscriptions/{assinatura}/resourceGroups/{grupo}/' +
        'providers/Microsoft.PowerBIDedicated/capacities/{nome} (Power BI Embedded, SKU A) ou ' +
        '…/providers/Microsoft.Fabric/capacities/{nome} (Fabric, SKU F).',
    );
  }
  const [, subscriptionId, resourceGroup, namespace, name] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
  ];
  return {
    subscriptionId,
    resourceGroup,
    name,
    kind: namespace.toLowerCase() === 'microsoft.fabric' ? 'fabric' : 'embedded',
    id: id.trim(),
  };
}
