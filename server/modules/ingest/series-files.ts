import { badRequest, tooLarge, unsupportedType } from '../../http-errors.ts';
import { dicomIdentifyingValues } from '../../imaging/dicom/identifying-values.ts';
import type { Storage } from '../../storage/storage.ts';
import { imagingHttpError } from '../previews/imaging-errors.ts';
import { expandArchives, groupSeries, packSeries, type ArrivedSlice, type PackedItem } from '../uploads/series.ts';
import { uploadStorageKey } from '../uploads/uploads.repository.ts';
import { nameWithoutIdentifiers } from './identifier-free-name.ts';
import type { IncomingFile } from './ingest-source.ts';
import type { MemoryHold } from './memory-budget.ts';
import { cleanOriginalName, newStoredFilename } from './upload-names.ts';

const EMPTY = Buffer.alloc(0);

/** Most bytes one series upload may hold, expanded; a series is read whole to be grouped. */
export const SERIES_MAX_BYTES = 1024 * 1024 * 1024;
/** Most files one series upload may hold, expanded. */
export const SERIES_MAX_FILES = 4000;

/** The refusal of a series upload over its size limit. */
export const seriesTooLarge = (limit: number) => tooLarge(`A series upload may hold at most ${limit / 1024 / 1024} MB`);

/** One item of a series upload, stored and not yet recorded. */
export interface StoredSeriesItem {
  storedFilename: string;
  packed: PackedItem;
  size: number;
  sha256: string;
}

/**
 * Reads every file of a series upload into memory, each chunk counted against the shared memory budget through
 * `hold` (503 when it is full) and the series limit (413).
 */
export async function readSeriesFiles(
  files: AsyncIterable<IncomingFile>,
  limit: number,
  hold: MemoryHold,
): Promise<ArrivedSlice[]> {
  const read: ArrivedSlice[] = [];
  let total = 0;
  for await (const file of files) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of file.stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limit) {
        file.stream.resume();
        throw seriesTooLarge(limit);
      }
      hold.takeOrRefuse(chunk.length);
      chunks.push(chunk);
      size += chunk.length;
    }
    // Each chunk is let go once copied, so a large part is not held twice over for long.
    const bytes = new Uint8Array(size);
    for (let i = 0, at = 0; i < chunks.length; i++) {
      bytes.set(chunks[i]!, at);
      at += chunks[i]!.length;
      chunks[i] = EMPTY;
    }
    read.push({ name: cleanOriginalName(file.name), bytes });
  }
  if (read.length === 0) throw badRequest('Send DICOM slices or one .zip in the upload');
  return read;
}

/**
 * Groups the files (archives opened) into series and stores one object per series (a zip of its slices) or per
 * lone file, de-identified with `uidSalt` unless kept as sent. On any failure what was stored is removed.
 */
export async function storeSeries(
  files: ArrivedSlice[],
  options: { storage: Storage; limit: number; keepOriginal: boolean; uidSalt: string; hold: MemoryHold },
): Promise<StoredSeriesItem[]> {
  const { storage, limit, keepOriginal, uidSalt, hold } = options;
  let expanded: ArrivedSlice[];
  try {
    expanded = await expandArchives(files, limit, SERIES_MAX_FILES);
  } catch (error) {
    throw imagingHttpError(error);
  }
  // What archives expanded to is held too, while it is.
  const expandedBytes = expanded.reduce((sum, file) => sum + file.bytes.length, 0);
  const packedBytes = files.reduce((sum, file) => sum + file.bytes.length, 0);
  hold.takeOrRefuse(Math.max(0, expandedBytes - packedBytes));
  const { series } = groupSeries(expanded);
  if (series.length === 0) throw unsupportedType('No DICOM images were found in this upload');
  // The uploader's own archive keeps its name when it holds one series and the originals are kept.
  const archiveName = files.length === 1 && series.length === 1 ? files[0]!.name : undefined;
  const stored: StoredSeriesItem[] = [];
  try {
    for (const one of series) {
      // A lone file keeps its sent name without what identifies; read before packing hands its bytes to the pool.
      const identifying = one.slices.length === 1 && !keepOriginal ? dicomIdentifyingValues(one.slices[0]!.bytes) : [];
      const sentName = one.slices[0]!.name.split('/').pop() ?? '';
      const packed = await packSeries(one, uidSalt, keepOriginal, archiveName);
      if (packed.kind === 'file' && !keepOriginal) {
        const kept = identifying && nameWithoutIdentifiers(sentName, '.dcm', identifying);
        packed.name = kept ?? packed.name;
      }
      const single = packed.kind === 'file';
      const storedFilename = newStoredFilename(single ? '.dcm' : '.zip');
      const put = await storage.put(uploadStorageKey(storedFilename), single ? packed.bytes : packed.archive);
      stored.push({ storedFilename, packed, ...put });
    }
  } catch (error) {
    await removeStored(storage, stored);
    throw error;
  }
  return stored;
}

/** Removes stored objects that will not be recorded (a refusal after storing, a quota over at commit). */
export async function removeStored(storage: Storage, items: { storedFilename: string }[]): Promise<void> {
  await Promise.all(items.map((item) => storage.delete(uploadStorageKey(item.storedFilename)).catch(() => undefined)));
}
