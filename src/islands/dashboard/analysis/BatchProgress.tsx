import type { QcBatch } from '../../../../contract/qc-batch.ts';

/** A batch's progress: a bar (role=progressbar with its values) and the counts so far. */
export default function BatchProgress({ batch }: { batch: QcBatch }) {
  const done = batch.checked + batch.errors;
  const share = batch.total > 0 ? Math.round((done / batch.total) * 100) : 100;
  return (
    <div className="analysis-progress-wrap">
      <div
        role="progressbar"
        aria-label="Batch check progress"
        aria-valuemin={0}
        aria-valuemax={batch.total}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${batch.total} images checked`}
        className="analysis-progress"
      >
        <div className="analysis-progress-bar" style={{ width: `${share}%` }} />
      </div>
      <p className="dash-muted">
        {done} of {batch.total} checked ({share}%) · Pass {batch.pass} · Review {batch.review} · Fail {batch.fail}
        {batch.errors > 0 && ` · Not readable ${batch.errors}`}
      </p>
    </div>
  );
}
