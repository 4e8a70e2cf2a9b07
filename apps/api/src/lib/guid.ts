/**
 * The one spelling of an id Microsoft issues (a workspace, report, dataset, group or person GUID) that the portal keeps
 * and compares: Microsoft answers GUIDs in either case, and the same report must be the same key whoever typed it.
 */
export const guidKey = (id: string): string => id.toLowerCase();
