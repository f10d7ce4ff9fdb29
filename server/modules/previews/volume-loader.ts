import { decodeOffThread } from '../../workers/decode-off-thread.ts';
import { parseDicom } from '../../imaging/dicom/dicom-dataset.ts';
import { describeDicomObject, type DicomObjectDescription } from '../../imaging/dicom/dicom-object.ts';
import type { DecodeLimits, ImageVolume } from '../../imaging/volume.ts';
import { tooLarge } from '../../http-errors.ts';
import type { Storage } from '../../storage/storage.ts';
import { uploadStorageKey, type UploadRow } from '../uploads/uploads.repository.ts';
import { LRUCache } from 'lru-cache';
import { imagingMemory } from '../../workers/memory-budget.ts';
import { imagingHttpError } from './imaging-errors.ts';

/** Largest stored file the server decodes in memory for previews and checks. */
export const MAX_DECODE_BYTES = 1024 * 1024 * 1024;
/** Memory a decode holds per byte of its file (the file and the voxels decoded from it), for the shared budget. */
const DECODE_BYTES_PER_FILE_BYTE = 4;
/** Decoded volumes kept in memory, so a slice slider does not decode the file for every slice. */
const CACHE_BYTES = 512 * 1024 * 1024;

/** Reads a whole stored object into memory, in a buffer of its own that may be moved to a thread (refusing one over `limit`). */
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
  const joined = Buffer.concat(chunks);
  // Copied once, not twice: a read over 4 KiB owns its buffer and can be moved to a pool thread as it is; a
  // smaller one is a view into Node's shared pool, which must not move, and gets a buffer of its own.
  const owned = joined.byteOffset === 0 && joined.byteLength === joined.buffer.byteLength;
  return owned ? new Uint8Array(joined.buffer, 0, joined.byteLength) : new Uint8Array(joined);
}

/** Describes a stored DICOM object without decoding its pixels; undefined when it cannot be parsed. */
export async function describeStoredDicom(
  storage: Storage,
  upload: Pick<UploadRow, 'storedFilename'>,
): Promise<DicomObjectDescription | undefined> {
  const bytes = await readObject(storage, uploadStorageKey(upload.storedFilename));
  try {
    return describeDicomObject(parseDicom(bytes));
  } catch {
    return undefined;
  }
}

/**
 * Decodes uploads to volumes on the imaging pool, keeping the most recent ones (up to 512 MB of voxels) in memory. Compressed
 * data inside a file expands to at most `maxExpandedBytes` (the server's upload limit, at most 1 GiB).
 */
export function createVolumeLoader(storage: Storage, maxExpandedBytes = MAX_DECODE_BYTES) {
  const limits: DecodeLimits = { maxExpandedBytes: Math.min(maxExpandedBytes, MAX_DECODE_BYTES) };
  const decoded = new LRUCache<string, ImageVolume>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (volume) => volume.data.byteLength || 1,
  });
  // Decodes under way, so that parallel requests for one upload share one decode.
  const decoding = new Map<string, Promise<ImageVolume>>();

  async function decode(upload: Pick<UploadRow, 'storedFilename' | 'format'>, timePoint: number): Promise<ImageVolume> {
    const key = uploadStorageKey(upload.storedFilename);
    const size = (await storage.stat(key))?.size ?? 0;
    // Read only when its turn comes under the shared budget: the file, and the voxels decoded from it (four bytes
    // a value, most often two to four times the file), are held together while it decodes.
    return imagingMemory.use(DECODE_BYTES_PER_FILE_BYTE * size, async () => {
      const bytes = await readObject(storage, key);
      try {
        return await decodeOffThread(bytes, upload.format, limits, timePoint);
      } catch (error) {
        // Only what the file's content causes is the client's (415/422); storage failures stay server errors.
        throw imagingHttpError(error);
      }
    });
  }

  return {
    /**
     * The decoded volume of an upload (of a 4D file, volume `timePoint`, which the caller has checked
     * exists); 415 or 422 with the decoder's reason when it cannot be read.
     */
    async load(upload: Pick<UploadRow, 'storedFilename' | 'format'>, timePoint = 0): Promise<ImageVolume> {
      const key = timePoint ? `${upload.storedFilename}#${timePoint}` : upload.storedFilename;
      const hit = decoded.get(key);
      if (hit) return hit;
      const running = decoding.get(key);
      if (running) return running;
      const pending: Promise<ImageVolume> = decode(upload, timePoint)
        .then((volume) => {
          // Kept only if the upload was not forgotten (deleted) while it was decoding.
          if (decoding.get(key) === pending) decoded.set(key, volume);
          return volume;
        })
        .finally(() => {
          if (decoding.get(key) === pending) decoding.delete(key);
        });
      decoding.set(key, pending);
      return pending;
    },
    /**
     * The first volume of an upload for a one-off use (a thumbnail): the cached or in-flight decode when
     * there is one, else a decode that is not kept, so drawing a library's thumbnails does not push out
     * the volumes people are looking at.
     */
    async loadOnce(upload: Pick<UploadRow, 'storedFilename' | 'format'>): Promise<ImageVolume> {
      return decoded.get(upload.storedFilename) ?? decoding.get(upload.storedFilename) ?? decode(upload, 0);
    },
    /** Drops a volume, for an upload deleted or rewritten. */
    forget(storedFilename: string): void {
      for (const key of [...decoded.keys(), ...decoding.keys()]) {
        if (key !== storedFilename && !key.startsWith(`${storedFilename}#`)) continue;
        decoded.delete(key);
        decoding.delete(key);
      }
    },
  };
}

export type VolumeLoader = ReturnType<typeof createVolumeLoader>;
