import { quantileInPlace } from './image-stats.ts';
import { type MaskBits, packMask, setBitsIn } from './mask-bits.ts';

/** The field is read only where at least this share of a block is the tissue it follows. */
const FILLED = 0.25;

/** Gaussian weights of standard deviation `sigma`, to three sigma each side. */
function gaussian(sigma: number): Float64Array {
  const radius = Math.ceil(3 * sigma);
  const w = new Float64Array(2 * radius + 1);
  for (let i = -radius; i <= radius; i++) w[i + radius] = Math.exp(-(i * i) / (2 * sigma * sigma));
  return w;
}

/**
 * `level` and `weight` (nx × ny, `level` 0 wherever `weight` is) each convolved with `w` along x then y, zero
 * outside (normalised convolution divides it out): both in the same loops, each summed in the order a
 * convolution of it alone would add, so the same to the bit. A row without weight stays 0, as its sums would;
 * so do the terms beyond a row's first and last block with weight. Only the blocks with weight are read
 * afterwards: the others are left 0.
 */
function smoothPair(
  level: Float64Array,
  weight: Float64Array,
  nx: number,
  ny: number,
  w: Float64Array,
): [Float64Array, Float64Array] {
  const r = (w.length - 1) / 2;
  const levelAcross = new Float64Array(level.length),
    weightAcross = new Float64Array(weight.length);
  const filled = new Uint8Array(ny);
  for (let y = 0; y < ny; y++) {
    const row = y * nx;
    // The row's first and last blocks with weight: the terms beyond them are zeros, which would leave the
    // sums as they are, so they are not added.
    let a = nx,
      b = -1;
    for (let x = 0; x < nx; x++)
      if (weight[row + x] !== 0) {
        a = Math.min(a, x);
        b = x;
      }
    if (b < 0) continue;
    filled[y] = 1;
    for (let x = Math.max(0, a - r), last = Math.min(nx - 1, b + r); x <= last; x++) {
      let s = 0,
        c = 0;
      for (let k = Math.max(-r, a - x), end = Math.min(r, b - x); k <= end; k++) {
        s += w[k + r]! * level[row + x + k]!;
        c += w[k + r]! * weight[row + x + k]!;
      }
      levelAcross[row + x] = s;
      weightAcross[row + x] = c;
    }
  }
  const levelOut = new Float64Array(level.length),
    weightOut = new Float64Array(weight.length);
  for (let y = 0; y < ny; y++)
    for (let x = 0; x < nx; x++) {
      if (weight[y * nx + x] === 0) continue;
      let s = 0,
        c = 0;
      for (let k = Math.max(-r, -y), end = Math.min(r, ny - 1 - y); k <= end; k++) {
        // A row without weight holds zeros: adding them would leave both sums as they are.
        if (!filled[y + k]) continue;
        s += w[k + r]! * levelAcross[(y + k) * nx + x]!;
        c += w[k + r]! * weightAcross[(y + k) * nx + x]!;
      }
      levelOut[y * nx + x] = s;
      weightOut[y * nx + x] = c;
    }
  return [levelOut, weightOut];
}

/**
 * Intensity non-uniformity, in the spirit of MRIQC's INU (which reads N4's bias field): in each 8×8 block of
 * the head (`tissue`), the level of its brighter tissue (the 80th percentile of its voxels), which follows the
 * local receive-field gain where one global tissue class would not (a strong field moves whole regions across
 * any global threshold); those levels low-passed by normalised convolution (a Gaussian of a tenth of the field
 * of view, over the blocks the head fills); and their spread over the head, (95th − 5th percentile) / median.
 * Reported for information, with no limit: clean clinical images with surface coils reach 0.7, and on a small
 * matrix (64²) the anatomy itself varies as much as a coil's field would.
 * Undefined when fewer than four blocks hold enough tissue to read the field at (a small image).
 * `tissueBits` is `tissue` packed (packMask), when the caller has it.
 */
export function biasFieldSpread(
  values: Float32Array,
  width: number,
  height: number,
  tissue: Uint8Array,
  tissueBits: MaskBits = packMask(tissue, width, height),
): number | undefined {
  const { bits, words } = tissueBits;
  // Blocks of a 32nd of the field of view (at least 4 voxels): enough voxels for a percentile, and enough
  // blocks across the head for a field to show on a small matrix.
  const BLOCK = Math.max(4, Math.round(Math.min(width, height) / 32));
  const nx = Math.ceil(width / BLOCK),
    ny = Math.ceil(height / BLOCK);
  const slices = Math.floor(values.length / (width * height));
  const w = gaussian(Math.max(1, Math.min(width, height) / 10 / BLOCK));
  const field: number[] = [];
  for (let z = 0; z < slices; z++) {
    const o = z * width * height;
    // Each block's brighter tissue: the 80th percentile of its tissue voxels, which follows the local level.
    const level = new Float64Array(nx * ny),
      weight = new Float64Array(nx * ny);
    const inBlock = new Float64Array(BLOCK * BLOCK);
    // The first n of inBlock, for every n, made once rather than once a block.
    const firsts = Array.from({ length: BLOCK * BLOCK + 1 }, (_, n) => inBlock.subarray(0, n));
    for (let by = 0; by < ny; by++)
      for (let bx = 0; bx < nx; bx++) {
        const x0 = bx * BLOCK,
          x1 = Math.min(width, x0 + BLOCK),
          y0 = by * BLOCK,
          y1 = Math.min(height, y0 + BLOCK);
        // The block's tissue counted on the packed bits first: most blocks are skipped (too little tissue)
        // or wholly tissue without a voxel of theirs tested.
        let n = 0;
        for (let y = y0; y < y1; y++) n += setBitsIn(bits, (z * height + y) * words, x0, x1);
        if (n < FILLED * BLOCK * BLOCK) continue;
        if (n === (x1 - x0) * (y1 - y0)) {
          n = 0;
          for (let y = y0; y < y1; y++)
            for (let i = o + y * width + x0, end = o + y * width + x1; i < end; i++) inBlock[n++] = values[i]!;
        } else {
          n = 0;
          for (let y = y0; y < y1; y++)
            for (let i = o + y * width + x0, end = o + y * width + x1; i < end; i++) {
              // Every voxel is written and only the tissue's kept (the count moves on by 0 or 1): no branch to
              // mispredict along the head's edge.
              inBlock[n] = values[i]!;
              n += +(tissue[i] !== 0);
            }
        }
        level[by * nx + bx] = quantileInPlace(firsts[n]!, 80);
        weight[by * nx + bx] = 1;
      }
    const [s, c] = smoothPair(level, weight, nx, ny, w);
    for (let b = 0; b < nx * ny; b++) if (weight[b]! > 0 && c[b]! > 0) field.push(s[b]! / c[b]!);
  }
  if (field.length < 4) return undefined;
  const f = Float64Array.from(field);
  const median = quantileInPlace(f, 50);
  return median > 0 ? (quantileInPlace(f, 95) - quantileInPlace(f, 5)) / median : undefined;
}
