import { and, asc, eq, inArray } from 'drizzle-orm';
import { DEFAULT_ARTEFACT_TAGS, type ReviewSettings } from '../../../contract/reviews.ts';
import type { Database } from '../../db/connect.ts';
import { badRequest } from '../../http-errors.ts';
import { roleAllows, type WorkspaceRole } from '../workspaces/workspace-roles.ts';
import { workspaceMembers } from '../workspaces/workspaces.table.ts';
import { reviewSettings, reviewTier2 } from './reviews.table.ts';

/** A workspace's review settings as stored. */
export interface StoredReviewSettings {
  blind: boolean;
  artefactTags: string[];
  tier2UserIds: string[];
}

/** What an admin changes; fields left out keep their value. */
export interface ReviewSettingsChange {
  blind?: boolean;
  artefactTags?: string[];
  tier2UserIds?: string[];
}

/** Review settings and tier-2 grants of workspaces. */
export function createReviewSettingsRepository({ db }: { db: Database }) {
  /** The members among `userIds` whose role may rate; throws 400 naming the first one that is not. */
  async function requireRaters(workspaceId: string, userIds: string[]): Promise<void> {
    if (userIds.length === 0) return;
    const rows = await db
      .select({ userId: workspaceMembers.userId, role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(
        and(
          eq(workspaceMembers.workspaceId, workspaceId),
          // Ids that are not UUIDs would make PostgreSQL fail the comparison: they simply match nobody.
          inArray(workspaceMembers.userId, userIds.filter(isUuid)),
        ),
      );
    const raters = new Set(rows.filter((r) => roleAllows(r.role as WorkspaceRole, 'rate')).map((r) => r.userId));
    const stranger = userIds.find((id) => !raters.has(id));
    if (stranger !== undefined) throw badRequest(`User ${stranger} is not a member of this workspace who may rate`);
  }

  return {
    requireRaters,

    /** The workspace's settings, defaults where none were saved. */
    async get(workspaceId: string): Promise<StoredReviewSettings> {
      const [row] = await db.select().from(reviewSettings).where(eq(reviewSettings.workspaceId, workspaceId));
      const tier2 = await db
        .select({ userId: reviewTier2.userId })
        .from(reviewTier2)
        .where(eq(reviewTier2.workspaceId, workspaceId))
        .orderBy(asc(reviewTier2.createdAt), asc(reviewTier2.userId));
      return {
        blind: row?.blind ?? false,
        artefactTags: row?.artefactTags ?? [...DEFAULT_ARTEFACT_TAGS],
        tier2UserIds: tier2.map((t) => t.userId),
      };
    },

    /** Whether the user is a tier-2 reviewer of the workspace. */
    async isTier2(workspaceId: string, userId: string): Promise<boolean> {
      const [row] = await db
        .select({ userId: reviewTier2.userId })
        .from(reviewTier2)
        .where(and(eq(reviewTier2.workspaceId, workspaceId), eq(reviewTier2.userId, userId)));
      return row !== undefined;
    },

    /** Saves an admin's changes; tier-2 reviewers must be members who may rate (400 otherwise). */
    async update(workspaceId: string, change: ReviewSettingsChange, now: Date): Promise<void> {
      if (change.tier2UserIds) await requireRaters(workspaceId, change.tier2UserIds);
      await db.transaction(async (tx) => {
        if (change.blind !== undefined || change.artefactTags !== undefined) {
          const set = {
            ...(change.blind !== undefined ? { blind: change.blind } : {}),
            ...(change.artefactTags !== undefined ? { artefactTags: change.artefactTags } : {}),
          };
          await tx
            .insert(reviewSettings)
            .values({ workspaceId, ...set })
            .onConflictDoUpdate({ target: reviewSettings.workspaceId, set });
        }
        if (change.tier2UserIds) {
          await tx.delete(reviewTier2).where(eq(reviewTier2.workspaceId, workspaceId));
          const unique = [...new Set(change.tier2UserIds)];
          if (unique.length > 0)
            await tx.insert(reviewTier2).values(unique.map((userId) => ({ workspaceId, userId, createdAt: now })));
        }
      });
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: string) => UUID.test(value);

/** The settings as the API shows them. */
export function toReviewSettings(stored: StoredReviewSettings): ReviewSettings {
  return { blind: stored.blind, artefact_tags: stored.artefactTags, tier2_user_ids: stored.tier2UserIds };
}

export type ReviewSettingsRepository = ReturnType<typeof createReviewSettingsRepository>;
