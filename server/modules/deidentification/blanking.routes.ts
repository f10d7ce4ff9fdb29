import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  blankingRegionsRequest,
  deidentificationReport,
  MAX_BLANKED_REGIONS,
} from '../../../contract/deidentification.ts';
import { errorResponses } from '../../../contract/errors.ts';
import { storedFilenameParams } from '../../../contract/uploads.ts';
import { conflict, unprocessable } from '../../http-errors.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';
import { encodePng } from '../../imaging/png-encode.ts';
import { displayRange } from '../../imaging/preview-render.ts';
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
 * GET /uploads/{stored_filename}/deidentification/frame.png: the first frame as stored, to draw rectangles on.
 * POST /uploads/{stored_filename}/deidentification/regions: rectangles a member drew on a de-identified DICOM
 * image, blanked in every frame of the stored file (compressed pixel data decoded and stored uncompressed) and
 * listed in its de-identification report. For admins and members; viewers and reviewers only read.
 * POST /uploads/{stored_filename}/deidentification/confirm: a member confirms that, after blanking by hand, no
 * other burned-in text remains: Burned In Annotation becomes NO in the stored file and the image is no longer
 * flagged. Refused (409) before any region was blanked by hand, so an image is never called clean unredacted.
 */
export default async function blankingRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const uploads = app.repos.uploads;
  app.get(
    '/uploads/:stored_filename/deidentification/frame.png',
    {
      preHandler: app.inWorkspace('read'),
      schema: {
        params: storedFilenameParams,
        response: {
          ...errorResponses(401, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request, typedReply) => {
      // The body is PNG bytes, not JSON: the reply is used untyped, outside the error-only response schema.
      const reply = typedReply as unknown as FastifyReply;
      const upload = await uploads.findInWorkspace(
        currentMembership(request).workspaceId,
        request.params.stored_filename,
      );
      if (upload.extension !== '.dcm') throw conflict('Only a single DICOM file has a frame to draw regions on');
      const volume = await app.volumes.load(upload);
      // The first frame as stored, every pixel at its own place (the preview may be turned to the patient's axes
      // and scaled): rectangles drawn on it are in the stored pixels the server blanks.
      const count = volume.width * volume.height * volume.channels;
      const [low, high] = displayRange(volume);
      const scale = 255 / Math.max(1e-9, high - low);
      const bytes = new Uint8Array(count);
      for (let i = 0; i < count; i++) {
        const v = (volume.data[i]! - low) * scale + 0.5;
        bytes[i] = v <= 0 ? 0 : v >= 255 ? 255 : v | 0;
        if (volume.invert) bytes[i] = 255 - bytes[i]!;
      }
      reply.header('content-type', 'image/png').header('cache-control', 'private, no-cache');
      return reply.send(await encodePng(bytes, volume.width, volume.height, volume.channels));
    },
  );

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
          ...errorResponses(400, 401, 403, 404, 409, 413, 422),
        },
      },
    },
    async (request) => {
      const member = currentMembership(request);
      // An upload of another workspace is not found, exactly like one that does not exist.
      const upload = await uploads.findInWorkspace(member.workspaceId, request.params.stored_filename);
      const { regions } = request.body;
      return oneAtATime(upload.id, async () => {
        const reports = app.repos.deidentification;
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
            workspaceId: member.workspaceId,
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

  app.post(
    '/uploads/:stored_filename/deidentification/confirm',
    {
      preHandler: app.inWorkspace('upload'),
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        params: storedFilenameParams,
        response: {
          200: deidentificationReport,
          ...errorResponses(401, 403, 404, 409, 413, 422),
        },
      },
    },
    async (request) => {
      const member = currentMembership(request);
      const upload = await uploads.findInWorkspace(member.workspaceId, request.params.stored_filename);
      return oneAtATime(upload.id, async () => {
        const reports = app.repos.deidentification;
        const report = await reports.find(upload.id);
        if (upload.extension !== '.dcm' || !report) {
          throw conflict('Only a de-identified DICOM file can be confirmed free of burned-in text');
        }
        if (!report.blankedRegions?.length) {
          throw conflict('Blank the burned-in text by hand before confirming that none remains');
        }
        if (report.confirmedClean) throw conflict('This image was already confirmed free of burned-in text');
        const key = uploadStorageKey(upload.storedFilename);
        const bytes = await readObject(app.storage, key, undefined, 'This file is too large to be rewritten');
        const answer = await runImagingTask('markClean', { bytes }, [bytes.buffer as ArrayBuffer]);
        if ('refused' in answer) throw unprocessable(answer.refused);
        const stored = await app.storage.put(key, Readable.from([Buffer.from(answer.bytes)]));
        const updated = {
          ...report,
          burnedInAnnotation: 'NO',
          confirmedClean: { userId: member.userId, name: request.user!.name, at: app.clock().toISOString() },
        };
        await app.db.transaction(async (tx) => {
          await createUploadsRepository({ db: tx }).replaceContent(upload.id, {
            sizeBytes: stored.size,
            sha256: stored.sha256,
            deidentified: true,
          });
          await createDeidentificationRepository({ db: tx }).update(upload.id, updated);
          await createAuditRepository({ db: tx }).record({
            userId: member.userId,
            workspaceId: member.workspaceId,
            action: 'upload.confirm_clean',
            ip: request.ip,
            detail: { stored_filename: upload.storedFilename, sha256: stored.sha256 },
          });
        });
        deletePreviews(app, upload.storedFilename);
        return toReportBody(updated);
      });
    },
  );
}
