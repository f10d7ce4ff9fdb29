import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/errors.ts';
import { uploadList } from '../../../contract/uploads.ts';
import { badRequest, HttpError, tooLarge, unsupportedType } from '../../http-errors.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';
import { uidSaltOf } from '../deidentification/uid-salts.repository.ts';
import { createDeidentificationRepository } from '../deidentification/deidentification.repository.ts';
import { imagingHttpError } from '../previews/imaging-errors.ts';
import { keepsOriginal } from './prepare-on-arrival.ts';
import { expandArchives, groupSeries, packSeries, type ArrivedSlice } from './series.ts';
import { cleanOriginalName, newStoredFilename } from './upload-names.ts';
import { createUploadsRepository, toUploadItem, uploadStorageKey } from './uploads.repository.ts';

const errors = errorResponses(400, 401, 403, 404, 413, 415, 422);
// Slices are read whole to be grouped; a series upload is capped below the single-file limit.
const SERIES_MAX_BYTES = 1024 * 1024 * 1024;
const SERIES_MAX_FILES = 4000;

/**
 * `POST /uploads/series`: DICOM files (many, or in one .zip) grouped by Study and Series Instance UID
 * into one item per series, named from its modality and description; a file of no series with others
 * stays an item of its own, named as if uploaded alone.
 */
export default async function seriesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const repo = createUploadsRepository({ db: app.db });
  const limit = Math.min(app.config.uploadMaxBytes, SERIES_MAX_BYTES);
  await app.register(multipart, { limits: { fileSize: limit, files: SERIES_MAX_FILES, fields: 20 } });

  app.post(
    '/uploads/series',
    { preHandler: app.inWorkspace('upload'), schema: { response: { 201: uploadList, ...errors } } },
    async (request, reply) => {
      const member = currentMembership(request);
      if (!request.isMultipart()) throw badRequest('Send DICOM slices or one .zip as multipart/form-data');
      const files: ArrivedSlice[] = [];
      let total = 0;
      try {
        for await (const part of request.parts()) {
          if (part.type !== 'file') continue;
          const bytes = await part.toBuffer();
          total += bytes.length;
          if (total > limit) throw tooLarge(`A series upload may hold at most ${limit / 1024 / 1024} MB`);
          files.push({ name: cleanOriginalName(part.filename ?? ''), bytes: new Uint8Array(bytes) });
        }
      } catch (error) {
        if (error instanceof HttpError) throw error;
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw tooLarge(`A series upload may hold at most ${limit / 1024 / 1024} MB`);
        throw badRequest('The upload could not be read');
      }
      if (files.length === 0) throw badRequest('Send DICOM slices or one .zip in the upload');
      let expanded: ArrivedSlice[];
      try {
        expanded = await expandArchives(files, limit, SERIES_MAX_FILES);
      } catch (error) {
        throw imagingHttpError(error);
      }
      const { series } = groupSeries(expanded);
      if (series.length === 0) throw unsupportedType('No DICOM images were found in this upload');
      // The uploader's own archive keeps its name when it holds one series and the originals are kept.
      const archiveName = files.length === 1 && series.length === 1 ? files[0]!.name : undefined;
      const kept = keepsOriginal(request);
      const items = [];
      // UIDs are remapped per workspace: slices of one series sent by two members stay one series.
      const uidSalt = kept ? '' : await uidSaltOf(app.db, member.workspaceId);
      for (const one of series) {
        const packed = await packSeries(one, uidSalt, kept, archiveName);
        const single = packed.kind === 'file';
        const storedFilename = newStoredFilename(single ? '.dcm' : '.zip');
        const stored = await app.storage.put(
          uploadStorageKey(storedFilename),
          Readable.from([Buffer.from(single ? packed.bytes : packed.archive)]),
        );
        const row = {
          id: randomUUID(),
          ownerId: member.userId,
          workspaceId: member.workspaceId,
          storedFilename,
          originalName: packed.name,
          extension: single ? '.dcm' : '.zip',
          sizeBytes: stored.size,
          sha256: stored.sha256,
          contentType: single ? 'application/dicom' : 'application/zip',
          format: 'dcm',
          // Burned-in text left in some slice's pixels: never called de-identified.
          deidentified: !kept && !packed.pixelsMayIdentify,
          seriesInstanceUid: packed.seriesInstanceUid ?? null,
          sliceCount: single ? null : packed.slices,
          createdAt: app.clock(),
        };
        const report = single ? packed.report : undefined;
        await repo.insert(
          row,
          {
            userId: member.userId,
            action: 'upload.create',
            ip: request.ip,
            detail: {
              stored_filename: storedFilename,
              size_bytes: stored.size,
              sha256: stored.sha256,
              slices: single ? 1 : packed.slices,
              ...(kept && { kept_original: true }),
            },
          },
          report && createDeidentificationRepository({ db: app.db }).insertOf(row.id, report),
        );
        items.push(toUploadItem(row));
      }
      return reply.code(201).send(items);
    },
  );
}
