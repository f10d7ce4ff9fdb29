import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { QC_PREFIX, type CommentItem, type CommentThread } from '../../../contract/comments.ts';
import type { Database } from '../../db/connect.ts';
import { users } from '../auth/users.table.ts';
import { commentMentions, comments } from './comments.table.ts';

/** A row of `comments`. */
export type CommentRow = typeof comments.$inferSelect;

/** The name the engine's comments are shown with. */
export const ENGINE_NAME = 'QC engine';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the caller may do with comments, for the can_edit / can_delete flags of each. */
export interface CommentViewer {
  userId: string;
  /** The role allows writing comments (admin, member, reviewer). */
  canComment: boolean;
  /** An admin, who may delete anyone's comment. */
  isAdmin: boolean;
}

type ListedRow = CommentRow & { authorName: string | null; mentions: string[] };

function toItem(row: ListedRow, viewer: CommentViewer): CommentItem {
  const live = row.deletedAt === null;
  const own = row.authorId !== null && row.authorId === viewer.userId;
  return {
    id: row.id,
    parent_id: row.parentId,
    author_id: row.authorId,
    author_name: row.authorId === null ? ENGINE_NAME : (row.authorName ?? ''),
    engine: row.authorId === null,
    text: live ? row.text : '',
    ts: row.createdAt.getTime(),
    edited_ts: row.editedAt?.getTime() ?? null,
    deleted: !live,
    mentions: live ? row.mentions : [],
    can_edit: live && own && viewer.canComment,
    can_delete: live && viewer.canComment && (own || viewer.isAdmin),
  };
}

/**
 * Records the engine's comment for one stored check (the text gets the [QC] prefix), in the caller's
 * transaction so the check and its comment land together.
 */
export async function recordEngineComment(
  db: Database,
  check: { id: string; uploadId: string; text: string; createdAt: Date },
): Promise<void> {
  await db
    .insert(comments)
    .values({
      uploadId: check.uploadId,
      qcResultId: check.id,
      text: `${QC_PREFIX} ${check.text.trim()}`,
      createdAt: check.createdAt,
    })
    .onConflictDoNothing();
}

/** Comments on images and their mentions; the caller has already scoped the upload to a workspace. */
export function createCommentsRepository({ db }: { db: Database }) {
  return {
    /** The image's threads newest first, each with its replies oldest first. */
    async threads(uploadId: string, viewer: CommentViewer): Promise<CommentThread[]> {
      const rows = await db
        .select({
          comment: comments,
          authorName: users.name,
          mentions: sql<
            string[]
          >`coalesce((select array_agg(${commentMentions.userId}::text) from ${commentMentions} where ${commentMentions.commentId} = ${comments.id}), '{}')`,
        })
        .from(comments)
        .leftJoin(users, eq(users.id, comments.authorId))
        .where(eq(comments.uploadId, uploadId))
        .orderBy(asc(comments.createdAt), asc(comments.id));
      const items = rows.map((r) =>
        toItem({ ...r.comment, authorName: r.authorName, mentions: r.mentions ?? [] }, viewer),
      );
      const threads = new Map<string, CommentThread>();
      for (const item of items) if (item.parent_id === null) threads.set(item.id, { ...item, replies: [] });
      for (const item of items) if (item.parent_id !== null) threads.get(item.parent_id)?.replies.push(item);
      return [...threads.values()].reverse();
    },

    /** One live comment on that image, or undefined (unknown, on another image, deleted). */
    async find(uploadId: string, id: string): Promise<CommentRow | undefined> {
      if (!UUID.test(id)) return undefined;
      const [row] = await db
        .select()
        .from(comments)
        .where(and(eq(comments.uploadId, uploadId), eq(comments.id, id), isNull(comments.deletedAt)))
        .limit(1);
      return row;
    },

    /** Stores a person's comment and whom it mentions; returns its id. */
    async insert(
      values: { uploadId: string; parentId: string | null; authorId: string; text: string; createdAt: Date },
      mentioned: string[],
    ): Promise<string> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(comments).values(values).returning({ id: comments.id });
        if (mentioned.length > 0)
          await tx.insert(commentMentions).values(mentioned.map((userId) => ({ commentId: row!.id, userId })));
        return row!.id;
      });
    },

    /** Replaces a comment's text and mentions; returns the members mentioned now and not before. */
    async update(id: string, text: string, editedAt: Date, mentioned: string[]): Promise<string[]> {
      return db.transaction(async (tx) => {
        const before = await tx
          .select({ userId: commentMentions.userId })
          .from(commentMentions)
          .where(eq(commentMentions.commentId, id));
        await tx.update(comments).set({ text, editedAt }).where(eq(comments.id, id));
        await tx.delete(commentMentions).where(eq(commentMentions.commentId, id));
        if (mentioned.length > 0)
          await tx.insert(commentMentions).values(mentioned.map((userId) => ({ commentId: id, userId })));
        const known = new Set(before.map((b) => b.userId));
        return mentioned.filter((userId) => !known.has(userId));
      });
    },

    /**
     * Deletes a comment. One with replies stays as an empty "deleted" entry so the replies keep their
     * thread; a thread left with no live comment at all goes entirely.
     */
    async remove(row: CommentRow, now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        const [reply] = await tx
          .select({ id: comments.id })
          .from(comments)
          .where(eq(comments.parentId, row.id))
          .limit(1);
        if (reply) {
          await tx.update(comments).set({ deletedAt: now, text: '' }).where(eq(comments.id, row.id));
          await tx.delete(commentMentions).where(eq(commentMentions.commentId, row.id));
          return;
        }
        await tx.delete(comments).where(eq(comments.id, row.id));
        if (row.parentId === null) return;
        // The last reply under a deleted comment takes the empty entry with it.
        const [sibling] = await tx
          .select({ id: comments.id })
          .from(comments)
          .where(eq(comments.parentId, row.parentId))
          .limit(1);
        if (!sibling)
          await tx.delete(comments).where(and(eq(comments.id, row.parentId), sql`${comments.deletedAt} is not null`));
      });
    },
  };
}

export type CommentsRepository = ReturnType<typeof createCommentsRepository>;
