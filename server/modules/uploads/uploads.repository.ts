import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, sql, type Placeholder } from 'drizzle-orm';
import type { UploadItem } from '../../../contract/uploads.ts';
import type { Database } from '../../db/connect.ts';
import { groupCommit } from '../../db/group-commit.ts';
import { notFound } from '../../http-errors.ts';
import { auditInsertCte, auditValues, type AuditEvent } from '../audit/audit.repository.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { uploadChanges } from './upload-changes.ts';
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

/** An upload row as the API lists it (SPEC §3). */
export function toUploadItem(
  row: Pick<UploadRow, 'storedFilename' | 'originalName' | 'extension' | 'sizeBytes' | 'createdAt'> &
    Partial<Pick<UploadRow, 'sliceCount'>>,
): UploadItem {
  return {
    stored_filename: row.storedFilename,
    original_name_guess: row.originalName,
    extension: row.extension,
    size_bytes: row.sizeBytes,
    modified: Math.floor(row.createdAt.getTime() / 1000),
    url: uploadUrl(row.storedFilename),
    ...(row.sliceCount ? { slice_count: row.sliceCount } : {}),
  };
}

/** An upload to record and the audit event that goes with it. */
interface NewRow {
  values: NewUpload & { createdAt: Date };
  event: AuditEvent;
}

const UPLOAD_FIELDS = [
  'id',
  'ownerId',
  'storedFilename',
  'originalName',
  'extension',
  'sizeBytes',
  'sha256',
  'contentType',
  'format',
  'deidentified',
  'seriesInstanceUid',
  'sliceCount',
  'metadata',
  'createdAt',
] as const satisfies readonly (keyof NewUpload)[];

/** The placeholders of the row at `index` of a multi-row insert, named as `valuesOf` fills them. */
const placeholdersOf = (index: number) =>
  Object.fromEntries(UPLOAD_FIELDS.map((name) => [name, sql.placeholder(`${name}${index}`)])) as Record<
    (typeof UPLOAD_FIELDS)[number],
    Placeholder
  >;

/** The placeholder values of a statement made by `insertStatement(rows.length)`. */
function valuesOf(rows: NewRow[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  rows.forEach(({ values: row, event }, i) => {
    const filled = {
      // Made here rather than by the column default: PGlite draws gen_random_uuid() from /dev/urandom
      // through its emulated file system, an open, a read and a close for every row.
      id: randomUUID(),
      deidentified: false,
      seriesInstanceUid: null,
      sliceCount: null,
      metadata: null,
      ...row,
    };
    for (const name of UPLOAD_FIELDS) values[`${name}${i}`] = filled[name];
    Object.assign(values, auditValues(event, i));
  });
  return values;
}

/** Uploads and their share links; every read is scoped to an owner. */
export function createUploadsRepository({ db }: { db: Database }) {
  // Built once for each number of rows: making the statement anew cost a quarter of a millisecond per
  // upload, a third of the insert.
  const statements = new Map<number, ReturnType<typeof buildInsert>>();
  const buildInsert = (count: number) =>
    db
      .with(auditInsertCte(db, count))
      .insert(uploads)
      .values(Array.from({ length: count }, (_, i) => placeholdersOf(i)))
      .prepare(`insert_uploads_with_audit_${count}`);
  const insertStatement = (count: number) => {
    let statement = statements.get(count);
    if (!statement) statements.set(count, (statement = buildInsert(count)));
    return statement;
  };
  const insertUploads = groupCommit(async (rows: NewRow[]) => {
    await insertStatement(rows.length).execute(valuesOf(rows));
  });

  return {
    /**
     * Records a stored upload, and its audit event in the same statement. Uploads stored in the same turn
     * of the event loop, or while another is being recorded, share one statement (see groupCommit).
     * Nothing is read back: the caller already holds every field the API lists (created_at included), and
     * parsing a returned row costs PGlite more than the insert.
     */
    async insert(values: NewUpload & { createdAt: Date }, event: AuditEvent): Promise<void> {
      await insertUploads({ values, event });
      uploadChanges.note(db, values.ownerId);
    },

    /** The owner's uploads as list items, newest first. */
    async listForOwner(ownerId: string): Promise<UploadItem[]> {
      const rows = await db
        .select({
          storedFilename: uploads.storedFilename,
          originalName: uploads.originalName,
          extension: uploads.extension,
          sizeBytes: uploads.sizeBytes,
          createdAt: uploads.createdAt,
          sliceCount: uploads.sliceCount,
        })
        .from(uploads)
        .where(eq(uploads.ownerId, ownerId))
        .orderBy(desc(uploads.createdAt), desc(uploads.id));
      return rows.map(toUploadItem);
    },

    /** The owner's upload of that stored name; 404 when it is unknown or someone else's. */
    async findForOwner(ownerId: string, storedFilename: string): Promise<UploadRow> {
      const [row] = await db
        .select()
        .from(uploads)
        .where(and(eq(uploads.ownerId, ownerId), eq(uploads.storedFilename, storedFilename)))
        .limit(1);
      if (!row) throw notFound('Image not found');
      return row;
    },

    /** Removes the row (its share links and QC results go with it). */
    async delete(id: string): Promise<void> {
      const removed = await db.delete(uploads).where(eq(uploads.id, id)).returning({ ownerId: uploads.ownerId });
      for (const { ownerId } of removed) uploadChanges.note(db, ownerId);
    },

    /** Makes a share link for one upload and returns its secret, stored only hashed. */
    async createShareLink(uploadId: string, expiresAt: Date, now: Date): Promise<string> {
      const token = newToken();
      await db.insert(shareLinks).values({ uploadId, tokenHash: hashToken(token), expiresAt, createdAt: now });
      return token;
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
