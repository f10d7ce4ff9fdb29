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
  return {
    ...first,
    depth,
    data,
    spacing: [first.spacing[0], first.spacing[1], gap > 0 ? gap : first.spacing[2]],
    directions,
  };
}
