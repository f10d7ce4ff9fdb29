import type { FastifyInstance } from 'fastify';
import { previewCacheFor } from './preview-cache.ts';
import { volumeLoaderFor } from './volume-loader.ts';

/**
 * Forgets the rendered previews and the decoded volume of an upload being deleted, so no picture of a
 * deleted image is served again.
 */
export function deletePreviews(app: FastifyInstance, storedFilename: string): void {
  volumeLoaderFor(app).forget(storedFilename);
  previewCacheFor(app).forget(storedFilename);
}
