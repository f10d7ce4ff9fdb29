import { useStore } from '@nanostores/react';
import type { UploadItem } from '../../../contract/uploads.ts';
import { $qc, checkQuality } from '../../stores/details.ts';

/** Check Quality Control: runs the language-model check and shows its result. */
export default function QcPanel({ item }: { item: UploadItem }) {
  const qc = useStore($qc);
  const running = qc.status === 'running';
  return (
    <div className="dash-qc">
      <button type="button" className="dash-primary" disabled={running} onClick={() => void checkQuality(item)}>
        {running ? 'Checking QC...' : 'Check Quality Control'}
      </button>
      <div aria-live="polite" className="dash-qc-result">
        {qc.status === 'done' && <p className="dash-qc-text">{qc.text}</p>}
        {qc.status === 'empty' && <p>No result</p>}
        {qc.status === 'failed' && (
          <p role="alert" className="dash-error">
            QC failed: {qc.message}
          </p>
        )}
      </div>
    </div>
  );
}
