import { useStore } from '@nanostores/react';
import { reviewRating, type ReviewRating } from '../../../../contract/reviews.ts';
import { $ratingDraft, RATING_LABELS, toggleDraftTag } from '../../../stores/reviews.ts';

/**
 * The three rating buttons with the artefact tags and the note: tier 1 rates with it, tier 2 decides.
 * Keys 1, 2 and 3 press the buttons (handled by the queue); the key shows on each button.
 */
export default function RatingForm({
  idPrefix,
  legend,
  tags,
  store,
  current,
  disabled,
  onSubmit,
  verb,
}: {
  idPrefix: string;
  legend: string;
  tags: string[];
  store: typeof $ratingDraft;
  current: ReviewRating | null;
  disabled: boolean;
  onSubmit: (rating: ReviewRating) => void;
  verb: string;
}) {
  const draft = useStore(store);
  return (
    <div className="review-form">
      <fieldset className="review-tags" id={`${idPrefix}-tags`}>
        <legend>Artefact tags</legend>
        {tags.map((tag) => (
          <label key={tag} className="dash-check">
            <input
              type="checkbox"
              checked={draft.tags.includes(tag)}
              disabled={disabled}
              onChange={() => toggleDraftTag(store, tag)}
            />
            {tag}
          </label>
        ))}
      </fieldset>
      <div className="dash-field">
        <label htmlFor={`${idPrefix}-note`}>Note</label>
        <textarea
          id={`${idPrefix}-note`}
          rows={2}
          maxLength={2000}
          value={draft.note}
          disabled={disabled}
          onChange={(event) => store.set({ ...draft, note: event.target.value })}
        />
      </div>
      <div role="group" aria-label={legend} className="review-buttons">
        {reviewRating.options.map((rating, i) => (
          <button
            key={rating}
            type="button"
            className={`review-rate review-${rating}`}
            aria-pressed={current === rating}
            aria-keyshortcuts={idPrefix === 'rate' ? String(i + 1) : undefined}
            disabled={disabled}
            onClick={() => onSubmit(rating)}
          >
            {verb}
            {RATING_LABELS[rating]}
            {idPrefix === 'rate' && <kbd aria-hidden="true">{i + 1}</kbd>}
          </button>
        ))}
      </div>
    </div>
  );
}
