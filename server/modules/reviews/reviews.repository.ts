import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { DecisionItem, RatingItem, ReviewRating } from '../../../contract/reviews.ts';
import type { Database } from '../../db/connect.ts';
import { users } from '../auth/users.table.ts';
import { qcResults } from '../qc/qc.table.ts';
import { uploads } from '../uploads/uploads.table.ts';
import { imageRatings, reviewAssignments, reviewDecisions } from './reviews.table.ts';

/** What a rater or a tier-2 reviewer sends. */
export interface RatingInput {
  rating: ReviewRating;
  tags: string[];
  note: string;
}

/** One rating of one image in a workspace-wide table. */
export interface RatingCellRow {
  uploadId: string;
  raterId: string;
  rating: ReviewRating;
}

/** Ratings, decisions and assignments of images; callers have already scoped the image to their workspace. */
export function createReviewsRepository({ db }: { db: Database }) {
  return {
    /** The tier-1 ratings of one image with their raters' names, oldest first. */
    async ratingsOf(uploadId: string): Promise<RatingItem[]> {
      const rows = await db
        .select({
          raterId: imageRatings.raterId,
          name: users.name,
          rating: imageRatings.rating,
          tags: imageRatings.tags,
          note: imageRatings.note,
          updatedAt: imageRatings.updatedAt,
        })
        .from(imageRatings)
        .innerJoin(users, eq(users.id, imageRatings.raterId))
        .where(eq(imageRatings.uploadId, uploadId))
        .orderBy(asc(imageRatings.createdAt), asc(imageRatings.id));
      return rows.map((row) => ({
        rater_id: row.raterId,
        rater_name: row.name,
        rating: row.rating as ReviewRating,
        tags: row.tags,
        note: row.note,
        rated_at: row.updatedAt.toISOString(),
      }));
    },

    /** The final decision on one image, if any. */
    async decisionOf(uploadId: string): Promise<DecisionItem | null> {
      const [row] = await db.select().from(reviewDecisions).where(eq(reviewDecisions.uploadId, uploadId));
      if (!row) return null;
      return {
        rating: row.rating as ReviewRating,
        tags: row.tags,
        note: row.note,
        decided_by: row.deciderId,
        decided_by_name: row.deciderName,
        decided_at: row.decidedAt.toISOString(),
      };
    },

    /** The user ids an image is assigned to. */
    async assigneesOf(uploadId: string): Promise<string[]> {
      const rows = await db
        .select({ userId: reviewAssignments.userId })
        .from(reviewAssignments)
        .where(eq(reviewAssignments.uploadId, uploadId))
        .orderBy(asc(reviewAssignments.createdAt), asc(reviewAssignments.userId));
      return rows.map((r) => r.userId);
    },

    /** Gives or changes the rater's tier-1 rating of an image. */
    async rate(uploadId: string, raterId: string, input: RatingInput, now: Date): Promise<void> {
      await db
        .insert(imageRatings)
        .values({ uploadId, raterId, ...input, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [imageRatings.uploadId, imageRatings.raterId],
          set: { rating: input.rating, tags: input.tags, note: input.note, updatedAt: now },
        });
    },

    /** Withdraws the rater's rating of an image; false when there was none. */
    async unrate(uploadId: string, raterId: string): Promise<boolean> {
      const removed = await db
        .delete(imageRatings)
        .where(and(eq(imageRatings.uploadId, uploadId), eq(imageRatings.raterId, raterId)))
        .returning({ id: imageRatings.id });
      return removed.length > 0;
    },

    /** Records the final decision; false when the image already has one (it is never overwritten). */
    async decide(
      uploadId: string,
      decider: { id: string; name: string },
      input: RatingInput,
      now: Date,
    ): Promise<boolean> {
      const made = await db
        .insert(reviewDecisions)
        .values({ uploadId, deciderId: decider.id, deciderName: decider.name, ...input, decidedAt: now })
        .onConflictDoNothing()
        .returning({ uploadId: reviewDecisions.uploadId });
      return made.length > 0;
    },

    /** Replaces the list of members an image is assigned to. */
    async assign(uploadId: string, userIds: string[], now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(reviewAssignments).where(eq(reviewAssignments.uploadId, uploadId));
        if (userIds.length > 0)
          await tx.insert(reviewAssignments).values(userIds.map((userId) => ({ uploadId, userId, createdAt: now })));
      });
    },

    /** The workspace's images, oldest first, with what the queue and the statistics need of each. */
    async workspaceTable(workspaceId: string, callerId: string) {
      const images = await db
        .select({
          id: uploads.id,
          storedFilename: uploads.storedFilename,
          originalName: uploads.originalName,
          extension: uploads.extension,
          createdAt: uploads.createdAt,
        })
        .from(uploads)
        .where(eq(uploads.workspaceId, workspaceId))
        .orderBy(asc(uploads.createdAt), asc(uploads.id));
      const inWorkspace = eq(uploads.workspaceId, workspaceId);
      const ratings = (await db
        .select({ uploadId: imageRatings.uploadId, raterId: imageRatings.raterId, rating: imageRatings.rating })
        .from(imageRatings)
        .innerJoin(uploads, eq(uploads.id, imageRatings.uploadId))
        .where(inWorkspace)
        .orderBy(asc(imageRatings.createdAt), asc(imageRatings.id))) as RatingCellRow[];
      const decisionRows = await db
        .select({ uploadId: reviewDecisions.uploadId, rating: reviewDecisions.rating })
        .from(reviewDecisions)
        .innerJoin(uploads, eq(uploads.id, reviewDecisions.uploadId))
        .where(inWorkspace);
      const verdictRows = await db
        .selectDistinctOn([qcResults.uploadId], { uploadId: qcResults.uploadId, verdict: qcResults.verdict })
        .from(qcResults)
        .innerJoin(uploads, eq(uploads.id, qcResults.uploadId))
        .where(inWorkspace)
        .orderBy(qcResults.uploadId, desc(qcResults.createdAt), desc(qcResults.id));
      const assigned = await db
        .select({ uploadId: reviewAssignments.uploadId })
        .from(reviewAssignments)
        .innerJoin(uploads, eq(uploads.id, reviewAssignments.uploadId))
        .where(and(inWorkspace, eq(reviewAssignments.userId, callerId)));
      return {
        images,
        ratings,
        decisions: new Map(decisionRows.map((d) => [d.uploadId, d.rating as ReviewRating])),
        verdicts: new Map(verdictRows.map((v) => [v.uploadId, v.verdict as 'pass' | 'review' | 'fail'])),
        mine: new Set(assigned.map((a) => a.uploadId)),
      };
    },

    /** Names of users by id, for the agreement report. */
    async namesOf(userIds: string[]): Promise<Map<string, string>> {
      if (userIds.length === 0) return new Map();
      const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, userIds));
      return new Map(rows.map((r) => [r.id, r.name]));
    },
  };
}

export type ReviewsRepository = ReturnType<typeof createReviewsRepository>;
