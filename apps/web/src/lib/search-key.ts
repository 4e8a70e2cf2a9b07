import { normalizeSearch } from '@paineis/contract/text';

/*
 * Every search of the web app compares searchKey(query) with searchKey(text): the contract's normalizeSearch (as the
 * API searches), worked out faster for lists of tens of thousands (the directory in the links modal).
 */

const BEYOND_LATIN = /[\u0250-\uffff]/;
const CHANGED = /[\u0080-\uffff^`]/g;

// What normalizeSearch makes of each character up to U+024F (ASCII, Latin-1 and Latin Extended-A and B) where that is
// not plain lower-casing: accented letters lose their accent, ^ and ` (diacritics too) disappear. Worked out on the
// first search, not when the first screen loads: normalizeSearch's locale lower-casing loads ICU's data (decision 010).
let latinTable: Map<string, string> | null = null;

function latinChanges(): Map<string, string> {
  if (!latinTable) {
    latinTable = new Map();
    for (let code = 0; code <= 0x24f; code++) {
      const char = String.fromCharCode(code);
      const normalized = normalizeSearch(char);
      if (normalized !== char.toLowerCase().trim()) latinTable.set(char, normalized);
    }
  }
  return latinTable;
}

/**
 * Exactly normalizeSearch (@paineis/contract/text): lower case, without accents and surrounding spaces. In Latin text
 * no character decomposes into more than a letter and its accents, so each one is looked up on its own, and the rest
 * of the string is only lower-cased (normalizeSearch lower-cases decomposed text through the much slower locale
 * path). Anything beyond Latin goes through normalizeSearch itself. search-key.test.ts holds the two to the same result.
 */
export function searchKey(text: string): string {
  if (BEYOND_LATIN.test(text)) return normalizeSearch(text);
  const latin = latinChanges();
  return text
    .replace(CHANGED, (char) => latin.get(char) ?? char)
    .toLowerCase()
    .trim();
}
