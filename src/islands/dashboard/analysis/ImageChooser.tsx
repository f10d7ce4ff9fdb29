import { useStore } from '@nanostores/react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { displayName } from '../../../lib/image-search.ts';
import { formatMegabytes } from '../../../lib/megabytes.ts';
import {
  $analysisCandidates,
  $analysisChosen,
  $analysisSearch,
  searchAnalysisImages,
  tickAllShown,
  tickImage,
} from '../../../stores/analysis.ts';
import { $images } from '../../../stores/images.ts';

/** Height of one row of the list in pixels (fixed, so a row's place is known without drawing it). */
const ROW_HEIGHT = 36;
/** Rows drawn beyond the visible part, above and below, so Tab and quick scrolls find them already there. */
const OVERSCAN = 8;

/**
 * The list of the user's images to choose from, with a search and a select-all box for what it shows. It stays
 * usable while a batch runs: the next choice can be made meanwhile. The list is virtualised with TanStack
 * Virtual (only the rows in view exist in the page), so a library of ten thousand ticks as fast as one of ten.
 */
export default function ImageChooser() {
  const images = useStore($images);
  const shown = useStore($analysisCandidates);
  const chosen = new Set(useStore($analysisChosen));
  const query = useStore($analysisSearch);
  const allBox = useRef<HTMLInputElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  // The virtualiser's answers change with every scroll, so this component is rightly left unmemoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
  });
  const shownChosen = shown.filter((item) => chosen.has(item.stored_filename)).length;
  const all = shown.length > 0 && shownChosen === shown.length;
  useEffect(() => {
    if (allBox.current) allBox.current.indeterminate = shownChosen > 0 && !all;
  }, [shownChosen, all]);

  return (
    <fieldset className="analysis-chooser">
      <legend>Images to check</legend>
      <div className="analysis-chooser-bar">
        <label>
          Search images
          <input type="search" value={query} onChange={(event) => searchAnalysisImages(event.target.value)} />
        </label>
        <label className="analysis-tick">
          <input
            ref={allBox}
            type="checkbox"
            checked={all}
            disabled={shown.length === 0}
            onChange={(event) => tickAllShown(event.target.checked)}
          />
          Select all ({shown.length} shown)
        </label>
        <p className="dash-muted" aria-live="polite">
          {chosen.size} of {images.items.length} selected
        </p>
      </div>
      {shown.length > 0 ? (
        // Scrolls on its own, so a keyboard must be able to reach and scroll it.
        <div className="analysis-image-scroll" ref={scroller} role="region" aria-label="Image list" tabIndex={0}>
          <ul className="analysis-image-list" aria-label="Your images" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((row) => {
              const item = shown[row.index]!;
              return (
                <li
                  key={item.stored_filename}
                  aria-posinset={row.index + 1}
                  aria-setsize={shown.length}
                  style={{ height: ROW_HEIGHT, transform: `translateY(${row.start}px)` }}
                >
                  <label className="analysis-tick">
                    <input
                      type="checkbox"
                      checked={chosen.has(item.stored_filename)}
                      onChange={(event) => tickImage(item.stored_filename, event.target.checked)}
                    />
                    <span title={displayName(item)}>{displayName(item)}</span>
                    <span className="dash-muted">{formatMegabytes(item.size_bytes)}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        </div>
      ) : (
        images.loaded && images.items.length > 0 && <p>No images found.</p>
      )}
    </fieldset>
  );
}
