import { and, desc, eq, getTableName, ilike, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { QcVerdict } from '../../../contract/qc.ts';
import type { UploadItem } from '../../../contract/uploads.ts';
import type { Database } from '../../db/connect.ts';
import { notFound } from '../../http-errors.ts';
import { qcResults } from '../qc/qc.table.ts';
import { thumbnailUrl, toUploadItem } from '../uploads/uploads.repository.ts';
import { uploads } from '../uploads/uploads.table.ts';

/** One row of the library list: what an item shows, its modality and latest QC verdict included. */
export type LibraryRow = Parameters<typeof toUploadItem>[0] & { modality: string | null; verdict: QcVerdict | null };

/** A library row as GET /uploads lists it: the item, its thumbnail, modality and latest QC verdict. */
export function toLibraryItem(row: LibraryRow): UploadItem {
  return {
    ...toUploadItem(row),
    thumbnail_url: thumbnailUrl(row.storedFilename),
    ...(row.modality ? { modality: row.modality } : {}),
    ...(row.verdict ? { qc_verdict: row.verdict } : {}),
  };
}

/** A pattern for ILIKE matching `text` anywhere, its wildcard characters taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The verdict of the latest check of the upload whose id is `uploadId` (a column of the outer query), or null:
 * a scalar subquery for a list to select beside each upload, so the verdicts come in the same statement.
 */
function latestVerdictOf(uploadId: AnyPgColumn): SQL<QcVerdict | null> {
  // Named with its table: drizzle leaves columns unqualified in a query of one table, where the subquery's own
  // columns would then shadow the outer one.
  const outer = sql`${sql.identifier(getTableName(uploadId.table))}.${sql.identifier(uploadId.name)}`;
  const column = (c: AnyPgColumn) => sql`latest.${sql.identifier(c.name)}`;
  return sql<QcVerdict | null>`(select ${column(qcResults.verdict)} from ${qcResults} latest
    where ${column(qcResults.uploadId)} = ${outer}
    order by ${column(qcResults.createdAt)} desc, ${column(qcResults.id)} desc limit 1)`;
}

const libraryColumns = {
  storedFilename: uploads.storedFilename,
  originalName: uploads.originalName,
  extension: uploads.extension,
  sizeBytes: uploads.sizeBytes,
  createdAt: uploads.createdAt,
  sliceCount: uploads.sliceCount,
  format: uploads.format,
  deidentified: uploads.deidentified,
  // Known once the file was read for its metadata, a preview or a thumbnail.
  modality: sql<string | null>`${uploads.metadata}->>'modality'`,
  // In the same statement: an index lookup per listed row instead of a second query naming every id.
  verdict: latestVerdictOf(uploads.id),
};

/**
 * The library's read model: a workspace's images with what the grid shows beside each (modality, latest QC
 * verdict), read in one statement across the uploads and QC tables. It never writes.
 */
export function createLibraryRepository({ db }: { db: Database }) {
  return {
    /**
     * The workspace's uploads, newest first: all of them, or `limit` after the one named `after` (none when
     * that name is unknown), only those whose original name contains `search` when given. `next` names the
     * last row when more may follow.
     */
    async list(
      workspaceId: string,
      page: { limit?: number; after?: string; search?: string } = {},
    ): Promise<{ rows: LibraryRow[]; next?: string }> {
      const conditions = [eq(uploads.workspaceId, workspaceId)];
      if (page.search?.trim()) conditions.push(ilike(uploads.originalName, containing(page.search.trim())));
      if (page.after !== undefined) {
        // Keyset paging on the list's own order: a page never repeats or skips rows inserted meanwhile. The
        // anchor is compared in SQL as a row value, so the index on (workspace, created_at, id) bounds the scan
        // and the database's microseconds are kept (a JS Date would round them to milliseconds). An unknown
        // anchor compares with NULL: no rows.
        conditions.push(
          sql`(${uploads.createdAt}, ${uploads.id}) < (select anchor.created_at, anchor.id from ${uploads} anchor
            where anchor.workspace_id = ${workspaceId} and anchor.stored_filename = ${page.after})`,
        );
      }
      const query = db
        .select(libraryColumns)
        .from(uploads)
        .where(and(...conditions))
        .orderBy(desc(uploads.createdAt), desc(uploads.id));
      const rows =
        page.limit === undefined && page.after === undefined ? await query : await query.limit(page.limit ?? 100);
      const full = page.limit !== undefined && rows.length === page.limit;
      return full ? { rows, next: rows.at(-1)!.storedFilename } : { rows };
    },

    /** One image of the workspace as the list shows it; 404 when it is unknown or in another workspace. */
    async item(workspaceId: string, storedFilename: string): Promise<LibraryRow> {
      const [row] = await db
        .select(libraryColumns)
        .from(uploads)
        .where(and(eq(uploads.workspaceId, workspaceId), eq(uploads.storedFilename, storedFilename)))
        .limit(1);
      if (!row) throw notFound('Image not found');
      return row;
    },
  };
}

/** The library's read model, as `app.repos.library`. */
export type LibraryRepository = ReturnType<typeof createLibraryRepository>;
