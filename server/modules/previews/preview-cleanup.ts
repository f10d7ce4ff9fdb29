import type { FastifyInstance } from 'fastify';

/**
 * Forgets the rendered previews and the decoded volume of an upload being deleted, so no picture of a
 * deleted image is served again.
 */
export function deletePreviews(app: FastifyInstance, storedFilename: string): void {
  app.volumes.forget(storedFilename);
  app.previewCache.forget(storedFilename);
}
