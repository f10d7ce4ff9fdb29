import { randomUUID } from 'node:crypto';
import { KEEP_ORIGINAL_ADMINS_ONLY } from '../../../contract/uploads.ts';
import type { Database } from '../../db/connect.ts';
import { forbidden } from '../../http-errors.ts';
import { pixelsMayIdentify } from '../../imaging/dicom/deidentify-report.ts';
import type { Storage } from '../../storage/storage.ts';
import { createDeidentificationRepository } from '../deidentification/deidentification.repository.ts';
import { uidSaltOf } from '../deidentification/uid-salts.repository.ts';
import { createUploadsRepository, type UploadRow } from '../uploads/uploads.repository.ts';
import { createWorkspacesRepository } from '../workspaces/workspaces.repository.ts';
import type { IngestOptions, IngestSource } from './ingest-source.ts';
import type { MemoryBudget } from './memory-budget.ts';
import { cleaningLimits } from './prepare-on-arrival.ts';
import { readSeriesFiles, removeStored, SERIES_MAX_BYTES, storeSeries } from './series-files.ts';
import { receiveSingleFile } from './single-file.ts';
import { createStorageQuota } from './storage-quota.ts';

/** A stored upload as ingest() answers it: the recorded row's listed fields. */
export type IngestedUpload = Pick<
  UploadRow,
  'storedFilename' | 'originalName' | 'extension' | 'sizeBytes' | 'createdAt' | 'sliceCount' | 'format' | 'deidentified'
>;

/** What ingest needs from the server: database, storage, limits and the shared memory budget. */
export interface IngestDependencies {
  db: Database;
  storage: Storage;
  clock: () => Date;
  /** UPLOAD_MAX_BYTES. */
  uploadMaxBytes: number;
  /** WORKSPACE_QUOTA_BYTES, for workspaces without a quota of their own. */
  workspaceQuotaBytes: number;
  memory: MemoryBudget;
}

/** Room left for the multipart framing of a declared Content-Length before the quota's precheck refuses it. */
const ENVELOPE_SLACK_BYTES = 64 * 1024;

/**
 * The one way an image comes in. `ingest(source, options)` checks the workspace quota against what the
 * source declares, reads the file(s) within the size limits and the shared memory budget, sniffs their
 * content, de-identifies them (unless an admin keeps them as sent), groups a series, hashes and stores them,
 * and records each row with its audit event and de-identification report in one transaction that holds the
 * workspace's quota. Doors (POST /uploads, POST /uploads/series, STOW-RS, C-STORE) call it with plain values.
 */
export function createIngest(deps: IngestDependencies) {
  const { db, storage, clock, memory } = deps;
  const uploads = createUploadsRepository({ db });
  const workspaces = createWorkspacesRepository({ db });
  const reports = createDeidentificationRepository({ db });
  const quota = createStorageQuota({ db, defaultQuotaBytes: deps.workspaceQuotaBytes });
  const cleaning = cleaningLimits(memory);

  async function admit(source: IngestSource, options: IngestOptions): Promise<void> {
    if (options.keepOriginal) {
      const membership = await workspaces.resolve(options.userId, options.workspaceId);
      if (membership?.role !== 'admin') throw forbidden(KEEP_ORIGINAL_ADMINS_ONLY);
    }
    // A declared size within the slack cannot be refused before reading: the commit alone decides, one query fewer.
    if (source.declaredBytes !== undefined && source.declaredBytes > ENVELOPE_SLACK_BYTES) {
      await quota.precheck(options.workspaceId, source.declaredBytes, ENVELOPE_SLACK_BYTES);
    }
  }

  async function ingestFile(source: IngestSource, options: IngestOptions): Promise<IngestedUpload[]> {
    const { workspaceId, userId, keepOriginal } = options;
    const file = await receiveSingleFile(source.files, {
      storage,
      limit: deps.uploadMaxBytes,
      keepOriginal,
      uidSalt: () => uidSaltOf(db, workspaceId),
      cleaning,
    });
    const report = file.deidentification;
    const row = {
      id: randomUUID(),
      ownerId: userId,
      workspaceId,
      storedFilename: file.storedFilename,
      originalName: file.displayName,
      extension: file.type.extension,
      sizeBytes: file.size,
      sha256: file.sha256,
      // Text burned into the pixels that could not be blanked leaves the file identifiable: never called de-identified.
      deidentified: file.type.format === 'dcm' && !keepOriginal && !(report && pixelsMayIdentify(report)),
      contentType: file.type.contentType,
      format: file.type.format,
      sliceCount: null,
      createdAt: clock(),
    };
    const event = {
      userId,
      action: 'upload.create',
      ip: options.ip ?? null,
      detail: {
        stored_filename: file.storedFilename,
        name: row.originalName,
        size_bytes: file.size,
        sha256: file.sha256,
        // Keeping the original (deidentify=false) keeps its name too, and is on the record.
        ...(keepOriginal && { kept_original: true, original_name: file.originalName }),
      },
    };
    try {
      await quota.commit(workspaceId, file.size, (tx) =>
        uploads.insert(row, event, report && reports.insertOf(row.id, report), tx),
      );
    } catch (error) {
      await removeStored(storage, [file]);
      throw error;
    }
    return [row];
  }

  async function ingestSeries(source: IngestSource, options: IngestOptions): Promise<IngestedUpload[]> {
    const { workspaceId, userId, keepOriginal } = options;
    const limit = Math.min(deps.uploadMaxBytes, SERIES_MAX_BYTES);
    const hold = memory.hold();
    try {
      const files = await readSeriesFiles(source.files, limit, hold);
      // UIDs are remapped per workspace: slices of one series sent by two members stay one series.
      const uidSalt = keepOriginal ? '' : await uidSaltOf(db, workspaceId);
      const stored = await storeSeries(files, { storage, limit, keepOriginal, uidSalt, hold });
      const rows = stored.map(({ storedFilename, packed, size, sha256 }) => {
        const single = packed.kind === 'file';
        return {
          row: {
            id: randomUUID(),
            ownerId: userId,
            workspaceId,
            storedFilename,
            originalName: packed.name,
            extension: single ? '.dcm' : '.zip',
            sizeBytes: size,
            sha256,
            contentType: single ? 'application/dicom' : 'application/zip',
            format: 'dcm',
            // Burned-in text left in some slice's pixels: never called de-identified.
            deidentified: !keepOriginal && !packed.pixelsMayIdentify,
            seriesInstanceUid: packed.seriesInstanceUid ?? null,
            sliceCount: single ? null : packed.slices,
            createdAt: clock(),
          },
          event: {
            userId,
            action: 'upload.create',
            ip: options.ip ?? null,
            detail: {
              stored_filename: storedFilename,
              name: packed.name,
              size_bytes: size,
              sha256,
              slices: single ? 1 : packed.slices,
              ...(keepOriginal && { kept_original: true }),
            },
          },
          report: single ? packed.report : undefined,
        };
      });
      const bytes = rows.reduce((sum, { row }) => sum + row.sizeBytes, 0);
      try {
        // The items of one upload land together or not at all.
        await quota.commit(workspaceId, bytes, async (tx) => {
          for (const { row, event, report } of rows) {
            await uploads.insert(row, event, report && reports.insertOf(row.id, report), tx);
          }
        });
      } catch (error) {
        await removeStored(storage, stored);
        throw error;
      }
      return rows.map(({ row }) => row);
    } finally {
      hold.release();
    }
  }

  return {
    /**
     * Brings one file or one series into the workspace and answers the stored upload(s). Refusals are HttpErrors
     * (400 nothing or too much sent, 403 keepOriginal by a non-admin, 413 over a size limit or the quota, 415
     * not a supported image, 422 undecodable, 503 memory budget full); nothing refused is left in storage.
     */
    async ingest(source: IngestSource, options: IngestOptions): Promise<IngestedUpload[]> {
      await admit(source, options);
      return source.kind === 'file' ? ingestFile(source, options) : ingestSeries(source, options);
    },
    /** The workspace's storage usage and quota. */
    usage: (workspaceId: string) => quota.usage(workspaceId),
  };
}

/** See createIngest. */
export type Ingest = ReturnType<typeof createIngest>;
