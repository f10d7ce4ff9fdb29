import { useStore } from '@nanostores/react';
import type { UploadItem } from '../../../contract/uploads.ts';
import { $share, copyShareLink } from '../../stores/details.ts';

/** Copy URL: a 24-hour signed link to this one file, copied with visible feedback. */
export default function SharePanel({ item }: { item: UploadItem }) {
  const share = useStore($share);
  const url = share.status === 'copied' || share.status === 'shown' ? share.url : undefined;
  return (
    <div className="dash-share">
      <button type="button" disabled={share.status === 'working'} onClick={() => void copyShareLink(item)}>
        Copy URL
      </button>
      <p aria-live="polite" className="dash-share-status">
        {share.status === 'copied' && 'Link copied. It works for 24 hours.'}
        {share.status === 'shown' && 'Copy this link (it works for 24 hours):'}
      </p>
      {url && (
        <input
          className="dash-share-url"
          readOnly
          value={url}
          aria-label="Share link"
          onFocus={(event) => event.currentTarget.select()}
        />
      )}
      {share.status === 'failed' && (
        <p role="alert" className="dash-error">
          {share.message}
        </p>
      )}
    </div>
  );
}
