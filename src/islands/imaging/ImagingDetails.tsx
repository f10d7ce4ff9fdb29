import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { ImageMetadata } from '../../../contract/previews.ts';
import type { UploadItem } from '../../../contract/uploads.ts';
import { VERDICT_LABEL } from '../../lib/analysis-models.ts';
import { $imageMetadata, $qcHistory, loadImageMetadata, loadQcHistory } from '../../stores/imaging.ts';
import './imaging.css';
import DateTime from '../dashboard/DateTime.tsx';

const millimetres = (spacing: number[]) => spacing.map((s) => Number(s.toFixed(3))).join(' × ') + ' mm';

function rows(m: ImageMetadata): [string, string][] {
  // An object without an image (a report, a plan) has no size, spacing or bit depth worth a row.
  const image = m.dimensions.some((d) => d > 0);
  const list: [string, string | null | undefined][] = [
    ['Format', m.format],
    ['SOP class', m.sop_class],
    ['Modality', m.modality],
    ['Dimensions', image ? m.dimensions.join(' × ') : null],
    ['Voxel spacing', m.spacing.some((s) => s > 0) ? millimetres(m.spacing) : null],
    ['Bit depth', m.bit_depth ? `${m.bit_depth}-bit` : null],
    ['Photometric', m.photometric_interpretation],
    [m.format === 'dcm' ? 'Frames' : 'Slices', image ? String(m.slices) : null],
    ['Volumes (4D)', m.time_points ? `${m.time_points} time points` : null],
    ['Orientation', m.orientation],
    ['Study', m.study_description],
    ['Series', m.series_description],
    ['Content date', m.content_date],
    ['Study UID', m.study_instance_uid],
    ['Series UID', m.series_instance_uid],
    ['References', m.references?.length ? m.references.join('; ') : null],
    ['De-identified', m.format === 'dcm' ? (m.deidentified ? 'Yes' : 'No') : null],
  ];
  return list.filter((row): row is [string, string] => typeof row[1] === 'string' && row[1] !== '');
}

/** What the imaging engine knows about the open image: decoded metadata and the history of its checks. */
export default function ImagingDetails({ item }: { item: UploadItem }) {
  const metadata = useStore($imageMetadata);
  const history = useStore($qcHistory);
  useEffect(() => {
    void loadImageMetadata(item);
    void loadQcHistory(item);
  }, [item]);

  return (
    <div className="imaging-details">
      {metadata.status === 'ready' && (
        <>
          <h3>Image</h3>
          {metadata.metadata.no_preview_reason && (
            <p className="dash-muted" data-testid="no-preview-reason">
              No preview: {metadata.metadata.no_preview_reason}
            </p>
          )}
          <dl className="dash-metadata" data-testid="image-metadata">
            {rows(metadata.metadata).map(([term, value]) => (
              <div key={term} className="imaging-pair">
                <dt>{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      <h3>Check history</h3>
      {history.status === 'loading' && <p role="status">Loading history...</p>}
      {history.status === 'failed' && (
        <p role="alert" className="dash-error">
          {history.message}
        </p>
      )}
      {history.status === 'ready' && history.items.length === 0 && <p className="dash-muted">Not checked yet.</p>}
      {history.status === 'ready' && history.items.length > 0 && (
        <ol className="imaging-history" aria-label="Check history" tabIndex={0}>
          {history.items.map((result) => (
            <li key={result.id}>
              <span className={`imaging-verdict imaging-verdict-${result.verdict}`}>
                {VERDICT_LABEL[result.verdict]}
              </span>{' '}
              {result.confidence}/100 · {result.model} · <DateTime at={result.created_at} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
