import type { GrupoPaineis, Painel } from '@paineis/contract/panels';

/**
 * The panel list as one column of items for the window virtualiser: per classification its card's chrome
 * (heading, borders and, when it has no panels, the empty-classification body), one item per panel row, and
 * the gap below the card. Only the items near the viewport are put in the page.
 */
export type ListItem =
  | { kind: 'head'; key: string; groupIndex: number }
  | { kind: 'row'; key: string; groupIndex: number; painel: Painel; index: number }
  | { kind: 'foot'; key: string; groupIndex: number };

/** Where a classification's items are: its rows are the items between `head` and `foot`. */
export interface GroupSpan {
  head: number;
  foot: number;
}

export interface ListLayout {
  items: ListItem[];
  spans: GroupSpan[];
  /** Item index by key, so a panel (the one dragged, the one focused) can be kept in the page. */
  indexOfKey: Map<string, number>;
}

/**
 * The 'Favoritos' group at the top of the list: no classification has this id. Its rows are copies of rows further
 * down, so they have keys of their own (the dragged or focused panel is always its row in its classification).
 */
export const FAVORITOS_ID = -1;

export const headKey = (grupoId: number) => `g${grupoId}`;
export const rowKey = (painelId: number) => `p${painelId}`;
const favouriteKey = (painelId: number) => `s${painelId}`;
const footKey = (grupoId: number) => `f${grupoId}`;

/** One pass over the groups shown: linear in the number of panels, done once per list (not per scroll). */
export function layoutList(groups: readonly GrupoPaineis[]): ListLayout {
  const items: ListItem[] = [];
  const spans: GroupSpan[] = [];
  const indexOfKey = new Map<string, number>();
  const push = (item: ListItem) => {
    indexOfKey.set(item.key, items.length);
    items.push(item);
  };
  groups.forEach((grupo, groupIndex) => {
    const head = items.length;
    push({ kind: 'head', key: headKey(grupo.id), groupIndex });
    const keyOf = grupo.id === FAVORITOS_ID ? favouriteKey : rowKey;
    grupo.paineis.forEach((painel, index) => push({ kind: 'row', key: keyOf(painel.id), groupIndex, painel, index }));
    const foot = items.length;
    push({ kind: 'foot', key: footKey(grupo.id), groupIndex });
    spans.push({ head, foot });
  });
  return { items, spans, indexOfKey };
}

/** Sizes as laid out by the stylesheet (px), used until an item has been measured in the page. */
export interface ItemSizes {
  /** Card heading plus the card's two borders. */
  head: number;
  /** The classification's description, one line. */
  description: number;
  /** The body of a classification with no panels. */
  emptyBody: number;
  row: number;
  /** The border below each row but a classification's last. */
  rowBorder: number;
  /** The margin below each card. */
  gap: number;
}

/**
 * Bootstrap at 16px text: a panel row is one line on a wide screen and wraps under 576px (theme.css): the name, then
 * the actions: Visualizar on one line, an admin's six actions on two (measured on 375px and 414px screens).
 */
export function defaultItemSizes(viewportWidth: number, remPx = 16, adminActions = false): ItemSizes {
  const narrow = viewportWidth < 576;
  return {
    head: narrow ? 98 : 66,
    description: 24,
    emptyBody: 100,
    row: narrow ? (adminActions ? 122 : 87) : 48,
    rowBorder: 1,
    gap: 1.5 * remPx,
  };
}

export function estimateItemSize(item: ListItem, groups: readonly GrupoPaineis[], sizes: ItemSizes): number {
  const grupo = groups[item.groupIndex];
  if (item.kind === 'row')
    return item.index === (grupo?.paineis.length ?? 0) - 1 ? sizes.row - sizes.rowBorder : sizes.row;
  if (item.kind === 'foot') return sizes.gap;
  return (
    sizes.head +
    (grupo?.descricao ? sizes.description : 0) +
    (grupo && grupo.paineis.length === 0 ? sizes.emptyBody : 0)
  );
}

/**
 * The items to render: those the virtualiser picked near the viewport, plus the pinned ones wherever they are (the
 * dragged row, the focused one), each once, in ascending order.
 */
export function withPinned(indexes: number[], pinned: readonly number[]): number[] {
  const extra = pinned.filter((index, i) => !indexes.includes(index) && pinned.indexOf(index) === i);
  return extra.length === 0 ? indexes : [...indexes, ...extra].sort((a, b) => a - b);
}

/** One part of a card's list as rendered: a panel row, or the room taken by rows that are not in the page. */
export type ListSegment =
  { kind: 'row'; painel: Painel; index: number; itemIndex: number } | { kind: 'gap'; key: string; size: number };

/** A classification with something in view, and what of its list to render. */
export interface RenderedGroup {
  groupIndex: number;
  headIndex: number;
  /** Room above the card for the items before it that are not in the page (0 when none). */
  before: number;
  segments: ListSegment[];
}

interface Measured {
  start: number;
  end: number;
}

/**
 * Which cards, rows and filler go in the page for the items the virtualiser asks for (`indexes`, ascending; they
 * need not be contiguous). A card is rendered whole around any of its items, so its heading, borders and
 * accessible list stay as they are; whatever is skipped becomes filler of the measured (or estimated) height, so
 * the page keeps its full height and everything rendered sits where it would without virtualisation.
 */
export function renderedGroups(
  layout: ListLayout,
  indexes: readonly number[],
  measurement: (index: number) => Measured,
  listStart: number,
): { groups: RenderedGroup[]; after: number } {
  const groups: RenderedGroup[] = [];
  let cursor = listStart;
  let i = 0;
  while (i < indexes.length) {
    const first = layout.items[indexes[i]!];
    if (!first) {
      i++;
      continue;
    }
    const { groupIndex } = first;
    const span = layout.spans[groupIndex]!;
    const head = measurement(span.head);
    const group: RenderedGroup = {
      groupIndex,
      headIndex: span.head,
      before: Math.max(0, head.start - cursor),
      segments: [],
    };
    let inner = head.end;
    // This group's items among those asked for: they are contiguous in `indexes`, which is ascending.
    for (; i < indexes.length && layout.items[indexes[i]!]?.groupIndex === groupIndex; i++) {
      const index = indexes[i]!;
      const item = layout.items[index]!;
      if (item.kind !== 'row') continue;
      const row = measurement(index);
      if (row.start > inner) group.segments.push({ kind: 'gap', key: `gap-${index}`, size: row.start - inner });
      group.segments.push({ kind: 'row', painel: item.painel, index: item.index, itemIndex: index });
      inner = row.end;
    }
    const foot = measurement(span.foot);
    if (foot.start > inner) group.segments.push({ kind: 'gap', key: 'gap-end', size: foot.start - inner });
    cursor = foot.end;
    groups.push(group);
  }
  const last = layout.items.length - 1;
  const after = last >= 0 ? Math.max(0, measurement(last).end - cursor) : 0;
  return { groups, after };
}
