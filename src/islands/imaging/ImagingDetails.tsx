import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { ImageMetadata } from '../../../contract/previews.ts';
import type { UploadItem } from '../../../contract/uploads.ts';
import { VERDICT_LABEL } from '../../lib/analysis-models.ts';
import { $imageMetadata, $qcHistory, loadImageMetadata, loadQcHistory } from '../../stores/imaging.ts';
import './imaging.css';

const millimetres = (spacing: number[]) => spacing.map((s) => Number(s.toFixed(3))).join(' × ') + ' mm';

function rows(m: ImageMetadata): [string, string][] {
  const list: [string, string | null][] = [
    ['Format', m.format],
    ['Modality', m.modality],
    ['Dimensions', m.dimensions.join(' × ')],
    ['Voxel spacing', millimetres(m.spacing)],
    ['Bit depth', `${m.bit_depth}-bit`],
    ['Photometric', m.photometric_interpretation],
    [m.format === 'dcm' ? 'Frames' : 'Slices', String(m.slices)],
    ['Orientation', m.orientation],
    ['Study', m.study_description],
    ['Series', m.series_description],
    ['De-identified', m.format === 'dcm' ? (m.deidentified ? 'Yes' : 'No') : null],
  ];
  return list.filter((row): row is [string, string] => row[1] !== null && row[1] !== '');
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
              {result.confidence}/100 · {result.model} · {new Date(result.created_at).toLocaleString()}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
