import { useStore } from '@nanostores/react';
import { useState } from 'react';
import type { UploadItem } from '../../../contract/uploads.ts';
import { displayName } from '../../lib/image-search.ts';
import { formatMegabytes } from '../../lib/megabytes.ts';
import { relativeAge } from '../../lib/relative-age.ts';
import { $now } from '../../stores/clock.ts';
import { deleteImage } from '../../stores/images.ts';
import ReviewBadge from './review/ReviewBadge.tsx';
import DateTime from './DateTime.tsx';

/** One image of the grid: name, relative age, size, the 'Uploaded' badge, Details and Delete. */
export default function ImageCard({
  item,
  onDetails,
}: {
  item: UploadItem;
  onDetails: (item: UploadItem, button: HTMLElement) => void;
}) {
  const now = useStore($now);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const name = displayName(item);
  const titleId = `card-${item.stored_filename}`;

  const remove = async () => {
    const failure = await deleteImage(item);
    if (failure) setError(failure);
    setConfirming(false);
  };

  return (
    <li className="dash-image-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="dash-card-name" title={name}>
        {name}
      </h2>
      <p className="dash-card-meta">
        <DateTime at={item.modified * 1000}>{relativeAge(item.modified, now)}</DateTime>
        <span aria-hidden="true"> · </span>
        <span>{formatMegabytes(item.size_bytes)}</span>
        {item.slice_count && <span> · {item.slice_count} slices</span>}
      </p>
      <p>
        <span className="dash-badge">Uploaded</span>
        <ReviewBadge storedFilename={item.stored_filename} />
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
        <div className="dash-confirm" role="group" aria-label={`Confirm deleting ${name}`}>
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
        <p role="alert" className="dash-error">
          {error}
        </p>
      )}
    </li>
  );
}
