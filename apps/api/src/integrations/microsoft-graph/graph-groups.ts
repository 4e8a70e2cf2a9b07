import { isJsonObject as isRecord, MicrosoftError } from '../microsoft-error.ts';

/**
 * Entra groups as Graph's delta query for groups gives them (GET /v1.0/groups/delta, "Use delta query to track
 * changes in groups"): a first round lists every group with its direct members in `members@delta`; a round from a
 * delta link lists only what changed since, a removed member or group marked `@removed`. One group may come in
 * several objects, its members split among them.
 */

/**
 * What the sync asks of each group: its name, description and kind, its visibility (who may join a Microsoft 365
 * group unapproved), and its direct members.
 */
export const GROUP_DELTA_SELECT = 'displayName,description,securityEnabled,groupTypes,visibility,members';

/** Graph's values of `visibility`, as it spells them ("Private, Public, or HiddenMembership"). */
const VISIBILITIES = ['Public', 'Private', 'HiddenMembership'] as const;

/** Security groups and Microsoft 365 groups grant access; distribution lists (neither) grant nothing. */
export type GroupKind = 'seguranca' | 'microsoft365';

export interface GroupMemberChange {
  id: string;
  tipo: 'usuario' | 'grupo';
  removed: boolean;
}

/** One object of a delta page. Properties are absent when the object brings only member changes. */
export interface GroupChange {
  id: string;
  /** The group was deleted (or left the tenant's view): it and its links go. */
  removed: boolean;
  nome?: string;
  descricao?: string | null;
  /** null: a distribution list, which the portal does not keep. Absent when the object says nothing of it. */
  tipo?: GroupKind | null;
  /**
   * Graph's `visibility` ('Public': anyone in the organisation may join unapproved), spelled as Graph documents it;
   * null when unset (a security group). Absent when the object says nothing of it.
   */
  visibilidade?: string | null;
  members: GroupMemberChange[];
}

function malformed(message: string): MicrosoftError {
  return new MicrosoftError('graph', 'malformed', `Microsoft Graph: ${message}`);
}

const MEMBER_TYPES: Record<string, GroupMemberChange['tipo']> = {
  '#microsoft.graph.user': 'usuario',
  '#microsoft.graph.group': 'grupo',
};

/** A group object of a delta page, or `malformed`: a mistyped group must not pass for another. */
export function toGroupChange(item: Record<string, unknown>): GroupChange {
  const { id, displayName, description, securityEnabled, groupTypes, visibility } = item;
  if (typeof id !== 'string' || !id.trim()) throw malformed('grupo sem id na resposta.');
  const change: GroupChange = { id, removed: item['@removed'] !== undefined, members: [] };
  if (displayName !== undefined && displayName !== null) {
    if (typeof displayName !== 'string') throw malformed(`grupo ${id} com displayName de tipo errado.`);
    change.nome = displayName.trim() || id;
  }
  if (description !== undefined) {
    if (description !== null && typeof description !== 'string') {
      throw malformed(`grupo ${id} com description de tipo errado.`);
    }
    change.descricao = description?.trim() || null;
  }
  if (securityEnabled !== undefined || groupTypes !== undefined) {
    if (groupTypes !== undefined && groupTypes !== null && !Array.isArray(groupTypes)) {
      throw malformed(`grupo ${id} com groupTypes de tipo errado.`);
    }
    const unified = Array.isArray(groupTypes) && groupTypes.includes('Unified');
    change.tipo = unified ? 'microsoft365' : securityEnabled === true ? 'seguranca' : null;
  }
  if (visibility !== undefined) {
    if (visibility !== null && typeof visibility !== 'string')
      throw malformed(`grupo ${id} com visibility de tipo errado.`);
    // A value in another case is read as Graph's own, so that 'public' is public too.
    const known = VISIBILITIES.find((v) => v.toLowerCase() === visibility?.trim().toLowerCase());
    change.visibilidade = known ?? (visibility?.trim() || null);
  }
  const members = item['members@delta'];
  if (members !== undefined && members !== null) {
    if (!Array.isArray(members) || !members.every(isRecord)) throw malformed(`grupo ${id} com membros inválidos.`);
    for (const member of members) {
      const tipo = MEMBER_TYPES[String(member['@odata.type'])];
      // Devices, contacts and service principals can be members too: they open no panel.
      if (!tipo) continue;
      if (typeof member.id !== 'string' || !member.id) throw malformed(`membro sem id no grupo ${id}.`);
      change.members.push({ id: member.id, tipo, removed: member['@removed'] !== undefined });
    }
  }
  return change;
}
