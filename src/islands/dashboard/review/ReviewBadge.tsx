import { useStore } from '@nanostores/react';
import { $latestDecisions, RATING_LABELS } from '../../../stores/reviews.ts';

/**
 * The latest review decision of an image, beside the fixed 'Uploaded' badge: the tier-2 decision, else the
 * tier-1 raters' common rating. `text` renders it as plain words (the details modal), else as a badge.
 */
export default function ReviewBadge({ storedFilename, text = false }: { storedFilename: string; text?: boolean }) {
  const latest = useStore($latestDecisions).get(storedFilename);
  if (!latest) return text ? <>No decision yet</> : null;
  const words = `${RATING_LABELS[latest.rating]} (${latest.tier === 2 ? 'tier-2 decision' : 'tier 1'})`;
  if (text) return <>{words}</>;
  // Short on the card, where the badges share one or two lines of a fixed-height card; spelt out for screen readers.
  return (
    <span className={`dash-badge dash-badge-review review-badge-${latest.rating}`} title={`Review: ${words}`}>
      <span className="visually-hidden">Review: {words}</span>
      <span aria-hidden="true">
        {RATING_LABELS[latest.rating]} · T{latest.tier}
      </span>
    </span>
  );
}
