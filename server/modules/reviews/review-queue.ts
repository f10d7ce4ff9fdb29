import type { AgreementReport, QueueFilter, QueueItem, ReviewRating } from '../../../contract/reviews.ts';
import { uploadUrl } from '../uploads/uploads.repository.ts';
import { cohenKappa, krippendorffAlphaNominal, pairwiseKappas } from './agreement.ts';
import type { ReviewsRepository } from './reviews.repository.ts';
import { hiddenFrom, reviewState, visibleState } from './review-status.ts';

/** The workspace-wide table the queue and the statistics are computed from. */
export type WorkspaceTable = Awaited<ReturnType<ReviewsRepository['workspaceTable']>>;

/** The caller, as the queue sees them. */
export interface QueueCaller {
  userId: string;
  canRate: boolean;
  tier2: boolean;
  blind: boolean;
}

/** One image of the queue, and whether its tier-1 raters differ (which the caller may see). */
export interface QueueEntry {
  item: QueueItem;
  disagreement: boolean;
}

/**
 * Every image of the workspace as the caller may see it in the queue, oldest upload first. The whole table
 * is read at once: a workspace's ratings are a few rows per image, and the filters need them all.
 */
export function queueItems(table: WorkspaceTable, caller: QueueCaller): QueueEntry[] {
  const byImage = new Map<string, { raterId: string; rating: ReviewRating }[]>();
  for (const cell of table.ratings) {
    const list = byImage.get(cell.uploadId) ?? [];
    list.push(cell);
    byImage.set(cell.uploadId, list);
  }
  return table.images.map((image) => {
    const ratings = byImage.get(image.id) ?? [];
    const mine = ratings.find((r) => r.raterId === caller.userId);
    const state = reviewState(
      ratings.map((r) => r.rating),
      table.decisions.get(image.id) ?? null,
    );
    const hidden = hiddenFrom(
      { canRate: caller.canRate, tier2: caller.tier2, hasRated: mine !== undefined },
      state,
      caller.blind,
    );
    const seen = visibleState(state, hidden);
    const item: QueueItem = {
      stored_filename: image.storedFilename,
      original_name_guess: image.originalName,
      extension: image.extension,
      url: uploadUrl(image.storedFilename),
      modified: Math.floor(image.createdAt.getTime() / 1000),
      status: seen.status,
      latest: seen.latest,
      my_rating: mine?.rating ?? null,
      qc_verdict: table.verdicts.get(image.id) ?? null,
      assigned_to_me: table.mine.has(image.id),
    };
    // Raters who differ on an image still open; hidden from a blind rater who has not rated it.
    return { item, disagreement: seen.status === 'tier2' && new Set(ratings.map((r) => r.rating)).size > 1 };
  });
}

/** Whether an image belongs under a filter of the queue. */
export function matchesFilter({ item, disagreement }: QueueEntry, filter: QueueFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'unrated':
      return item.my_rating === null && item.status !== 'decided';
    case 'flagged':
      return item.qc_verdict === 'review' || item.qc_verdict === 'fail';
    case 'disagreement':
      return disagreement;
    case 'tier2':
      return item.status === 'tier2';
    case 'assigned':
      return item.assigned_to_me;
  }
}

const engineRating = { pass: 'usable', review: 'questionable', fail: 'unusable' } as const;

/**
 * Agreement of the workspace's raters: Cohen's kappa per pair, Krippendorff's alpha over all, and the QC
 * engine's verdict against the human decision (tier-2, else the tier-1 raters' common rating).
 */
export function agreementOf(table: WorkspaceTable, names: Map<string, string>): AgreementReport {
  const cells = table.ratings.map((r) => ({ unit: r.uploadId, rater: r.raterId, value: r.rating }));
  const counts = new Map<string, number>();
  for (const cell of cells) counts.set(cell.rater, (counts.get(cell.rater) ?? 0) + 1);
  const byImage = new Map<string, ReviewRating[]>();
  for (const cell of table.ratings) byImage.set(cell.uploadId, [...(byImage.get(cell.uploadId) ?? []), cell.rating]);
  const engine: string[] = [];
  const human: string[] = [];
  for (const image of table.images) {
    const verdict = table.verdicts.get(image.id);
    const latest = reviewState(byImage.get(image.id) ?? [], table.decisions.get(image.id) ?? null).latest;
    if (!verdict || !latest) continue;
    engine.push(engineRating[verdict]);
    human.push(latest.rating);
  }
  const alpha = krippendorffAlphaNominal(cells);
  return {
    raters: [...counts].map(([id, n]) => ({ user_id: id, name: names.get(id) ?? 'Former member', ratings: n })),
    pairs: pairwiseKappas(cells).map((p) => ({
      rater_a: p.raterA,
      rater_b: p.raterB,
      n: p.n,
      observed: p.observed,
      kappa: p.kappa,
    })),
    workspace: alpha,
    engine: cohenKappa(engine, human),
  };
}
