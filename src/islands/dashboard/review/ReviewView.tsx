import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { queueFilter, type QueueFilter } from '../../../../contract/reviews.ts';
import { loadReviewSettings } from '../../../stores/review-settings.ts';
import { $queue, $queueAnnouncement, $queueFilter, leaveQueue, loadQueue } from '../../../stores/reviews.ts';
import AgreementPanel from './AgreementPanel.tsx';
import ReviewQueue from './ReviewQueue.tsx';
import ReviewSettingsPanel from './ReviewSettingsPanel.tsx';
import './review.css';

const FILTER_LABELS: Record<QueueFilter, string> = {
  unrated: 'Not rated by me',
  flagged: 'Flagged by the QC engine',
  disagreement: 'Raters disagree',
  tier2: 'Waiting for tier 2',
  assigned: 'Assigned to me',
  all: 'All images',
};

/** /dashboard/review: the keyboard-driven review queue, the agreement between raters and the review settings. */
export default function ReviewView() {
  const queue = useStore($queue);
  const filter = useStore($queueFilter);
  const announcement = useStore($queueAnnouncement);

  useEffect(() => {
    void loadReviewSettings();
    void loadQueue();
    return () => leaveQueue();
  }, []);

  return (
    <section aria-labelledby="review-title" className="dash-section review-view">
      <h1 id="review-title">Review</h1>
      <div className="dash-toolbar review-toolbar">
        <div className="dash-field">
          <label htmlFor="review-filter">Show</label>
          <select
            id="review-filter"
            value={filter}
            onChange={(event) => void loadQueue(event.target.value as QueueFilter)}
          >
            {queueFilter.options.map((option) => (
              <option key={option} value={option}>
                {FILTER_LABELS[option]}
              </option>
            ))}
          </select>
        </div>
        <p className="dash-muted" id="review-keys">
          Keys: <kbd>n</kbd> or <kbd>→</kbd> next, <kbd>p</kbd> or <kbd>←</kbd> previous, <kbd>1</kbd> usable,{' '}
          <kbd>2</kbd> questionable, <kbd>3</kbd> unusable, <kbd>t</kbd> tags.
        </p>
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {queue.status === 'loading' && <p role="status">Loading review queue...</p>}
      {queue.status === 'failed' && (
        <p role="alert" className="dash-error">
          {queue.message}
        </p>
      )}
      {queue.status === 'ready' && queue.items.length === 0 && (
        <p className="dash-empty">No images to review in this filter.</p>
      )}
      <ReviewQueue />
      <h2>Agreement</h2>
      <AgreementPanel />
      <ReviewSettingsPanel />
    </section>
  );
}
