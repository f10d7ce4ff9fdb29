import type { FastifyInstance } from 'fastify';
import type { ImageMetadata } from '../../../contract/previews.ts';
import type { UploadRow } from '../uploads/uploads.repository.ts';
import { previewStorageKey } from './preview-keys.ts';
import { volumeLoaderFor } from './volume-loader.ts';

const BATCH = 64;

/**
 * Removes every cached preview of an upload being deleted, and its decoded volume from memory, so no
 * picture of a deleted image is left behind. The slice counts come from the metadata saved when the
 * first preview was rendered; an upload never previewed has nothing to remove.
 */
export async function deletePreviews(
  app: FastifyInstance,
  upload: Pick<UploadRow, 'storedFilename' | 'metadata'>,
): Promise<void> {
  volumeLoaderFor(app).forget(upload.storedFilename);
  const metadata = upload.metadata as Partial<ImageMetadata> | null;
  const [width, height, depth] = metadata?.dimensions ?? [];
  if (!width || !height || !depth) return;
  const keys = [
    ...Array.from({ length: depth }, (_, i) => previewStorageKey(upload.storedFilename, 'axial', i)),
    ...Array.from({ length: height }, (_, i) => previewStorageKey(upload.storedFilename, 'coronal', i)),
    ...Array.from({ length: width }, (_, i) => previewStorageKey(upload.storedFilename, 'sagittal', i)),
  ];
  for (let i = 0; i < keys.length; i += BATCH)
    await Promise.all(keys.slice(i, i + BATCH).map((key) => app.storage.delete(key)));
}
