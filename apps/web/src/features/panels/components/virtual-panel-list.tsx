import {
  Fragment,
  memo,
  startTransition,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
} from 'react';
import {
  defaultRangeExtractor,
  useWindowVirtualizer,
  type Range,
  type VirtualItem,
  type Virtualizer,
} from '@tanstack/react-virtual';
import type { GrupoPaineis } from '@paineis/contract/panels';
import {
  defaultItemSizes,
  estimateItemSize,
  layoutList,
  renderedGroups,
  rowKey,
  withPinned,
  type ItemSizes,
} from '../utils/list-layout.ts';
import { PanelGroupCard } from './panel-group-card.tsx';
import type { PanelActions } from './panel-row.tsx';

/** Items put in the page beyond each edge of the viewport, so the next row is always there to move onto. */
const OVERSCAN = 4;
/**
 * A list this short (some 60 panels) is cheap to render whole, and then is: the page behaves exactly as it always
 * has (the browser's own find, for one), and windowing only starts where it pays.
 */
const RENDER_ALL_UP_TO = 80;
/**
 * A windowed list is put in the page a few items per frame, until it fills the screen: all of a screen's rows at
 * once made one 40–60 ms task of the page's loading on a modest machine (style and layout of every row's buttons,
 * in a page just started), and no task of it may take over 50 ms (docs/requirements.md#quality-bars).
 */
const ITEMS_PER_FRAME = 4;

interface VirtualPanelListProps extends PanelActions {
  groups: readonly GrupoPaineis[];
  isAdmin: boolean;
  searching: boolean;
  dragDisabled: boolean;
  /** The panel being dragged: it stays in the page however far the list scrolls, or dnd-kit would lose it. */
  draggedId: number | null;
  /** A panel whose drag handle is about to get the focus back: it is rendered wherever it now is. */
  refocusId: number | null;
  onEditGroup: () => void;
  onDeleteGroup: (grupo: GrupoPaineis) => void;
}

type WindowVirtualizer = Virtualizer<Window, Element>;

/**
 * Writes the window's scroll position, unless it is already there. Where the virtualiser last saw the window is
 * checked first: its mount writes exactly that place, and reading window.scrollY then would lay the page out
 * inside React's commit (the whole new list, a long task of its own). Writing the position the window already has
 * does nothing in a browser (and jsdom does not implement it).
 */
function scrollWindow(
  offset: number,
  { adjustments = 0, behavior }: { adjustments?: number; behavior?: ScrollBehavior },
  instance: WindowVirtualizer,
) {
  const top = offset + adjustments;
  if (behavior !== 'smooth') {
    if (instance.scrollOffset !== null && Math.abs(instance.scrollOffset - top) < 0.5) return;
    if (Math.abs(window.scrollY - top) < 0.5) return;
  }
  window.scrollTo({ top, behavior });
}

/**
 * An item's height in the page: a row's own box; for a card (its head item), the card without its list of rows,
 * i.e. the heading and borders. Read when the resize observer reports the element, just after the browser's own
 * layout: when an element mounts (no entry) the size known so far stands, since reading it then, inside React's
 * commit, would force a layout in the middle of it. Until the page is laid out (0, or jsdom), the estimate stands.
 */
function measureItem(element: Element, entry: ResizeObserverEntry | undefined, instance: WindowVirtualizer) {
  const index = instance.indexFromElement(element);
  const known = () =>
    instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
  if (!entry) return known();
  let size = element.getBoundingClientRect().height;
  if (element.getAttribute('data-kind') === 'head') {
    const list = element.querySelector(':scope > ul');
    if (list) size -= list.getBoundingClientRect().height;
  }
  return size > 0 ? size : known();
}

const neverAdjustScroll = () => false;

function rootFontSize() {
  return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
}

/**
 * The classifications and their panels, windowed: only the cards and rows near the viewport are in the page
 * (docs/requirements.md#screen-panel-list), whatever the number of panels. Each card in view is rendered whole
 * (heading, badge, actions, its accessible list), with filler of the right height standing for the rows and
 * cards that are not, so the page scrolls as if everything were there.
 *
 * Drag and drop keeps working: every classification's SortableContext lists all its panels; the dragged row, the
 * focused one and one about to get the focus back are always rendered; the keyboard sensor scrolls the window as
 * the dragged panel moves, and the rows coming into view register as drop targets.
 */
export const VirtualPanelList = memo(function VirtualPanelList({
  groups,
  isAdmin,
  searching,
  dragDisabled,
  draggedId,
  refocusId,
  onEditGroup,
  onDeleteGroup,
  onManageUsers,
  onManageRls,
  onShowAccess,
  onDelete,
}: VirtualPanelListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const layout = useMemo(() => layoutList(groups), [groups]);
  const [sizes] = useState<ItemSizes>(() => defaultItemSizes(window.innerWidth, rootFontSize(), isAdmin));

  // Where the list starts in the page: the title, search box and notices above it push it down. Read when the
  // resize observer reports the page, right after the browser's layout, rather than forcing one during the commit.
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const update = () => {
      const top = list.getBoundingClientRect().top + window.scrollY;
      setScrollMargin((current) => (Math.abs(current - top) < 0.5 ? current : top));
    };
    if (typeof ResizeObserver === 'undefined' || !list.parentElement) {
      update();
      return;
    }
    const observer = new ResizeObserver(update);
    observer.observe(list.parentElement);
    return () => observer.disconnect();
  }, [layout]);

  // Focus is never lost to virtualisation: the row (or card) holding it stays in the page.
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const handleFocus = useCallback(
    (event: FocusEvent<HTMLDivElement>) => {
      const index = (event.target as Element).closest('[data-index]')?.getAttribute('data-index');
      setFocusedKey(index == null ? null : (layout.items[Number(index)]?.key ?? null));
    },
    [layout],
  );
  const handleBlur = useCallback((event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) setFocusedKey(null);
  }, []);

  const pinned = useMemo(() => {
    const keys = [
      draggedId === null ? null : rowKey(draggedId),
      refocusId === null ? null : rowKey(refocusId),
      focusedKey,
    ];
    return keys.flatMap((key) => {
      const index = key === null ? undefined : layout.indexOfKey.get(key);
      return index === undefined ? [] : [index];
    });
  }, [draggedId, refocusId, focusedKey, layout]);

  const windowed = layout.items.length > RENDER_ALL_UP_TO;
  // How many of the items in range are in the page, while the list is being put in it; then all of them.
  const [limit, setLimit] = useState(windowed ? 0 : Infinity);
  const inRange = useRef(0);
  useEffect(() => {
    if (limit === Infinity) return;
    // Once the items so far have been painted: more, as a transition (its render yields to the browser).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() =>
        startTransition(() =>
          setLimit(limit + ITEMS_PER_FRAME >= inRange.current ? Infinity : limit + ITEMS_PER_FRAME),
        ),
      );
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [limit]);

  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      inRange.current = indexes.length;
      return withPinned(indexes.slice(0, limit), pinned);
    },
    [pinned, limit],
  );
  const getItemKey = useCallback((index: number) => layout.items[index]?.key ?? index, [layout]);
  const estimateSize = useCallback(
    (index: number) => {
      const item = layout.items[index];
      return item ? estimateItemSize(item, groups, sizes) : sizes.row;
    },
    [layout, groups, sizes],
  );

  const virtualizer = useWindowVirtualizer({
    count: layout.items.length,
    getItemKey,
    estimateSize,
    measureElement: measureItem,
    rangeExtractor,
    overscan: layout.items.length <= RENDER_ALL_UP_TO ? RENDER_ALL_UP_TO : OVERSCAN,
    scrollMargin,
    scrollToFn: scrollWindow,
    // Rows on the first paint, before the window has been measured.
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    // Where the window is when the list mounts (read in the render, before the list is in the page to lay out).
    initialOffset: () => window.scrollY,
  });

  // A row first measured above the viewport (1px off its estimate, say) would otherwise have the virtualiser write
  // the scroll position to make up for it: that write stops any smooth scroll under way (Bootstrap scrolls smoothly,
  // and so does the keyboard drag), leaving the page far from where it was going. The estimates are close enough
  // for the rows in view not to move noticeably.
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = neverAdjustScroll;
  const virtualItems: VirtualItem[] = virtualizer.getVirtualItems();
  const measurements = virtualizer.measurementsCache;
  const { groups: shown, after } = renderedGroups(
    layout,
    virtualItems.map((item) => item.index),
    (index) => measurements[index]!,
    scrollMargin,
  );
  const measureRef = virtualizer.measureElement;

  return (
    <div ref={listRef} onFocus={handleFocus} onBlur={handleBlur} style={{ overflowAnchor: 'none' }}>
      {shown.map(({ groupIndex, headIndex, before, segments }) => {
        const grupo = groups[groupIndex]!;
        return (
          <Fragment key={grupo.id}>
            {before > 0 && <div aria-hidden="true" style={{ height: before }} />}
            <PanelGroupCard
              grupo={grupo}
              groupIndex={groupIndex}
              headIndex={headIndex}
              segments={segments}
              measureRef={measureRef}
              isAdmin={isAdmin}
              searching={searching}
              dragDisabled={dragDisabled}
              onManageUsers={onManageUsers}
              onManageRls={onManageRls}
              onShowAccess={onShowAccess}
              onDelete={onDelete}
              onEditGroup={onEditGroup}
              onDeleteGroup={onDeleteGroup}
            />
          </Fragment>
        );
      })}
      {after > 0 && <div aria-hidden="true" style={{ height: after }} />}
    </div>
  );
});
