import { describe, expect, it } from 'vitest';
import { hiddenFrom, reviewState, visibleState } from '../../../server/modules/reviews/review-status.ts';

describe('the two-tier rule', () => {
  it('leaves an image without ratings unrated', () => {
    expect(reviewState([], null)).toEqual({ status: 'unrated', escalation: null, latest: null });
  });

  it("takes the tier-1 raters' common rating when they agree on usable or unusable", () => {
    expect(reviewState(['unusable', 'unusable'], null)).toEqual({
      status: 'rated',
      escalation: null,
      latest: { rating: 'unusable', tier: 1 },
    });
  });

  it('sends a questionable rating to tier 2, even a single one, and before a disagreement', () => {
    expect(reviewState(['questionable'], null)).toMatchObject({ status: 'tier2', escalation: 'questionable' });
    expect(reviewState(['usable', 'questionable'], null)).toMatchObject({ escalation: 'questionable' });
  });

  it('sends raters who differ to tier 2', () => {
    expect(reviewState(['usable', 'unusable'], null)).toEqual({
      status: 'tier2',
      escalation: 'disagreement',
      latest: null,
    });
  });

  it('makes the tier-2 decision final, whatever the tier-1 ratings say', () => {
    expect(reviewState(['usable', 'unusable'], 'usable')).toMatchObject({
      status: 'decided',
      latest: { rating: 'usable', tier: 2 },
    });
  });
});

describe('blind reads', () => {
  const escalated = reviewState(['usable', 'unusable'], null);
  const rated = reviewState(['usable'], null);
  const rater = { canRate: true, tier2: false, hasRated: false };

  it('hide the ratings from a rater who has not rated, and show them once they have', () => {
    expect(hiddenFrom(rater, rated, true)).toBe(true);
    expect(hiddenFrom({ ...rater, hasRated: true }, rated, true)).toBe(false);
  });

  it('hide nothing when the setting is off, from a viewer, or once the decision is made', () => {
    expect(hiddenFrom(rater, rated, false)).toBe(false);
    expect(hiddenFrom({ ...rater, canRate: false }, rated, true)).toBe(false);
    expect(hiddenFrom(rater, reviewState(['usable'], 'usable'), true)).toBe(false);
  });

  it('show a tier-2 reviewer the ratings of an image waiting for them, and no others', () => {
    expect(hiddenFrom({ ...rater, tier2: true }, escalated, true)).toBe(false);
    expect(hiddenFrom({ ...rater, tier2: true }, rated, true)).toBe(true);
  });

  it('give nothing derived from the hidden ratings', () => {
    expect(visibleState(escalated, true)).toEqual({ status: 'hidden', escalation: null, latest: null });
    expect(visibleState(escalated, false)).toBe(escalated);
  });
});
