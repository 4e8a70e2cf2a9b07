import type { EmbedInfo, Painel } from '@paineis/contract/panels';
import { PreparedJson } from '../../lib/prepared-json.ts';

/**
 * The answers of opening a panel, prepared once per panel version and embed token: while the token is served from
 * the cache, each request sends the same bytes, compressed once (docs/decisions/009-in-memory-reads.md). Kept by the
 * catalogue's panel object, so they go when the panel changes; at most a few tokens per panel (one per RLS identity).
 */
const answers = new WeakMap<Painel, Map<string, PreparedJson>>();
const TOKENS_PER_PANEL = 64;

export function preparedOpening(panel: Painel, embed: EmbedInfo, withPanel: boolean): PreparedJson {
  let byToken = answers.get(panel);
  if (!byToken) answers.set(panel, (byToken = new Map<string, PreparedJson>()));
  const key = `${withPanel ? 'p' : 't'}${embed.embedToken}`;
  let prepared = byToken.get(key);
  if (!prepared) {
    if (byToken.size >= TOKENS_PER_PANEL) byToken.delete(byToken.keys().next().value!);
    prepared = new PreparedJson(withPanel ? { ...panel, ...embed } : embed);
    byToken.set(key, prepared);
  }
  return prepared;
}
