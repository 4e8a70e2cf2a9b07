import { describe, expect, it } from 'vitest';
import type { GrupoPaineis, Painel } from '@paineis/contract/panels';
import { grupoPaineis, painel } from '../../../test/data-generators.ts';
import {
  defaultItemSizes,
  estimateItemSize,
  layoutList,
  renderedGroups,
  withPinned,
  type ListLayout,
} from './list-layout.ts';

const p = (id: number, classificacaoId: number): Painel =>
  painel({ id, nomePainel: `P${id}`, classificacaoId, classificacaoNome: `C${classificacaoId}`, ordem: id });
const g = (id: number, ids: number[], descricao: string | null = null): GrupoPaineis =>
  grupoPaineis({ id, nome: `C${id}`, descricao, paineis: ids.map((x) => p(x, id)) });

// Items: 0 head g1, 1-3 rows 11-13, 4 foot g1, 5 head g2 (empty), 6 foot g2, 7 head g3, 8-9 rows 31-32, 10 foot g3.
const groups = [g(1, [11, 12, 13], 'Descrição'), g(2, []), g(3, [31, 32])];

/** Every item 10 px high, laid one after the other from `start`. */
const fixed = (start: number) => (index: number) => ({ start: start + index * 10, end: start + index * 10 + 10 });

describe('layoutList', () => {
  it('lays each classification out as its card chrome, one item per panel, and the gap below it', () => {
    const layout = layoutList(groups);
    expect(layout.items.map((item) => `${item.kind}:${item.key}`)).toEqual([
      'head:g1',
      'row:p11',
      'row:p12',
      'row:p13',
      'foot:f1',
      'head:g2',
      'foot:f2',
      'head:g3',
      'row:p31',
      'row:p32',
      'foot:f3',
    ]);
    expect(layout.spans).toEqual([
      { head: 0, foot: 4 },
      { head: 5, foot: 6 },
      { head: 7, foot: 10 },
    ]);
    expect(layout.indexOfKey.get('p31')).toBe(8);
    expect(layout.items[9]).toMatchObject({ kind: 'row', groupIndex: 2, index: 1, painel: { id: 32 } });
  });

  it('estimates a card by its description and whether it is empty, a row and a gap by the stylesheet', () => {
    const layout = layoutList(groups);
    const sizes = defaultItemSizes(1280);
    const estimate = (index: number) => estimateItemSize(layout.items[index]!, groups, sizes);
    expect(estimate(0)).toBe(sizes.head + sizes.description);
    expect(estimate(1)).toBe(sizes.row);
    // A classification's last row has no border below it.
    expect(estimate(3)).toBe(sizes.row - 1);
    expect(estimate(4)).toBe(24);
    expect(estimate(5)).toBe(sizes.head + sizes.emptyBody);
    expect(estimate(7)).toBe(sizes.head);
    // A phone: rows wrap under their actions.
    expect(defaultItemSizes(400).row).toBeGreaterThan(sizes.row);
    // An admin's six actions take two lines there; on a wide screen they share the name's line.
    expect(defaultItemSizes(400, 16, true).row).toBeGreaterThan(defaultItemSizes(400).row);
    expect(defaultItemSizes(1280, 16, true).row).toBe(sizes.row);
  });
});

describe('renderedGroups', () => {
  const layout: ListLayout = layoutList(groups);

  it('renders everything asked for, with no filler, when every item is asked for', () => {
    const all = layout.items.map((_, i) => i);
    const { groups: shown, after } = renderedGroups(layout, all, fixed(0), 0);
    expect(shown.map((x) => [x.groupIndex, x.headIndex, x.before])).toEqual([
      [0, 0, 0],
      [1, 5, 0],
      [2, 7, 0],
    ]);
    expect(shown[0]!.segments.map((s) => (s.kind === 'row' ? s.painel.id : s.size))).toEqual([11, 12, 13]);
    expect(shown[1]!.segments).toEqual([]);
    expect(after).toBe(0);
  });

  it('renders a card whole around any of its rows, with filler standing for the rows and cards left out', () => {
    // Row 12 alone, then the last row: card 1 with filler for 11 and 13; card 2 skipped; card 3 with filler for 31.
    const { groups: shown, after } = renderedGroups(layout, [2, 9], fixed(100), 100);
    expect(shown.map((x) => x.groupIndex)).toEqual([0, 2]);
    expect(shown[0]!.before).toBe(0);
    expect(shown[0]!.segments).toEqual([
      { kind: 'gap', key: 'gap-2', size: 10 },
      expect.objectContaining({ kind: 'row', itemIndex: 2, index: 1 }),
      { kind: 'gap', key: 'gap-end', size: 10 },
    ]);
    // The empty classification (its card and gap, 20 px) stands as filler before card 3.
    expect(shown[1]!.before).toBe(20);
    expect(shown[1]!.segments).toEqual([
      { kind: 'gap', key: 'gap-9', size: 10 },
      expect.objectContaining({ kind: 'row', itemIndex: 9 }),
    ]);
    expect(after).toBe(0);
  });

  it('keeps the whole height: filler above, inside and below add up to the list', () => {
    const { groups: shown, after } = renderedGroups(layout, [8], fixed(0), 0);
    expect(shown).toHaveLength(1);
    const [card] = shown;
    // Cards 1 and 2 with their gaps (items 0-6) are 70 px above; card 3 holds its head, row 31, filler for row 32.
    expect(card!.before).toBe(70);
    expect(card!.segments.map((s) => (s.kind === 'gap' ? s.size : 'row'))).toEqual(['row', 10]);
    expect(after).toBe(0);
    const withTail = renderedGroups(layout, [1], fixed(0), 0);
    // Below card 1 (items 0-4): items 5-10 are 60 px of filler.
    expect(withTail.after).toBe(60);
  });
});

describe('withPinned', () => {
  it('adds the dragged and the focused row wherever they are, once each, in order', () => {
    expect(withPinned([10, 11, 12], [])).toEqual([10, 11, 12]);
    expect(withPinned([10, 11, 12], [11])).toEqual([10, 11, 12]);
    // The row being dragged with the keyboard is both dragged and focused: it must not be rendered twice.
    expect(withPinned([10, 11, 12], [3, 3])).toEqual([3, 10, 11, 12]);
    expect(withPinned([10, 11, 12], [40, 3, 40])).toEqual([3, 10, 11, 12, 40]);
  });
});
