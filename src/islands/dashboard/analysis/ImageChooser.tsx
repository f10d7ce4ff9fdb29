import { useStore } from '@nanostores/react';
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

/**
 * The list of the user's images to choose from, with a search and a select-all box for what it shows. It stays
 * usable while a batch runs: the next choice can be made meanwhile.
 */
export default function ImageChooser() {
  const images = useStore($images);
  const shown = useStore($analysisCandidates);
  const chosen = new Set(useStore($analysisChosen));
  const query = useStore($analysisSearch);
  const allBox = useRef<HTMLInputElement>(null);
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
        <div className="analysis-image-scroll" role="region" aria-label="Image list" tabIndex={0}>
          <ul className="analysis-image-list" aria-label="Your images">
            {shown.map((item) => (
              <li key={item.stored_filename}>
                <label className="analysis-tick">
                  <input
                    type="checkbox"
                    checked={chosen.has(item.stored_filename)}
                    onChange={(event) => tickImage(item.stored_filename, event.target.checked)}
                  />
                  <span>{displayName(item)}</span>
                  <span className="dash-muted">{formatMegabytes(item.size_bytes)}</span>
                </label>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        images.loaded && images.items.length > 0 && <p>No images found.</p>
      )}
    </fieldset>
  );
}
