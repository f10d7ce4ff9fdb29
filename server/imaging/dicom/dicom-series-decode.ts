import { unzipBounded } from '../bounded-inflate.ts';
import {
  assertDecodable,
  DEFAULT_DECODE_LIMITS,
  UndecodableImageError,
  type DecodeLimits,
  type ImageVolume,
} from '../volume.ts';
import { decodeDicom } from './dicom-decode.ts';

/** True for a zip archive (a DICOM series item is stored as the zip of its slices). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length > 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** Neighbouring slices closer than this (mm) hold one position twice, not a step of the stack. */
const SAME_POSITION = 1e-3;

/**
 * How many slices a stack lacks, from its slices' Image Positions in stack order: the step of the stack is
 * the shortest distance between neighbours (missing slices only lengthen some), and a distance of 1.5 steps
 * or more holds round(distance / step) - 1 missing slices, as a transfer that lost some leaves them. 0 with
 * fewer than three positions (no step to compare with), or any missing.
 * @example missingSlices([[0, 0, 0], [0, 0, 2.5], [0, 0, 7.5]]) // 1
 */
export function missingSlices(positions: readonly (readonly number[] | undefined)[]): number {
  if (positions.length < 3 || positions.some((p) => !p)) return 0;
  const gaps = positions.slice(1).map((p, i) => Math.hypot(...p!.map((v, k) => v - positions[i]![k]!)));
  const step = Math.min(...gaps.filter((g) => g > SAME_POSITION));
  if (!Number.isFinite(step)) return 0;
  return gaps.reduce((missing, g) => missing + (g >= 1.5 * step ? Math.round(g / step) - 1 : 0), 0);
}

/**
 * Decodes a DICOM series item, the zip of its slices already in stack order (slice-0001.dcm, …),
 * into one volume: the slices' frames one after another, the first slice's attributes for the rest, and
 * the slice spacing from the distance between the first two Image Positions (else Slice Thickness).
 */
export async function decodeDicomSeries(
  archive: Uint8Array,
  limits: DecodeLimits = DEFAULT_DECODE_LIMITS,
): Promise<ImageVolume> {
  const entries = Object.fromEntries(
    unzipBounded(archive, { totalBytes: limits.maxExpandedBytes, entries: 100_000 }, (name) =>
      name.toLowerCase().endsWith('.dcm'),
    ).map(({ name, bytes }) => [name, bytes]),
  );
  const names = Object.keys(entries).sort();
  if (names.length === 0) throw new UndecodableImageError('This DICOM series archive holds no slices.');
  const slices: ImageVolume[] = [];
  let values = 0;
  for (const name of names) {
    const slice = await decodeDicom(entries[name]!);
    values += slice.data.length;
    // Checked as slices accumulate, so a huge series is refused before the stack is allocated.
    assertDecodable(values);
    slices.push(slice);
  }
  const first = slices[0]!;
  if (slices.some((s) => s.width !== first.width || s.height !== first.height || s.channels !== first.channels)) {
    throw new UndecodableImageError('The slices of this DICOM series do not share one image size.');
  }
  const depth = slices.reduce((sum, s) => sum + s.depth, 0);
  const data = new Float32Array(first.width * first.height * first.channels * depth);
  let offset = 0;
  for (const slice of slices) {
    data.set(slice.data, offset);
    offset += slice.data.length;
  }
  const second = slices[1];
  const gap = first.origin && second?.origin ? Math.hypot(...first.origin.map((v, i) => v - second.origin![i]!)) : 0;
  // Slices are stored in stack order; the stack runs along the slice normal or against it, as positions say.
  const step = first.origin && second?.origin ? second.origin.map((v, i) => v - first.origin![i]!) : undefined;
  const [row, column, normal] = first.directions ?? [];
  const directions =
    row && column && normal
      ? ([
          row,
          column,
          step && normal.reduce((s, n, i) => s + n * step[i]!, 0) < 0 ? normal.map((n) => -n) : normal,
        ] as [number[], number[], number[]])
      : undefined;
  // Positions are per file: a series of multi-frame files has none for its frames.
  const missing = slices.every((s) => s.depth === 1) ? missingSlices(slices.map((s) => s.origin)) : 0;
  return {
    ...first,
    depth,
    data,
    spacing: [first.spacing[0], first.spacing[1], gap > 0 ? gap : first.spacing[2]],
    directions,
    ...(missing > 0 && { missingSlices: missing }),
  };
}
