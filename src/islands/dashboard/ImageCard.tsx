import { useStore } from '@nanostores/react';
import { useState, type CSSProperties } from 'react';
import type { UploadItem } from '../../../contract/uploads.ts';
import { displayName } from '../../lib/image-search.ts';
import { formatMegabytes } from '../../lib/megabytes.ts';
import { relativeAge } from '../../lib/relative-age.ts';
import { $now } from '../../stores/clock.ts';
import { deleteFromLibrary } from '../../stores/library.ts';
import CardThumbnail, { useCardThumbnail } from './CardThumbnail.tsx';
import ReviewBadge from './review/ReviewBadge.tsx';
import DateTime from './DateTime.tsx';
import QcVerdictBadge from './QcVerdictBadge.tsx';

/** Where a card sits in the grid: its place for screen readers and its box, set by the virtualised grid. */
export interface CardPlacement {
  position: number;
  /** How many cards the list has, or -1 while more pages may follow. */
  setSize: number;
  style: CSSProperties;
}

/**
 * One image of the grid: its thumbnail, name, relative age, size, the 'Uploaded' badge with the latest
 * review decision, the modality and the latest QC verdict, Details and Delete.
 */
export default function ImageCard({
  item,
  placement,
  onDetails,
}: {
  item: UploadItem;
  placement: CardPlacement;
  onDetails: (item: UploadItem, button: HTMLElement) => void;
}) {
  const now = useStore($now);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const thumbnail = useCardThumbnail(item);
  const name = displayName(item);
  const titleId = `card-${item.stored_filename}`;
  const modality = item.modality ?? thumbnail?.modality;

  const remove = async () => {
    const failure = await deleteFromLibrary(item);
    if (failure) setError(failure);
    setConfirming(false);
  };

  return (
    <li
      className="dash-image-card"
      aria-labelledby={titleId}
      aria-posinset={placement.position}
      aria-setsize={placement.setSize}
      style={placement.style}
    >
      <CardThumbnail thumbnail={thumbnail} />
      <h2 id={titleId} className="dash-card-name" title={name}>
        {name}
      </h2>
      <p className="dash-card-meta">
        <DateTime at={item.modified * 1000}>{relativeAge(item.modified, now)}</DateTime>
        <span aria-hidden="true"> · </span>
        <span>{formatMegabytes(item.size_bytes)}</span>
        {item.slice_count && <span> · {item.slice_count} slices</span>}
      </p>
      <p className="dash-card-badges">
        <span className="dash-badge">Uploaded</span>
        <ReviewBadge storedFilename={item.stored_filename} />
        {modality && (
          <span className="dash-badge dash-badge-modality">
            <span className="visually-hidden">Modality </span>
            {modality}
          </span>
        )}
        <QcVerdictBadge verdict={item.qc_verdict} />
        {item.identifiable && <span className="dash-badge dash-badge-warning">Not de-identified</span>}
      </p>
      <div className="dash-card-actions">
        <button
          type="button"
          onClick={(event) => onDetails(item, event.currentTarget)}
          aria-label={`Details of ${name}`}
        >
          Details
        </button>
        {!confirming && (
          <button
            type="button"
            className="dash-quiet"
            onClick={() => setConfirming(true)}
            aria-label={`Delete ${name}`}
          >
            Delete
          </button>
        )}
      </div>
      {confirming && (
        <div className="dash-confirm dash-card-overlay" role="group" aria-label={`Confirm deleting ${name}`}>
          <p>Delete this image for good?</p>
          <button type="button" className="dash-danger" onClick={() => void remove()} autoFocus>
            Yes, delete
          </button>
          <button type="button" className="dash-quiet" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      )}
      {error && (
        <p role="alert" className="dash-error dash-card-overlay">
          {error}
        </p>
      )}
    </li>
  );
}
