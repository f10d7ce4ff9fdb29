import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $reviewSettings } from '../../../stores/review-settings.ts';
import {
  $currentReview,
  $decisionDraft,
  $queue,
  $queueCurrent,
  $queueError,
  $queuePreview,
  $ratingDraft,
  decideCurrent,
  moveInQueue,
  queueKey,
  RATING_LABELS,
  rateCurrent,
} from '../../../stores/reviews.ts';
import DateTime from '../DateTime.tsx';
import AssignPanel from './AssignPanel.tsx';
import RatingForm from './RatingForm.tsx';

const QC_LABELS = { pass: 'Pass', review: 'Review', fail: 'Fail' } as const;

/** Keys typed into a text field are text, not queue commands. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement)
    return true;
  return target instanceof HTMLInputElement && !['checkbox', 'button'].includes(target.type);
}

/** The image shown in the queue: large preview, its review so far, the rating form and the tier-2 form. */
export default function ReviewQueue() {
  const queue = useStore($queue);
  const item = useStore($queueCurrent);
  const review = useStore($currentReview);
  const preview = useStore($queuePreview);
  const error = useStore($queueError);
  const settings = useStore($reviewSettings);
  const canRate = review?.can_rate ?? false;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      if (event.key === 't') document.querySelector<HTMLInputElement>('#rate-tags input:not(:disabled)')?.focus();
      else if (!queueKey(event.key)) return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  if (queue.status !== 'ready' || !item) return null;
  const name = item.original_name_guess || item.stored_filename;
  const tags = settings?.artefact_tags ?? [];

  return (
    <div className="review-layout">
      <figure className="review-preview">
        {preview.status === 'ready' && <img src={preview.url} alt={`Preview of ${name}`} />}
        {preview.status === 'loading' && <p role="status">Loading preview...</p>}
        {preview.status === 'none' && <p className="dash-muted">No preview for this file type.</p>}
        {preview.status === 'failed' && <p className="dash-error">Image preview not available.</p>}
        <figcaption>
          <strong>{name}</strong> · image {queue.index + 1} of {Math.max(queue.total, queue.items.length)}
          {item.qc_verdict && <> · QC engine: {QC_LABELS[item.qc_verdict]}</>}
        </figcaption>
      </figure>
      <div className="review-side">
        <div className="review-nav">
          <button type="button" onClick={() => void moveInQueue(-1)} aria-keyshortcuts="p ArrowLeft">
            Previous
          </button>
          <button type="button" onClick={() => void moveInQueue(1)} aria-keyshortcuts="n ArrowRight">
            Next
          </button>
        </div>
        {review && <ReviewSummary />}
        {error && (
          <p role="alert" className="dash-error">
            {error}
          </p>
        )}
        {review && (
          <section aria-labelledby="rate-title">
            <h2 id="rate-title">Your rating</h2>
            {!canRate && (
              <p className="dash-muted">
                {review.decision ? 'The final decision is made.' : 'Your role in this workspace reads only.'}
              </p>
            )}
            <RatingForm
              idPrefix="rate"
              legend="Rate this image"
              verb=""
              tags={tags}
              store={$ratingDraft}
              current={review.my_rating?.rating ?? null}
              disabled={!canRate}
              onSubmit={(rating) => void rateCurrent(rating)}
            />
          </section>
        )}
        <AssignPanel />
        {review?.can_decide && (
          <section aria-labelledby="decide-title" className="review-tier2">
            <h2 id="decide-title">Tier-2 decision</h2>
            <p className="dash-muted">Your decision is final.</p>
            <RatingForm
              idPrefix="decide"
              legend="Decide this image"
              verb="Decide "
              tags={tags}
              store={$decisionDraft}
              current={null}
              disabled={false}
              onSubmit={(rating) => void decideCurrent(rating)}
            />
          </section>
        )}
      </div>
    </div>
  );
}

/** The review so far: the status, the final decision, the ratings the caller may see and those withheld. */
function ReviewSummary() {
  const review = useStore($currentReview)!;
  return (
    <section aria-labelledby="summary-title">
      <h2 id="summary-title">Image review</h2>
      <p>
        Status: <strong>{statusText(review.status, review.escalation)}</strong>
      </p>
      {review.decision && (
        <p className="review-decision">
          Final decision: <strong>{RATING_LABELS[review.decision.rating]}</strong> by {review.decision.decided_by_name},{' '}
          <DateTime at={review.decision.decided_at} />
          {review.decision.tags.length > 0 && <> · {review.decision.tags.join(', ')}</>}
          {review.decision.note && <> · “{review.decision.note}”</>}
        </p>
      )}
      {review.hidden_ratings > 0 && (
        <p className="dash-muted">
          {review.hidden_ratings === 1 ? '1 rating is' : `${review.hidden_ratings} ratings are`} hidden until you rate
          (blind reads).
        </p>
      )}
      {review.ratings.length > 0 && (
        <ul className="review-ratings" aria-label="Ratings">
          {review.ratings.map((r) => (
            <li key={r.rater_id}>
              {r.rater_name}: <strong>{RATING_LABELS[r.rating]}</strong>
              {r.tags.length > 0 && <> · {r.tags.join(', ')}</>}
              {r.note && <> · “{r.note}”</>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The status of an image in words. */
function statusText(status: string, escalation: string | null): string {
  switch (status) {
    case 'unrated':
      return 'Not rated yet';
    case 'rated':
      return 'Rated at tier 1';
    case 'tier2':
      return escalation === 'questionable' ? 'Sent to tier 2 (questionable)' : 'Sent to tier 2 (raters disagree)';
    case 'decided':
      return 'Decided at tier 2';
    default:
      return 'Hidden until you rate (blind reads)';
  }
}
