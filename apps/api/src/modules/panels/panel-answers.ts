import type { EmbedInfo, Painel } from '@paineis/contract/panels';
import { PreparedJson } from '../../lib/prepared-json.ts';

/**
 * The answers of opening a panel, prepared once per panel version and embed token: while the token is served from
 * the cache, each request sends the same bytes, compressed once (docs/decisions/009-in-memory-reads.md). Kept by the
 * catalogue's panel object and the embedding's cached info object (one per token), so they go when either does.
 */
const answers = new WeakMap<Painel, WeakMap<EmbedInfo, { withPanel?: PreparedJson; tokenOnly?: PreparedJson }>>();

export function preparedOpening(panel: Painel, embed: EmbedInfo, withPanel: boolean): PreparedJson {
  let byToken = answers.get(panel);
  if (!byToken) answers.set(panel, (byToken = new WeakMap()));
  let prepared = byToken.get(embed);
  if (!prepared) byToken.set(embed, (prepared = {}));
  if (withPanel) return (prepared.withPanel ??= new PreparedJson({ ...panel, ...embed }));
  return (prepared.tokenOnly ??= new PreparedJson(embed));
}
