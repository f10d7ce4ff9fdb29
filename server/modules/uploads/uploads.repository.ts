import { and, asc, desc, eq, gt, ilike, inArray, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import type { UploadItem } from '../../../contract/uploads.ts';
import type { Database } from '../../db/connect.ts';
import { notFound } from '../../http-errors.ts';
import { createAuditRepository, type AuditEvent } from '../audit/audit.repository.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { shareLinks, uploads } from './uploads.table.ts';

/** A row of `uploads`. */
export type UploadRow = typeof uploads.$inferSelect;
/** What a new upload needs; an id is made when it has none. */
export type NewUpload = typeof uploads.$inferInsert;

/** Where the bytes of an upload live in the object store. */
export function uploadStorageKey(storedFilename: string): string {
  return `originals/${storedFilename}`;
}

/** The API path of an upload's bytes, as listed in `url`. */
export function uploadUrl(storedFilename: string): string {
  return `/api/v1/uploads/${storedFilename}`;
}

/** The API path of an upload's thumbnail, as listed in `thumbnail_url`. */
export function thumbnailUrl(storedFilename: string): string {
  return `${uploadUrl(storedFilename)}/thumbnail.webp`;
}

/** A pattern for ILIKE matching `text` anywhere, its wildcard characters taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** An upload row as the API lists it (SPEC §3). */
export function toUploadItem(
  row: Pick<UploadRow, 'storedFilename' | 'originalName' | 'extension' | 'sizeBytes' | 'createdAt'> &
    Partial<Pick<UploadRow, 'sliceCount' | 'format' | 'deidentified'>>,
): UploadItem {
  return {
    stored_filename: row.storedFilename,
    original_name_guess: row.originalName,
    extension: row.extension,
    size_bytes: row.sizeBytes,
    modified: Math.floor(row.createdAt.getTime() / 1000),
    url: uploadUrl(row.storedFilename),
    ...(row.sliceCount ? { slice_count: row.sliceCount } : {}),
    // A DICOM file stored with what may identify its patient: kept as sent, or burned-in text left in its pixels.
    ...(row.format === 'dcm' && row.deidentified === false ? { identifiable: true as const } : {}),
  };
}

/** Uploads and their share links; every read is scoped to a workspace. */
export function createUploadsRepository({ db }: { db: Database }) {
  return {
    /**
     * Records a stored upload, its audit event and what `also` inserts (the de-identification report) in one
     * statement: both land or neither does. One statement rather than a transaction of three is one round trip
     * instead of five, which on the embedded PGlite is most of an upload's CPU.
     */
    async insert(
      values: NewUpload & { createdAt: Date },
      event: AuditEvent,
      also?: SQLWrapper,
      tx: Database = db,
    ): Promise<void> {
      // Each insert as bare SQL: drizzle would put a query builder in parentheses, which a CTE cannot end with.
      const upload = db.insert(uploads).values(values).getSQL();
      const audit = createAuditRepository({ db })
        .insertOf({ workspaceId: values.workspaceId, ...event })
        .getSQL();
      // Data-modifying CTEs: PostgreSQL checks the report's foreign key at the end of the statement, when the
      // upload it names is in.
      await tx.execute(
        also
          ? sql`with upload as (${upload}), audit as (${audit}) ${also.getSQL()}`
          : sql`with upload as (${upload}) ${audit}`,
      );
    },

    /**
     * The workspace's uploads to check in a batch, oldest first: those named, those whose original name
     * contains `search` (case-insensitive, as the My Images search), or all. Names not found are left out.
     */
    async listToCheck(workspaceId: string, choice: { storedFilenames?: string[]; search?: string }) {
      const chosen = choice.storedFilenames
        ? inArray(uploads.storedFilename, choice.storedFilenames)
        : choice.search
          ? ilike(uploads.originalName, containing(choice.search))
          : undefined;
      return db
        .select({
          id: uploads.id,
          storedFilename: uploads.storedFilename,
          originalName: uploads.originalName,
          sha256: uploads.sha256,
          format: uploads.format,
        })
        .from(uploads)
        .where(and(eq(uploads.workspaceId, workspaceId), chosen))
        .orderBy(asc(uploads.createdAt), asc(uploads.id));
    },

    /** The workspace's upload of that stored name; 404 when it is unknown or in another workspace. */
    async findInWorkspace(workspaceId: string, storedFilename: string): Promise<UploadRow> {
      const [row] = await db
        .select()
        .from(uploads)
        .where(and(eq(uploads.workspaceId, workspaceId), eq(uploads.storedFilename, storedFilename)))
        .limit(1);
      if (!row) throw notFound('Image not found');
      return row;
    },

    /**
     * Records that the stored bytes of an upload were rewritten (its pixels blanked): new size and hash, and the
     * saved image metadata dropped so it is read again from the new file; `deidentified` once confirmed clean.
     */
    async replaceContent(
      id: string,
      content: { sizeBytes: number; sha256: string; deidentified?: boolean },
      tx: Database = db,
    ): Promise<void> {
      await tx
        .update(uploads)
        .set({ ...content, metadata: null })
        .where(eq(uploads.id, id));
    },

    /** Bytes the workspace's uploads take in storage, read inside `tx` when given (under the quota lock). */
    async usedBytes(workspaceId: string, tx: Database = db): Promise<number> {
      const [row] = await tx
        .select({ used: sql<string>`coalesce(sum(${uploads.sizeBytes}), 0)` })
        .from(uploads)
        .where(eq(uploads.workspaceId, workspaceId));
      return Number(row?.used ?? 0);
    },

    /**
     * Keeps the image metadata read from an upload's file (by a preview or a thumbnail). With `onlyIfUnset`, a
     * value saved meanwhile is left as it is.
     */
    async saveMetadata(
      id: string,
      metadata: Record<string, unknown>,
      options: { onlyIfUnset?: boolean } = {},
      tx: Database = db,
    ): Promise<void> {
      const target = options.onlyIfUnset ? and(eq(uploads.id, id), isNull(uploads.metadata)) : eq(uploads.id, id);
      await tx.update(uploads).set({ metadata }).where(target);
    },

    /** Removes the row (its share links and QC results go with it). */
    async delete(id: string): Promise<void> {
      await db.delete(uploads).where(eq(uploads.id, id));
    },

    /** Makes a share link for one upload and returns its secret, stored only hashed. */
    async createShareLink(uploadId: string, expiresAt: Date, now: Date): Promise<string> {
      const token = newToken();
      await db.insert(shareLinks).values({ uploadId, tokenHash: hashToken(token), expiresAt, createdAt: now });
      return token;
    },

    /** The live (unexpired) share links of one upload, newest first. */
    async listShareLinks(uploadId: string, now: Date) {
      return db
        .select({ id: shareLinks.id, createdAt: shareLinks.createdAt, expiresAt: shareLinks.expiresAt })
        .from(shareLinks)
        .where(and(eq(shareLinks.uploadId, uploadId), gt(shareLinks.expiresAt, now)))
        .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
    },

    /** Removes one share link of one upload at once; false when the upload has no such link. */
    async revokeShareLink(uploadId: string, linkId: string): Promise<boolean> {
      const removed = await db
        .delete(shareLinks)
        .where(and(eq(shareLinks.uploadId, uploadId), eq(shareLinks.id, linkId)))
        .returning({ id: shareLinks.id });
      return removed.length > 0;
    },

    /** The upload a live share token stands for, or undefined when unknown or expired. */
    async findByShareToken(token: string, now: Date): Promise<UploadRow | undefined> {
      const [row] = await db
        .select({ upload: uploads })
        .from(shareLinks)
        .innerJoin(uploads, eq(uploads.id, shareLinks.uploadId))
        .where(and(eq(shareLinks.tokenHash, hashToken(token)), gt(shareLinks.expiresAt, now)))
        .limit(1);
      return row?.upload;
    },
  };
}

export type UploadsRepository = ReturnType<typeof createUploadsRepository>;
