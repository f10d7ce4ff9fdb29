import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { METRIC_SETS, runLabel, type MetricSet } from '../../../lib/analysis-models.ts';
import {
  $analysisBatch,
  $analysisChosen,
  $metricSet,
  cancelAnalysis,
  isOver,
  runAnalysis,
  selectMetricSet,
  showLatestBatch,
  stopFollowing,
} from '../../../stores/analysis.ts';
import { $images, loadImages } from '../../../stores/images.ts';
import { $currentWorkspace } from '../../../stores/workspaces.ts';
import AnalysisResults from './AnalysisResults.tsx';
import BatchProgress from './BatchProgress.tsx';
import ImageChooser from './ImageChooser.tsx';
import '../../imaging/imaging.css';
import './analysis.css';

/** /dashboard/analysis: chooses images, checks them as one batch with its progress, and tabulates Pass/Review/Fail. */
export default function AnalysisView() {
  const set = useStore($metricSet);
  const state = useStore($analysisBatch);
  const images = useStore($images);
  const chosen = useStore($analysisChosen);
  const workspace = useStore($currentWorkspace);
  // Checking is an upload-level action on the server (admins and members); reviewers and viewers read results.
  const mayRun = workspace === undefined || workspace.role === 'admin' || workspace.role === 'member';
  useEffect(() => {
    void loadImages();
    void showLatestBatch();
    return stopFollowing;
  }, []);
  const batch = state.status === 'following' || state.status === 'failed' ? state.batch : undefined;
  const running = state.status === 'starting' || (batch !== undefined && !isOver(batch) && state.status !== 'failed');
  const results = state.status === 'following' ? state.results : [];

  return (
    <section aria-labelledby="analysis-title" className="dash-section">
      <h1 id="analysis-title">Analysis</h1>
      <p className="dash-muted">
        Choose images and check them as one batch. Every image is checked once by the built-in engine, whose version is
        on every row of the CSV, which measures everything and gives one verdict; the three metric sets below are views
        of those measurements, not separate models. The CSV has every measurement with its unit.
      </p>
      <div className="analysis-controls">
        <label>
          Metric set
          <select value={set} onChange={(event) => selectMetricSet(event.target.value as MetricSet)}>
            {METRIC_SETS.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        {mayRun ? (
          <>
            <button
              type="button"
              className="dash-primary"
              disabled={running || chosen.length === 0}
              onClick={() => void runAnalysis()}
            >
              {running ? 'Running Analysis...' : runLabel(chosen.length)}
            </button>
            {running && state.status === 'following' && (
              <button
                type="button"
                className="dash-quiet"
                disabled={state.cancelling}
                onClick={() => void cancelAnalysis()}
              >
                {state.cancelling ? 'Cancelling...' : 'Cancel'}
              </button>
            )}
          </>
        ) : (
          <p className="dash-muted">Your role in this workspace lets you read batch results, not run checks.</p>
        )}
      </div>
      {images.loaded && images.items.length === 0 && <p>No images to analyse yet. Upload some in My Images.</p>}
      {images.error && (
        <p role="alert" className="dash-error">
          {images.error}
        </p>
      )}
      {images.items.length > 0 && <ImageChooser />}
      <div aria-live="polite">
        {batch && !isOver(batch) && state.status === 'following' && (
          <p role="status">{batch.status === 'queued' ? 'Waiting to start...' : 'Checking images...'}</p>
        )}
        {batch?.status === 'done' && state.status === 'following' && (
          <p role="status">Analysis complete: {batch.checked} images checked.</p>
        )}
        {batch?.status === 'cancelled' && state.status === 'following' && (
          <p role="status">
            Analysis cancelled: {batch.checked} of {batch.total} images checked.
          </p>
        )}
        {state.status === 'failed' && (
          <p role="alert" className="dash-error">
            {state.message}
          </p>
        )}
      </div>
      {batch && <BatchProgress batch={batch} />}
      {results.length > 0 && <AnalysisResults set={set} rows={results} />}
    </section>
  );
}
