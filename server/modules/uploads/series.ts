import { DecompressionLimitError, sizeText, STORED_RATIO, storedBytesAllowed } from '../../imaging/bounded-inflate.ts';
import { remapUid } from '../../imaging/dicom/deidentify.ts';
import { deidentifyOffThread } from '../../workers/deidentify-off-thread.ts';
import { pixelsMayIdentify, type DeidentificationReport } from '../../imaging/dicom/deidentify-report.ts';
import { numberValue, parseDicom, stringValue } from '../../imaging/dicom/dicom-dataset.ts';
import { UndecodableImageError } from '../../imaging/volume.ts';
import { runImagingTask } from '../../workers/imaging-pool.ts';
import { ownBuffer } from '../../workers/transferred.ts';

/** One file as it arrived: its name and bytes. */
export interface ArrivedSlice {
  name: string;
  bytes: Uint8Array;
}

/** The slices of one DICOM series, in slice order, or one file that makes an item alone. */
export interface DicomSeries {
  seriesInstanceUid: string | undefined;
  slices: ArrivedSlice[];
}

/**
 * The files of an upload with any .zip opened (on the imaging pool, off the event loop): DICOM slices may
 * come as many files or as one archive. Folders and macOS resource forks inside an archive are skipped. All
 * files together, once expanded, hold at most `maxBytes`, at most ten times what was sent past 64 MiB (see
 * storedBytesAllowed: a small zip of padded slices must not become a gigabyte in memory and on disk), and
 * number at most `maxFiles`; an archive expanding past that, or past what it declares, is refused
 * (DecompressionLimitError) before it fills memory. An archive's bytes are handed to the pool: not for reuse.
 */
export async function expandArchives(
  files: ArrivedSlice[],
  maxBytes: number,
  maxFiles: number,
): Promise<ArrivedSlice[]> {
  const isZip = (file: ArrivedSlice) => file.name.toLowerCase().endsWith('.zip');
  const sent = files.reduce((sum, file) => sum + file.bytes.length, 0);
  const allowed = storedBytesAllowed(sent, maxBytes);
  const overTotal =
    allowed < maxBytes
      ? `This upload expands to more than ${sizeText(allowed)}, over ${STORED_RATIO} times the ${sizeText(sent)} sent: refused as a possible zip bomb.`
      : undefined;
  let bytes = files.reduce((sum, file) => sum + (isZip(file) ? 0 : file.bytes.length), 0);
  let count = files.length;
  const expanded: ArrivedSlice[] = [];
  for (const file of files) {
    if (!isZip(file)) {
      expanded.push(file);
      continue;
    }
    const archive = ownBuffer(file.bytes);
    const limits = { totalBytes: Math.max(0, allowed - bytes), entries: Math.max(0, maxFiles - count), overTotal };
    const answer = await runImagingTask('expandArchive', { archive, limits }, [archive.buffer as ArrayBuffer]);
    if ('refused' in answer) {
      const { kind, message } = answer.refused;
      throw kind === 'limit' ? new DecompressionLimitError(message) : new UndecodableImageError(message);
    }
    bytes += answer.entries.reduce((sum, entry) => sum + entry.bytes.length, 0);
    count += answer.entries.length;
    expanded.push(...answer.entries);
  }
  return expanded;
}

/** What grouping needs of one file: which series it belongs to and where it lies along the stack. */
interface Placement {
  /** Study and Series Instance UID together; undefined for a file that makes an item on its own. */
  key: string | undefined;
  seriesInstanceUid: string | undefined;
  position: number;
}

const DICOMDIR_SOP_CLASS = '1.2.840.10008.1.3.10';

// Where a slice lies along the stack: its position projected on the slice normal (PS3.3 C.7.6.2),
// else its instance number. A DICOM object without pixels (a report, a structure set) is an item of its
// own, as is an image without a Series Instance UID; a DICOMDIR and anything not DICOM are left out.
function placementOf(bytes: Uint8Array): Placement | undefined {
  let dataSet;
  try {
    dataSet = parseDicom(bytes);
  } catch {
    return undefined;
  }
  if (stringValue(dataSet, 'x00020002') === DICOMDIR_SOP_CLASS) return undefined;
  const seriesInstanceUid = stringValue(dataSet, 'x0020000e');
  const image = Boolean(dataSet.elements.x7fe00010);
  const key =
    image && seriesInstanceUid ? `${stringValue(dataSet, 'x0020000d') ?? ''}|${seriesInstanceUid}` : undefined;
  const cosines = [0, 1, 2, 3, 4, 5].map((i) => numberValue(dataSet, 'x00200037', NaN, i));
  const origin = [0, 1, 2].map((i) => numberValue(dataSet, 'x00200032', NaN, i));
  if (cosines.every(Number.isFinite) && origin.every(Number.isFinite)) {
    const [a, b, c, d, e, f] = cosines as [number, number, number, number, number, number];
    const normal = [b * f - c * e, c * d - a * f, a * e - b * d];
    const position = origin[0]! * normal[0]! + origin[1]! * normal[1]! + origin[2]! * normal[2]!;
    return { key, seriesInstanceUid, position };
  }
  return { key, seriesInstanceUid, position: numberValue(dataSet, 'x00200013', 0) };
}

/**
 * Groups DICOM files by Study and Series Instance UID and orders each series' slices along the stack.
 * A file of no series (or without pixels) is a group of one. Files that are not DICOM (a README in the
 * archive) and DICOMDIRs are left out; `skipped` counts them.
 */
export function groupSeries(files: ArrivedSlice[]): { series: DicomSeries[]; skipped: number } {
  const groups = new Map<string, { seriesInstanceUid?: string; slices: (ArrivedSlice & { position: number })[] }>();
  let skipped = 0;
  for (const [index, file] of files.entries()) {
    const place = placementOf(file.bytes);
    if (!place) {
      skipped += 1;
      continue;
    }
    const key = place.key ?? `file ${index}`;
    const group = groups.get(key) ?? { seriesInstanceUid: place.seriesInstanceUid, slices: [] };
    group.slices.push({ ...file, position: place.position });
    groups.set(key, group);
  }
  const series = [...groups.values()].map(({ seriesInstanceUid, slices }) => ({
    seriesInstanceUid,
    slices: slices.sort((p, q) => p.position - q.position).map(({ name, bytes }) => ({ name, bytes })),
  }));
  return { series, skipped };
}

/** A file name part: spaces and characters file systems dislike become '-'. */
const namePart = (text: string) => text.replace(/[\s/\\:*?"<>|]+/g, '-').replace(/^-+|-+$/g, '');

/**
 * The name of a series item, from the values of its first stored slice (de-identified ones, when it
 * is): modality, series description (else series number) and slice count.
 * @example seriesItemName(slice, 20) // 'CT_Head-5mm_20-slices.zip'
 */
export function seriesItemName(firstSlice: Uint8Array, count: number): string {
  let modality: string | undefined;
  let description: string | undefined;
  let number: string | undefined;
  try {
    const dataSet = parseDicom(firstSlice);
    modality = stringValue(dataSet, 'x00080060');
    description = stringValue(dataSet, 'x0008103e');
    number = stringValue(dataSet, 'x00200011');
  } catch {
    // Grouped slices were parsed once already; a failure here only costs the name its details.
  }
  const parts = [
    namePart(modality ?? '') || 'DICOM',
    description ? namePart(description) : number ? `series-${namePart(number)}` : undefined,
    `${count}-slices`,
  ];
  return `${parts.filter(Boolean).join('_')}.zip`;
}

/** One stored item made from a group: a single DICOM file, or a zip of a series' slices. */
export type PackedItem = (
  | {
      kind: 'file';
      bytes: Uint8Array;
      name: string;
      report?: DeidentificationReport;
      seriesInstanceUid?: string;
    }
  | { kind: 'series'; archive: Uint8Array; name: string; seriesInstanceUid?: string; slices: number }
) & {
  /** Some slice may still identify its patient through text burned into its pixels that could not be blanked. */
  pixelsMayIdentify: boolean;
};

/**
 * One stored object for a group, de-identified with the workspace's UID salt (on the imaging pool) unless the uploader
 * keeps the originals. A group of one file stays that file, named as an upload of it alone would be (from
 * its de-identified values, or as sent when kept). A series becomes a zip of its slices in order
 * (slice-0001.dcm, …), stored, not deflated (pixel data rarely shrinks), named from its modality and
 * description, or `archiveName` when the uploader's own archive held this one series and the originals
 * are kept. The slices' bytes may be handed to the pool: not for reuse.
 */
export async function packSeries(
  series: DicomSeries,
  uidSalt: string,
  keepOriginal: boolean,
  archiveName?: string,
): Promise<PackedItem> {
  const cleaned = keepOriginal
    ? series.slices.map((slice) => ({ bytes: slice.bytes, report: undefined }))
    : await Promise.all(series.slices.map((slice) => deidentifyOffThread(slice.bytes, uidSalt)));
  // The listed UID is the one inside the stored slices: remapped like theirs when de-identified.
  const seriesInstanceUid =
    series.seriesInstanceUid && !keepOriginal ? remapUid(series.seriesInstanceUid, uidSalt) : series.seriesInstanceUid;
  const mayIdentify = cleaned.some(({ report }) => report !== undefined && pixelsMayIdentify(report));
  if (cleaned.length === 1) {
    const [only] = cleaned;
    const sentName = series.slices[0]!.name.split('/').pop() || 'upload.dcm';
    const name = only!.report?.fileName ?? (sentName.toLowerCase().endsWith('.dcm') ? sentName : `${sentName}.dcm`);
    return {
      kind: 'file',
      bytes: only!.bytes,
      name,
      report: only!.report,
      seriesInstanceUid,
      pixelsMayIdentify: mayIdentify,
    };
  }
  // Named before the slices are moved to the pool below.
  const name = keepOriginal && archiveName ? archiveName : seriesItemName(cleaned[0]!.bytes, cleaned.length);
  const entries = cleaned.map(({ bytes }, i) => ({
    name: `slice-${String(i + 1).padStart(4, '0')}.dcm`,
    bytes: ownBuffer(bytes),
  }));
  // Packed on the imaging pool, the slices moved there: they are not used again here.
  const archive = await runImagingTask(
    'packArchive',
    { entries },
    entries.map(({ bytes }) => bytes.buffer as ArrayBuffer),
  );
  return {
    kind: 'series',
    archive,
    name,
    seriesInstanceUid,
    slices: cleaned.length,
    pixelsMayIdentify: mayIdentify,
  };
}
