import type { LatestDecision, ReviewRating, ReviewStatus } from '../../../contract/reviews.ts';

/** Where an image stands, from its tier-1 ratings and its tier-2 decision, before anything is hidden. */
export interface ReviewState {
  status: Exclude<ReviewStatus, 'hidden'>;
  escalation: 'questionable' | 'disagreement' | null;
  latest: LatestDecision | null;
}

/**
 * The two-tier rule: a questionable rating, or tier-1 raters who differ, send the image to tier 2, whose
 * decision is final; otherwise the raters' common rating is the latest decision.
 * @example reviewState(['usable', 'unusable'], null) // { status: 'tier2', escalation: 'disagreement', latest: null }
 */
export function reviewState(ratings: readonly ReviewRating[], decision: ReviewRating | null): ReviewState {
  const distinct = new Set(ratings);
  const escalation = distinct.has('questionable') ? 'questionable' : distinct.size > 1 ? 'disagreement' : null;
  if (decision) return { status: 'decided', escalation, latest: { rating: decision, tier: 2 } };
  if (ratings.length === 0) return { status: 'unrated', escalation: null, latest: null };
  if (escalation) return { status: 'tier2', escalation, latest: null };
  return { status: 'rated', escalation: null, latest: { rating: ratings[0]!, tier: 1 } };
}

/** Who asks, as far as blind reads are concerned. */
export interface Viewer {
  /** The caller's role may rate (admin, member, reviewer). */
  canRate: boolean;
  /** The caller is a tier-2 reviewer of the workspace. */
  tier2: boolean;
  /** The caller has rated this image. */
  hasRated: boolean;
}

/**
 * Whether blind reads hide the other raters' ratings (and what follows from them) from this caller: only
 * from someone who may rate and has not, unless the decision is made, or the image awaits them at tier 2.
 */
export function hiddenFrom(viewer: Viewer, state: ReviewState, blind: boolean): boolean {
  if (!blind || !viewer.canRate || viewer.hasRated) return false;
  if (state.status === 'decided' || state.status === 'unrated') return false;
  return !(viewer.tier2 && state.status === 'tier2');
}

/** The state as the caller may see it: all of it, or 'hidden' with nothing derived from others' ratings. */
export function visibleState(
  state: ReviewState,
  hidden: boolean,
): Omit<ReviewState, 'status'> & { status: ReviewStatus } {
  return hidden ? { status: 'hidden', escalation: null, latest: null } : state;
}
