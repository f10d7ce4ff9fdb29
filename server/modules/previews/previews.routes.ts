import { z } from 'zod';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/errors.ts';
import { imageMetadata, previewQuery, type ImageMetadata } from '../../../contract/previews.ts';
import { MODALITY_HEADER, storedFilenameParams } from '../../../contract/uploads.ts';
import { badRequest } from '../../http-errors.ts';
import { sliceCount } from '../../imaging/preview-render.ts';
import type { ImageVolume } from '../../imaging/volume.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';
import { createUploadsRepository, type UploadRow } from '../uploads/uploads.repository.ts';
import { imageMetadataOf } from './image-metadata.ts';
import { renderSliceOffThread } from './render-off-thread.ts';
import { hasMetadata, metadataWithoutPixels } from './upload-metadata.ts';

const errors = errorResponses(400, 401, 404, 413, 415, 422);

/** Previews (PNG slices) and metadata of a workspace's uploads, decoded by the imaging engine. */
export default async function previewsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const repo = createUploadsRepository({ db: app.db });
  const volumes = app.volumes;
  const previews = app.previewCache;
  const guarded = { preHandler: app.inWorkspace('read') };
  const saveMetadata = (upload: UploadRow, metadata: ImageMetadata) => repo.saveMetadata(upload.id, metadata);

  app.get(
    '/uploads/:stored_filename/preview.png',
    { ...guarded, schema: { params: storedFilenameParams, querystring: previewQuery, response: errors } },
    async (request, typedReply) => {
      // The body is PNG bytes, not JSON: the reply is used untyped, outside the error-only response schema.
      const reply = typedReply as unknown as FastifyReply;
      const upload = await repo.findInWorkspace(currentMembership(request).workspaceId, request.params.stored_filename);
      const { axis } = request.query;
      const name = upload.storedFilename;
      // A 4D image's volumes are previewed one at a time; each has its own slices in the cache.
      const timePoint = request.query.volume ?? 0;
      const cacheAxis = timePoint ? `${axis}@${timePoint}` : axis;
      let timePoints = previews.timePoints(name);
      const known = previews.sliceCount(name, cacheAxis);
      let volume: ImageVolume | undefined;
      if (timePoints === undefined || known === undefined) {
        const first = await volumes.load(upload);
        timePoints = first.timePoints ?? 1;
        previews.setTimePoints(name, timePoints);
        if (timePoint < timePoints) volume = timePoint ? await volumes.load(upload, timePoint) : first;
      }
      if (timePoint >= timePoints)
        throw badRequest(
          `Volume ${timePoint} is out of range: this image has ${timePoints} volume${timePoints === 1 ? '' : 's'} (0–${timePoints - 1})`,
        );
      const count = known ?? sliceCount(volume!, axis);
      const slice = request.query.slice ?? Math.floor(count / 2);
      if (slice >= count)
        throw badRequest(`Slice ${slice} is out of range: this image has ${count} ${axis} slices (0–${count - 1})`);
      reply.header('content-type', 'image/png').header('cache-control', 'private, max-age=3600');
      reply.header('x-slice-count', String(count)).header('x-slice', String(slice));
      reply.header('x-volume-count', String(timePoints)).header('x-volume', String(timePoint));
      // Rendered once, then served from memory: a slice slider costs nothing the second time through.
      let png = previews.get(name, cacheAxis, slice);
      if (!png) {
        png = await renderSliceOffThread(volume ?? (await volumes.load(upload, timePoint)), axis, slice);
        previews.set(name, cacheAxis, slice, png, count);
      }
      return reply.send(png);
    },
  );

  app.get(
    '/uploads/:stored_filename/thumbnail.webp',
    {
      ...guarded,
      schema: {
        params: storedFilenameParams,
        response: {
          // No body: the image has no picture to draw (an object without pixels, or pixels this server
          // cannot decode). Its metadata and preview say why; a card simply shows none, and no error.
          204: z.null().describe('The image has no thumbnail'),
          ...errors,
        },
      },
    },
    async (request, typedReply) => {
      // The body is WebP bytes, not JSON: the reply is used untyped, outside the error-only response schema.
      const reply = typedReply as unknown as FastifyReply;
      const upload = await repo.findInWorkspace(currentMembership(request).workspaceId, request.params.stored_filename);
      // A card scrolled past closes its request: its drawing is skipped if it has not started.
      const thumbnail = await app.thumbnails.get(upload, () => !request.raw.socket?.destroyed);
      // The card shows the modality as soon as its picture is drawn, before the list is loaded again.
      if (thumbnail.modality) reply.header(MODALITY_HEADER, thumbnail.modality);
      if (!thumbnail.image) return reply.code(204).send();
      return reply.header('content-type', 'image/webp').send(thumbnail.image);
    },
  );

  app.get(
    '/uploads/:stored_filename/metadata',
    { ...guarded, schema: { params: storedFilenameParams, response: { 200: imageMetadata, ...errors } } },
    async (request) => {
      const upload = await repo.findInWorkspace(currentMembership(request).workspaceId, request.params.stored_filename);
      if (hasMetadata(upload.metadata)) return upload.metadata;
      const metadata = await volumes.load(upload).then(
        (volume) => imageMetadataOf(volume, upload.deidentified),
        async (error: unknown) => {
          const described = await metadataWithoutPixels(app.storage, upload, error);
          if (!described) throw error;
          return described;
        },
      );
      await saveMetadata(upload, metadata);
      return metadata;
    },
  );
}
