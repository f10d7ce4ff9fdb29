import { zipSync } from 'fflate';
import { unzipBounded } from '../../imaging/bounded-inflate.ts';
import { remapUid } from '../../imaging/dicom/deidentify.ts';
import { deidentifyOffThread } from '../../imaging/dicom/deidentify-off-thread.ts';
import { numberValue, parseDicom, stringValue } from '../../imaging/dicom/dicom-dataset.ts';

/** One file as it arrived: its name and bytes. */
export interface ArrivedSlice {
  name: string;
  bytes: Uint8Array;
}

/** The slices of one DICOM series, in slice order. */
export interface DicomSeries {
  seriesInstanceUid: string;
  slices: Uint8Array[];
}

/**
 * The files of an upload with any .zip opened: DICOM slices may come as many files or as one archive.
 * Folders and macOS resource forks inside an archive are skipped. All files together, once expanded,
 * hold at most `maxBytes` and number at most `maxFiles`; an archive expanding past that, or past what
 * it declares, is refused (DecompressionLimitError) before it fills memory.
 */
export function expandArchives(files: ArrivedSlice[], maxBytes: number, maxFiles: number): ArrivedSlice[] {
  let bytes = files.reduce((sum, file) => sum + (file.name.toLowerCase().endsWith('.zip') ? 0 : file.bytes.length), 0);
  let count = files.length;
  return files.flatMap((file) => {
    if (!file.name.toLowerCase().endsWith('.zip')) return [file];
    const entries = unzipBounded(
      file.bytes,
      { totalBytes: Math.max(0, maxBytes - bytes), entries: Math.max(0, maxFiles - count) },
      (name) => !name.includes('__MACOSX'),
    );
    bytes += entries.reduce((sum, entry) => sum + entry.bytes.length, 0);
    count += entries.length;
    return entries;
  });
}

// Where a slice lies along the stack: its position projected on the slice normal (PS3.3 C.7.6.2),
// else its instance number.
function slicePosition(bytes: Uint8Array): { uid: string; position: number } | undefined {
  let dataSet;
  try {
    dataSet = parseDicom(bytes);
  } catch {
    return undefined;
  }
  if (!dataSet.elements.x7fe00010) return undefined; // not an image: a DICOMDIR or a report
  const uid = stringValue(dataSet, 'x0020000e') ?? 'unknown-series';
  const cosines = [0, 1, 2, 3, 4, 5].map((i) => numberValue(dataSet, 'x00200037', NaN, i));
  const origin = [0, 1, 2].map((i) => numberValue(dataSet, 'x00200032', NaN, i));
  if (cosines.every(Number.isFinite) && origin.every(Number.isFinite)) {
    const [a, b, c, d, e, f] = cosines as [number, number, number, number, number, number];
    const normal = [b * f - c * e, c * d - a * f, a * e - b * d];
    return { uid, position: origin[0]! * normal[0]! + origin[1]! * normal[1]! + origin[2]! * normal[2]! };
  }
  return { uid, position: numberValue(dataSet, 'x00200013', 0) };
}

/**
 * Groups DICOM files by Series Instance UID and orders each series' slices along the stack. Files that
 * are not DICOM images (a README in the archive) are left out; `skipped` counts them.
 */
export function groupSeries(files: ArrivedSlice[]): { series: DicomSeries[]; skipped: number } {
  const groups = new Map<string, { position: number; bytes: Uint8Array }[]>();
  let skipped = 0;
  for (const file of files) {
    const place = slicePosition(file.bytes);
    if (!place) {
      skipped += 1;
      continue;
    }
    const group = groups.get(place.uid) ?? [];
    group.push({ position: place.position, bytes: file.bytes });
    groups.set(place.uid, group);
  }
  const series = [...groups].map(([seriesInstanceUid, slices]) => ({
    seriesInstanceUid,
    slices: slices.sort((p, q) => p.position - q.position).map((s) => s.bytes),
  }));
  return { series, skipped };
}

/**
 * One stored object for a series: a zip of its slices in order (slice-0001.dcm, …), de-identified
 * for the owner (on the de-identifying thread) unless the uploader keeps the originals. Stored, not
 * deflated: pixel data rarely shrinks. The slices' bytes may be handed to that thread: not for reuse.
 */
export async function packSeries(series: DicomSeries, ownerId: string, keepOriginal: boolean) {
  const slices = keepOriginal
    ? series.slices
    : await Promise.all(series.slices.map(async (bytes) => (await deidentifyOffThread(bytes, ownerId)).bytes));
  const entries: Record<string, Uint8Array> = {};
  slices.forEach((bytes, i) => {
    entries[`slice-${String(i + 1).padStart(4, '0')}.dcm`] = bytes;
  });
  return {
    archive: zipSync(entries, { level: 0 }),
    // The listed UID is the one inside the stored slices: remapped like theirs when de-identified.
    seriesInstanceUid: keepOriginal ? series.seriesInstanceUid : remapUid(series.seriesInstanceUid, ownerId),
  };
}
