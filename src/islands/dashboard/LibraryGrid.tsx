import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { UploadItem } from '../../../contract/uploads.ts';
import ImageCard from './ImageCard.tsx';

/** Height of a card in pixels (fixed, so a row's place is known without drawing it). */
export const CARD_HEIGHT = 330;
/** Space between cards, across and down. */
const GAP = 16;
/** Narrowest a card may be; the grid fits as many columns as allow it. */
const MIN_CARD_WIDTH = 220;
/** Rows drawn beyond the screen, above and below, so Tab and quick scrolls find cards already there. */
const OVERSCAN_ROWS = 3;
/** Rows before the end at which the next page is asked for. */
const PREFETCH_ROWS = 4;

/**
 * The My Images grid, virtualised with TanStack Virtual: only the rows on screen (and a few around them)
 * exist in the page, so ten thousand images scroll like ten. The page itself scrolls; cards stay in one
 * list in reading order, each with its position in the list for screen readers.
 */
export default function LibraryGrid({
  items,
  complete,
  onNearEnd,
  onDetails,
}: {
  items: UploadItem[];
  /** True when every page is loaded, so the list's size is known. */
  complete: boolean;
  onNearEnd: () => void;
  onDetails: (item: UploadItem, button: HTMLElement) => void;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  const [box, setBox] = useState({ width: 0, top: 0 });

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const measure = () => {
      const rect = list.getBoundingClientRect();
      setBox({ width: rect.width, top: rect.top + window.scrollY });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    // Content above the grid (the upload progress list) moves it down without resizing it.
    if (list.parentElement) observer.observe(list.parentElement);
    return () => observer.disconnect();
  }, []);

  const columns = Math.max(1, Math.floor((box.width + GAP) / (MIN_CARD_WIDTH + GAP)));
  const cardWidth = box.width ? (box.width - GAP * (columns - 1)) / columns : MIN_CARD_WIDTH;
  const rowCount = Math.ceil(items.length / columns);
  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => CARD_HEIGHT + GAP,
    overscan: OVERSCAN_ROWS,
    scrollMargin: box.top,
  });
  const rows = virtualizer.getVirtualItems();
  const lastRow = rows.at(-1)?.index ?? -1;

  useEffect(() => {
    if (!complete && lastRow >= rowCount - PREFETCH_ROWS) onNearEnd();
  }, [complete, lastRow, rowCount, onNearEnd]);

  return (
    <ul
      ref={listRef}
      className="dash-grid dash-grid-virtual"
      aria-label="Images"
      style={{ height: Math.max(0, virtualizer.getTotalSize() - GAP) }}
    >
      {rows.flatMap((row) =>
        items.slice(row.index * columns, row.index * columns + columns).map((item, column) => (
          <ImageCard
            key={item.stored_filename}
            item={item}
            onDetails={onDetails}
            placement={{
              position: row.index * columns + column + 1,
              setSize: complete ? items.length : -1,
              style: {
                width: cardWidth,
                height: CARD_HEIGHT,
                transform: `translate(${column * (cardWidth + GAP)}px, ${row.start - virtualizer.options.scrollMargin}px)`,
              },
            }}
          />
        )),
      )}
    </ul>
  );
}
