import type { ImageReview, ReviewRating } from '../../../contract/reviews.ts';
import type { Membership } from '../workspaces/workspaces.repository.ts';
import { roleAllows } from '../workspaces/workspace-roles.ts';
import type { ReviewSettingsRepository } from './review-settings.repository.ts';
import { hiddenFrom, reviewState, visibleState } from './review-status.ts';
import type { ReviewsRepository } from './reviews.repository.ts';

/** The repositories the review of one image is read from. */
export interface ReviewDeps {
  reviews: ReviewsRepository;
  settings: ReviewSettingsRepository;
}

/**
 * The review of one image as the caller may see it. Blind reads are applied here, on the server: a rater
 * who has not rated the image gets neither the others' ratings nor anything derived from them.
 */
export async function imageReviewFor(
  deps: ReviewDeps,
  membership: Membership,
  upload: { id: string; storedFilename: string },
): Promise<ImageReview> {
  const [ratings, decision, assignees, settings] = await Promise.all([
    deps.reviews.ratingsOf(upload.id),
    deps.reviews.decisionOf(upload.id),
    deps.reviews.assigneesOf(upload.id),
    deps.settings.get(membership.workspaceId),
  ]);
  const canRate = roleAllows(membership.role, 'rate');
  const tier2 = canRate && settings.tier2UserIds.includes(membership.userId);
  const mine = ratings.find((r) => r.rater_id === membership.userId) ?? null;
  const state = reviewState(
    ratings.map((r) => r.rating as ReviewRating),
    decision?.rating ?? null,
  );
  const hidden = hiddenFrom({ canRate, tier2, hasRated: mine !== null }, state, settings.blind);
  const seen = visibleState(state, hidden);
  return {
    stored_filename: upload.storedFilename,
    status: seen.status,
    escalation: seen.escalation,
    latest: seen.latest,
    my_rating: mine,
    ratings: hidden ? [] : ratings,
    hidden_ratings: hidden ? ratings.length : 0,
    decision,
    assignees,
    can_rate: canRate && decision === null,
    can_decide: tier2 && state.status === 'tier2',
  };
}
