import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  blankingRegionsRequest,
  deidentificationReport,
  MAX_BLANKED_REGIONS,
} from '../../../contract/deidentification.ts';
import { errorResponse } from '../../../contract/errors.ts';
import { storedFilenameParams } from '../../../contract/uploads.ts';
import { conflict, unprocessable } from '../../http-errors.ts';
import { currentMembership } from '../../plugins/workspace-guard.ts';
import { runImagingTask } from '../../workers/imaging-pool.ts';
import { createAuditRepository } from '../audit/audit.repository.ts';
import { deletePreviews } from '../previews/preview-cleanup.ts';
import { readObject } from '../previews/volume-loader.ts';
import { createUploadsRepository, uploadStorageKey } from '../uploads/uploads.repository.ts';
import { createDeidentificationRepository, toReportBody } from './deidentification.repository.ts';

/**
 * One blanking at a time per upload on this server: two requests at once would each rewrite the file from the
 * same bytes and the second would put back what the first blanked. (Several replicas would need a lock shared
 * between them; the rewrite itself is short.)
 */
const running = new Map<string, Promise<unknown>>();

async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = running.get(key) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(work);
  running.set(key, mine);
  try {
    return await mine;
  } finally {
    if (running.get(key) === mine) running.delete(key);
  }
}

/**
 * POST /uploads/{stored_filename}/deidentification/regions: rectangles a member drew on a de-identified DICOM
 * image, blanked in every frame of the stored file (compressed pixel data decoded and stored uncompressed) and
 * listed in its de-identification report. For admins and members; viewers and reviewers only read.
 */
export default async function blankingRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const uploads = createUploadsRepository({ db: app.db });
  app.post(
    '/uploads/:stored_filename/deidentification/regions',
    {
      preHandler: app.inWorkspace('upload'),
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        params: storedFilenameParams,
        body: blankingRegionsRequest,
        response: {
          200: deidentificationReport,
          400: errorResponse,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
          409: errorResponse,
          413: errorResponse,
          422: errorResponse,
        },
      },
    },
    async (request) => {
      const member = currentMembership(request);
      // An upload of another workspace is not found, exactly like one that does not exist.
      const upload = await uploads.findInWorkspace(member.workspaceId, request.params.stored_filename);
      const { regions } = request.body;
      return oneAtATime(upload.id, async () => {
        const reports = createDeidentificationRepository({ db: app.db });
        const report = await reports.find(upload.id);
        if (upload.extension !== '.dcm' || !report) {
          throw conflict(
            'Regions can be blanked only in a de-identified DICOM file (not a series or a file kept as sent)',
          );
        }
        const before = report.blankedRegions ?? [];
        if (before.length + regions.length > MAX_BLANKED_REGIONS) {
          throw unprocessable(
            `At most ${MAX_BLANKED_REGIONS} regions can be blanked in one file; ${before.length} already are`,
          );
        }
        const key = uploadStorageKey(upload.storedFilename);
        const bytes = await readObject(app.storage, key, undefined, 'This file is too large to be blanked');
        const answer = await runImagingTask('blank', { bytes, regions }, [bytes.buffer as ArrayBuffer]);
        if ('refused' in answer) throw unprocessable(answer.refused);
        // Written beside and renamed over the old file (see Storage.put): a reader sees one or the other, whole.
        const stored = await app.storage.put(key, Readable.from([Buffer.from(answer.bytes)]));
        const blankedAt = app.clock().toISOString();
        const updated = {
          ...report,
          blankedRegions: [...before, ...regions.map((r) => ({ ...r, blankedAt }))],
          pixelDataDecompressed: (report.pixelDataDecompressed ?? false) || answer.decoded,
        };
        await app.db.transaction(async (tx) => {
          await createUploadsRepository({ db: tx }).replaceContent(upload.id, {
            sizeBytes: stored.size,
            sha256: stored.sha256,
          });
          await createDeidentificationRepository({ db: tx }).update(upload.id, updated);
          await createAuditRepository({ db: tx }).record({
            userId: member.userId,
            action: 'upload.blank_regions',
            ip: request.ip,
            detail: { stored_filename: upload.storedFilename, regions: regions.length, sha256: stored.sha256 },
          });
        });
        // The old pixels must never be shown again: previews and the decoded volume are made anew.
        deletePreviews(app, upload.storedFilename);
        return toReportBody(updated);
      });
    },
  );
}
