import { useRef } from 'react';
import type { UploadItem } from '../../../contract/uploads.ts';
import { displayName } from '../../lib/image-search.ts';
import { formatMegabytes } from '../../lib/megabytes.ts';
import { isServerPreviewed } from '../../lib/volume-preview-types.ts';
import ImagingDetails from '../imaging/ImagingDetails.tsx';
import VolumePreview from '../imaging/VolumePreview.tsx';
import OpenVolumeViewer from '../viewers/volume/OpenVolumeViewer.tsx';
import CommentsPanel from './CommentsPanel.tsx';
import DeidentificationPanel from './DeidentificationPanel.tsx';
import PreviewPane from './PreviewPane.tsx';
import QcPanel from './QcPanel.tsx';
import ReviewBadge from './review/ReviewBadge.tsx';
import SharePanel from './SharePanel.tsx';
import { useFocusTrap } from './use-focus-trap.ts';
import DateTime from './DateTime.tsx';

/** The details of one image in a modal dialog: preview, QC check, metadata, comments and Copy URL. */
export default function DetailsModal({ item, onClose }: { item: UploadItem; onClose: () => void }) {
  const dialog = useRef<HTMLDivElement>(null);
  useFocusTrap(dialog, onClose);
  const name = displayName(item);

  return (
    <div
      className="dash-backdrop"
      data-testid="details-backdrop"
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div ref={dialog} className="dash-modal" role="dialog" aria-modal="true" aria-labelledby="details-title">
        <div className="dash-modal-head">
          <h2 id="details-title">{name}</h2>
          <button type="button" className="dash-quiet" onClick={onClose} data-autofocus>
            Close
          </button>
        </div>
        <div className="dash-modal-body">
          {isServerPreviewed(item.extension) ? <VolumePreview item={item} name={name} /> : <PreviewPane name={name} />}
          <div className="dash-modal-side">
            <h3>Metadata</h3>
            <dl className="dash-metadata">
              <dt>Original name</dt>
              <dd>{item.original_name_guess || '—'}</dd>
              <dt>Stored name</dt>
              <dd>{item.stored_filename}</dd>
              <dt>Type</dt>
              <dd>{item.extension}</dd>
              <dt>Size</dt>
              <dd>{formatMegabytes(item.size_bytes)}</dd>
              <dt>Uploaded</dt>
              <dd>
                <DateTime at={item.modified * 1000} />
              </dd>
              <dt>Status</dt>
              <dd>Uploaded</dd>
              <dt>Review</dt>
              <dd>
                <ReviewBadge storedFilename={item.stored_filename} text />
              </dd>
            </dl>
            <ImagingDetails item={item} />
            <DeidentificationPanel key={item.stored_filename} item={item} />
            <QcPanel item={item} />
            <SharePanel item={item} />
          </div>
        </div>
        <OpenVolumeViewer item={item} />
        <CommentsPanel storedFilename={item.stored_filename} />
      </div>
    </div>
  );
}
