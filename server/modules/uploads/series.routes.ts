import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/errors.ts';
import { uploadList } from '../../../contract/uploads.ts';
import { badRequest, HttpError, tooLarge, unsupportedType } from '../../http-errors.ts';
import { currentUser } from '../../plugins/auth-guard.ts';
import { imagingHttpError } from '../previews/imaging-errors.ts';
import { keepsOriginal } from './prepare-on-arrival.ts';
import { expandArchives, groupSeries, packSeries, type ArrivedSlice } from './series.ts';
import { cleanOriginalName, newStoredFilename } from './upload-names.ts';
import { createUploadsRepository, toUploadItem, uploadStorageKey } from './uploads.repository.ts';

const errors = { 400: errorResponse, 401: errorResponse, 413: errorResponse, 415: errorResponse, 422: errorResponse };
// Slices are read whole to be grouped; a series upload is capped below the single-file limit.
const SERIES_MAX_BYTES = 1024 * 1024 * 1024;
const SERIES_MAX_FILES = 4000;

/** `POST /uploads/series`: DICOM slices (many files, or one .zip) grouped into one item per series. */
export default async function seriesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const repo = createUploadsRepository({ db: app.db });
  const limit = Math.min(app.config.uploadMaxBytes, SERIES_MAX_BYTES);
  await app.register(multipart, { limits: { fileSize: limit, files: SERIES_MAX_FILES, fields: 20 } });

  app.post(
    '/uploads/series',
    { preHandler: app.authenticate, schema: { response: { 201: uploadList, ...errors } } },
    async (request, reply) => {
      const user = currentUser(request);
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
        expanded = expandArchives(files, limit, SERIES_MAX_FILES);
      } catch (error) {
        throw imagingHttpError(error);
      }
      const { series } = groupSeries(expanded);
      if (series.length === 0) throw unsupportedType('No DICOM images were found in this upload');
      const baseName = files.length === 1 ? files[0]!.name.replace(/\.zip$/i, '') : `${files[0]!.name} and others`;
      const items = [];
      for (const [index, one] of series.entries()) {
        const packed = await packSeries(one, user.id, keepsOriginal(request));
        const storedFilename = newStoredFilename('.zip');
        const stored = await app.storage.put(
          uploadStorageKey(storedFilename),
          Readable.from([Buffer.from(packed.archive)]),
        );
        const row = {
          ownerId: user.id,
          storedFilename,
          originalName:
            series.length === 1 ? `${baseName}.zip` : `${baseName} (series ${index + 1} of ${series.length}).zip`,
          extension: '.zip',
          sizeBytes: stored.size,
          sha256: stored.sha256,
          contentType: 'application/zip',
          format: 'dcm',
          deidentified: !keepsOriginal(request),
          seriesInstanceUid: packed.seriesInstanceUid,
          sliceCount: one.slices.length,
          createdAt: app.clock(),
        };
        await repo.insert(row, {
          userId: user.id,
          action: 'upload.create',
          ip: request.ip,
          detail: {
            stored_filename: storedFilename,
            size_bytes: stored.size,
            sha256: stored.sha256,
            slices: one.slices.length,
          },
        });
        items.push(toUploadItem(row));
      }
      return reply.code(201).send(items);
    },
  );
}
