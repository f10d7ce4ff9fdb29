import { decodeImage } from '../../imaging/decode-image.ts';
import { UndecodableImageError, type ImageVolume } from '../../imaging/volume.ts';
import { HttpError, tooLarge, unsupportedType } from '../../http-errors.ts';
import type { Storage } from '../../storage/storage.ts';
import { uploadStorageKey, type UploadRow } from '../uploads/uploads.repository.ts';
import { onePerApp } from './one-per-app.ts';

/** Largest stored file the server decodes in memory for previews and checks. */
export const MAX_DECODE_BYTES = 1024 * 1024 * 1024;
/** Decoded volumes kept in memory, so a slice slider does not decode the file for every slice. */
const CACHE_BYTES = 512 * 1024 * 1024;

/** Reads a whole stored object into memory (refusing one over `limit`). */
export async function readObject(
  storage: Storage,
  key: string,
  limit = MAX_DECODE_BYTES,
  detail = 'This file is too large to be decoded for a preview or a check',
): Promise<Uint8Array> {
  const stat = await storage.stat(key);
  if (stat && stat.size > limit) throw tooLarge(detail);
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(key)) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

/** Decodes uploads to volumes, keeping the most recent ones (up to 512 MB of voxels) in memory. */
export function createVolumeLoader(storage: Storage) {
  const cache = new Map<string, { volume: Promise<ImageVolume>; bytes: number }>();
  let cached = 0;
  const evict = () => {
    for (const [key, entry] of cache) {
      if (cached <= CACHE_BYTES || cache.size <= 1) break;
      cache.delete(key);
      cached -= entry.bytes;
    }
  };
  return {
    /** The decoded volume of an upload; 415 with the decoder's reason when it cannot be read. */
    async load(upload: Pick<UploadRow, 'storedFilename' | 'format'>): Promise<ImageVolume> {
      const hit = cache.get(upload.storedFilename);
      if (hit) {
        // Re-inserting keeps the map in least-recently-used order.
        cache.delete(upload.storedFilename);
        cache.set(upload.storedFilename, hit);
        return hit.volume;
      }
      const volume = readObject(storage, uploadStorageKey(upload.storedFilename)).then((bytes) =>
        decodeImage(bytes, upload.format).catch((error: unknown) => {
          // A decoder tripping over damaged bytes (a RangeError deep in a codec) is the file's fault.
          if (error instanceof UndecodableImageError || error instanceof HttpError) throw error;
          throw new HttpError(422, 'This image could not be decoded: the file is damaged or incomplete.');
        }),
      );
      const entry = { volume, bytes: 0 };
      cache.set(upload.storedFilename, entry);
      try {
        const decoded = await volume;
        entry.bytes = decoded.data.byteLength;
        cached += entry.bytes;
        evict();
        return decoded;
      } catch (error) {
        cache.delete(upload.storedFilename);
        if (error instanceof UndecodableImageError) throw unsupportedType(error.message);
        throw error;
      }
    },
    /** Drops a volume, for an upload deleted or rewritten. */
    forget(storedFilename: string): void {
      const entry = cache.get(storedFilename);
      if (entry) cached -= entry.bytes;
      cache.delete(storedFilename);
    },
  };
}

export type VolumeLoader = ReturnType<typeof createVolumeLoader>;

/** The one loader of an app (shared by previews and checks, which are registered as separate plugins). */
export const volumeLoaderFor = onePerApp((app) => createVolumeLoader(app.storage));
