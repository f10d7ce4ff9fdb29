import { z } from './zod.ts';

/** Prefix of a quality-check result shown among an image's comments (SPEC §8). */
export const QC_PREFIX = '[QC]';

/** Longest comment accepted, in characters. */
export const COMMENT_MAX_LENGTH = 5000;

/** The detail of the 404 for a comment that does not exist on that image. */
export const COMMENT_NOT_FOUND = 'Comment not found';

/** The detail of the 403 for editing or deleting someone else's comment. */
export const COMMENT_NOT_YOURS = 'You can only change your own comments';

const commentText = z
  .string()
  .trim()
  .min(1, 'Comment is empty')
  .max(COMMENT_MAX_LENGTH, `Comment is too long (${COMMENT_MAX_LENGTH} characters at most)`)
  .describe('The comment; "@Name" of a workspace member notifies them by e-mail');

/** Body of POST /uploads/{stored_filename}/comments. */
export const commentCreate = z.object({
  text: commentText,
  parent_id: z
    .string()
    .max(100)
    .nullish()
    .describe('Id of the comment this one replies to; a reply to a reply joins the same thread'),
});
export type CommentCreate = z.infer<typeof commentCreate>;

/** Body of PATCH /uploads/{stored_filename}/comments/{commentId}. */
export const commentUpdate = z.object({ text: commentText });

/** Path of /uploads/{stored_filename}/comments/{commentId}. */
export const commentParams = z.object({
  stored_filename: z.string().max(300).describe('The stored_filename of an upload'),
  // Any text: an id that is not a UUID is simply not found.
  commentId: z.string().max(100).describe('Comment id (UUID)'),
});

/** One comment, as every member of the workspace sees it. */
export const commentItem = z.object({
  id: z.string().describe('Comment id (UUID)'),
  parent_id: z.string().nullable().describe('The comment this one replies to, or null for a thread'),
  author_id: z.string().nullable().describe('User id of the author; null for the QC engine'),
  author_name: z.string().describe('Display name of the author, or "QC engine"'),
  engine: z.boolean().describe('True for a quality-check result, written by the QC engine'),
  text: z.string().describe('The comment; empty for a deleted comment kept for its replies'),
  ts: z.number().int().describe('When it was written, in milliseconds since the epoch'),
  edited_ts: z.number().int().nullable().describe('When its author last edited it, or null'),
  deleted: z.boolean().describe('True for a deleted comment kept because it has replies'),
  mentions: z.array(z.string()).describe('User ids of the members it mentions'),
  can_edit: z.boolean().describe('Whether the caller may edit it'),
  can_delete: z.boolean().describe('Whether the caller may delete it'),
});
export type CommentItem = z.infer<typeof commentItem>;

/** A comment that starts a thread, with its replies oldest first. */
export const commentThread = commentItem.extend({ replies: z.array(commentItem) });
export type CommentThread = z.infer<typeof commentThread>;

/** Answer of GET /uploads/{stored_filename}/comments: threads newest first. */
export const commentThreadList = z.array(commentThread);
