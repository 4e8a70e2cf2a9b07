import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeSearch } from '@paineis/contract/text';
import { searchKey } from './search-key.ts';

const latinChar = fc.integer({ min: 0, max: 0x24f }).map((code) => String.fromCharCode(code));

describe('searchKey', () => {
  it('is exactly normalizeSearch, character by character over Latin and around it', () => {
    for (let code = 0; code <= 0x24f; code++) {
      const char = String.fromCharCode(code);
      for (const text of [char, ` ${char}A `, `x${char}y`, `${char}\u0301`, `${char}${char}`]) {
        expect(searchKey(text), JSON.stringify(text)).toBe(normalizeSearch(text));
      }
    }
  });

  it('is exactly normalizeSearch on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: latinChar, maxLength: 30 }), (text) => searchKey(text) === normalizeSearch(text)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (text) => searchKey(text) === normalizeSearch(text)),
      { numRuns: 2000 },
    );
    for (const text of ['  Gestão de CRÉDITO ', 'İstanbul', 'ΟΔΥΣΣΕΥΣ', 'Ǆemal', 'straße', 'Ångström^`', '']) {
      expect(searchKey(text)).toBe(normalizeSearch(text));
    }
  });

  it("finds 'José' by 'jose' and 'Gestão' by 'GESTAO', as the API's searches do", () => {
    expect(searchKey(' José ')).toBe('jose');
    expect(searchKey('Gestão')).toBe(searchKey('GESTAO'));
    expect(searchKey('ANA@X.COM')).toBe('ana@x.com');
  });
});
