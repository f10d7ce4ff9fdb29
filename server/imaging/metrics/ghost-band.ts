import type { MaskBits } from './mask-bits.ts';
import type { PhaseAxis } from './mr-artefacts.ts';

/** Fewest air voxels each band must hold for its mean to mean something, and their least share of the grid. */
const MIN_BAND = 64;
const MIN_BAND_SHARE = 0.005;

/**
 * Ghosts along the phase-encoding axis, wherever along it they fall: an N/k ghost, and the replicas and smear
 * of motion during the scan, move the head along the phase axis only, so they land in the air beside the head
 * in the rows it occupies (phase along x) and never in the air above and below it.
 * As the ACR phantom test's ghosting ratio compares the air beside the phantom along the two axes, this is
 * the mean of the air in the head's band along the phase axis (rows holding head, outside the head's
 * columns) less the mean of the air in its band along the other axis (columns holding head, outside its
 * rows), over the mean signal: noise falls alike in both and cancels, whatever its law. The corners beside
 * neither are left out. Where the file does not name the phase axis, the larger of the two differences.
 * MRIQC's ghost-to-signal ratio (ghosting) looks at the N/2 ghost only. Undefined when a band holds too
 * little air (a head that fills the field of view one way, or a mosaic of slices).
 */
export function ghostBand(
  values: Float32Array,
  head: MaskBits,
  air: MaskBits,
  signal: number,
  phase?: PhaseAxis,
): number | undefined {
  if (!(signal > 0)) return undefined;
  const { words, height, slices } = head;
  const columns = new Int32Array(words);
  const rowHolds = new Uint8Array(height);
  let besideX = 0,
    besideXN = 0,
    besideY = 0,
    besideYN = 0;
  for (let z = 0; z < slices; z++) {
    // The head's columns (every row's bits or-ed) and rows, in this slice.
    columns.fill(0);
    for (let y = 0; y < height; y++) {
      let any = 0;
      for (let k = 0, at = (z * height + y) * words; k < words; k++, at++) {
        columns[k]! |= head.bits[at]!;
        any |= head.bits[at]!;
      }
      rowHolds[y] = any === 0 ? 0 : 1;
    }
    for (let y = 0; y < height; y++) {
      const row = z * height + y;
      for (let k = 0; k < words; k++) {
        const a = air.bits[row * words + k]!;
        if (a === 0) continue;
        // In a row holding head, the air outside its columns is beside it along x; in a row without head,
        // the air within its columns is beside it along y.
        const w0 = rowHolds[y] ? a & ~columns[k]! : a & columns[k]!;
        let sum = 0,
          n = 0;
        for (let w = w0; w !== 0; w &= w - 1) {
          sum += values[row * head.width + 32 * k + 31 - Math.clz32(w & -w)]!;
          n++;
        }
        if (rowHolds[y]) {
          besideX += sum;
          besideXN += n;
        } else {
          besideY += sum;
          besideYN += n;
        }
      }
    }
  }
  const enough = Math.max(MIN_BAND, values.length * MIN_BAND_SHARE);
  if (besideXN < enough || besideYN < enough) return undefined;
  const alongX = (besideX / besideXN - besideY / besideYN) / signal;
  return phase === 'x' ? alongX : phase === 'y' ? -alongX : Math.abs(alongX);
}
