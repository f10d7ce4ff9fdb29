import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { formatMegabytes } from '../../lib/megabytes.ts';
import { relativeAge } from '../../lib/relative-age.ts';
import { $now } from '../../stores/clock.ts';
import { $activity, $metrics, loadOverview } from '../../stores/metrics.ts';
import DateTime from './DateTime.tsx';

/** /dashboard: the three metric cards and Recent Activity. */
export default function OverviewView() {
  const metrics = useStore($metrics);
  const activity = useStore($activity);
  const now = useStore($now);
  useEffect(() => void loadOverview(), []);
  const figure = (pick: (m: { total_images: number; analyzed_images: number; storage_bytes: number }) => string) =>
    metrics.status === 'ready' ? pick(metrics.metrics) : '…';

  return (
    <section aria-labelledby="overview-title" className="dash-section">
      <h1 id="overview-title">Overview</h1>
      {metrics.status === 'failed' && (
        <p role="alert" className="dash-error">
          {metrics.message}
        </p>
      )}
      <ul className="dash-cards" aria-busy={metrics.status === 'loading'}>
        <li className="dash-card">
          <h2>Total Images</h2>
          <p className="dash-figure">{figure((m) => String(m.total_images))}</p>
        </li>
        <li className="dash-card">
          <h2>Analyzed Images</h2>
          <p className="dash-figure">{figure((m) => String(m.analyzed_images))}</p>
        </li>
        <li className="dash-card">
          <h2>Storage Used</h2>
          <p className="dash-figure">{figure((m) => formatMegabytes(m.storage_bytes))}</p>
        </li>
      </ul>
      <h2>Recent Activity</h2>
      {activity.status === 'loading' && <p role="status">Loading activity...</p>}
      {activity.status === 'failed' && <p className="dash-muted">Recent activity is not available right now.</p>}
      {activity.status === 'ready' && activity.items.length === 0 && (
        <p className="dash-muted">
          No activity yet. <a href="/dashboard/images">Upload your first image</a>.
        </p>
      )}
      {activity.status === 'ready' && activity.items.length > 0 && (
        <ul className="dash-activity">
          {activity.items.map((item) => (
            <li key={`${item.kind}-${item.stored_filename}-${item.at}`}>
              <span>
                {item.kind === 'upload' ? 'Uploaded ' : `Quality check (${item.verdict ?? 'done'}) of `}
                <strong>{item.name}</strong>
              </span>
              <DateTime at={item.at * 1000}>{relativeAge(item.at, now)}</DateTime>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
