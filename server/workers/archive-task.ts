// Opening a zip archive as a task of the imaging pool (imaging-tasks.ts re-exports it): inflating a series of
// slices takes a second or more per gigabyte, which the event loop must not spend.
import { zipSync } from 'fflate';
import { DecompressionLimitError, unzipBounded, type UnzipLimits } from '../imaging/bounded-inflate.ts';
import { UndecodableImageError } from '../imaging/volume.ts';
import { ownBuffer, transferred } from './transferred.ts';

/** An archive to open, and what its entries may add up to. */
export interface ExpandTask {
  archive: Uint8Array;
  limits: UnzipLimits;
}

/** The entries (name and bytes, each in a buffer of its own), or why the archive was refused (errors do not cross threads as their classes). */
export type ExpandAnswer =
  { entries: { name: string; bytes: Uint8Array }[] } | { refused: { kind: 'limit' | 'undecodable'; message: string } };

/** Opens a zip archive within `limits` (see unzipBounded), skipping folders and macOS resource forks. */
export function expandArchive({ archive, limits }: ExpandTask): ExpandAnswer {
  let entries;
  try {
    entries = unzipBounded(archive, limits, (name) => !name.includes('__MACOSX'));
  } catch (error) {
    if (error instanceof DecompressionLimitError) return { refused: { kind: 'limit', message: error.message } };
    if (error instanceof UndecodableImageError) return { refused: { kind: 'undecodable', message: error.message } };
    return { refused: { kind: 'undecodable', message: 'This archive is damaged and could not be opened.' } };
  }
  const owned = entries.map(({ name, bytes }) => ({ name, bytes: ownBuffer(bytes) }));
  return transferred({ entries: owned }, [...new Set(owned.map(({ bytes }) => bytes.buffer as ArrayBuffer))]);
}

/** Files to store together in one zip archive, in order. */
export interface PackTask {
  entries: { name: string; bytes: Uint8Array }[];
}

/**
 * A zip archive of `entries`, stored, not deflated (pixel data rarely shrinks): its CRC-32s and copies take a
 * few hundred milliseconds for a large series, on a pool thread. The archive is moved to the main thread.
 */
export function packArchive({ entries }: PackTask): Uint8Array {
  const archive = zipSync(Object.fromEntries(entries.map(({ name, bytes }) => [name, bytes])), { level: 0 });
  const own = ownBuffer(archive);
  return transferred(own, [own.buffer as ArrayBuffer]);
}
