import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { ANALYSIS_MODELS, runLabel, type AnalysisModel } from '../../../lib/analysis-models.ts';
import { $analysisModel, $analysisRun, runAnalysis, selectAnalysisModel } from '../../../stores/analysis.ts';
import { $images, loadImages } from '../../../stores/images.ts';
import AnalysisResults from './AnalysisResults.tsx';
import '../../imaging/imaging.css';

/** /dashboard/analysis: runs the quality check on the most recent images and tabulates Pass/Review/Fail. */
export default function AnalysisView() {
  const model = useStore($analysisModel);
  const run = useStore($analysisRun);
  const images = useStore($images);
  useEffect(() => void loadImages(), []);
  const available = images.items.length;
  const running = run.status === 'running';

  return (
    <section aria-labelledby="analysis-title" className="dash-section">
      <h1 id="analysis-title">Analysis</h1>
      <p className="dash-muted">
        Each model reports its own measurements of your most recent images; the verdict comes from per-modality
        thresholds on all of them.
      </p>
      <div className="analysis-controls">
        <label>
          Model
          <select value={model} onChange={(event) => selectAnalysisModel(event.target.value as AnalysisModel)}>
            {ANALYSIS_MODELS.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="dash-primary"
          disabled={running || available === 0}
          onClick={() => void runAnalysis()}
        >
          {running ? 'Running Analysis...' : runLabel(available)}
        </button>
      </div>
      {images.loaded && available === 0 && <p>No images to analyse yet. Upload some in My Images.</p>}
      {images.error && (
        <p role="alert" className="dash-error">
          {images.error}
        </p>
      )}
      <div aria-live="polite">
        {running && (
          <p role="status">
            Analysing image {Math.min(run.done + 1, run.total)} of {run.total}...{' '}
            <progress max={run.total} value={run.done} aria-label="Analysis progress" />
          </p>
        )}
        {run.status === 'done' && <p role="status">Analysis complete: {run.rows.length} images checked.</p>}
        {run.status === 'failed' && (
          <p role="alert" className="dash-error">
            {run.message}
          </p>
        )}
      </div>
      {(run.status === 'running' || run.status === 'done') && run.rows.length > 0 && (
        <AnalysisResults model={model} rows={run.rows} />
      )}
    </section>
  );
}
