import type { MeasureContext, Measures } from './context.ts';
import { integerMedian } from './integer-median.ts';
import { edgeWidth, quantileInPlace } from './image-stats.ts';
import { lastWordBits, type MaskBits, morphBits, ones32, unpackMask } from './mask-bits.ts';
import { scratchFloat32, scratchFloat64, scratchInt32, scratchUint8 } from './scratch.ts';
import { metalStreaks } from './ct-metal.ts';
import { forgetSmoothed, smoothedOnce } from './sharpness.ts';

/** Side of the blocks whose SD is the noise. */
const BLOCK = 8;

const ANGLES = 36;
const SEGMENTS = 8;

/** The median of the finite entries, 0 for none (the upper of the middle two for an even count). */
function medianOf(values: ArrayLike<number>): number {
  if (!values.length) return 0;
  // A typed array sorts numerically without a comparator call per comparison.
  const sorted = Float64Array.from(values).sort();
  return sorted[sorted.length >> 1]!;
}

/** Where each voxel of a slice falls among the line and ring bins: the same for every image of one size. */
interface BinGeometry {
  width: number;
  height: number;
  diag: number;
  /** Per angle, each voxel's line bin within the angle (segment along · diag + distance across). */
  line: Uint16Array;
  /** Each voxel's ring bin (radius · 16 + sector), -1 beyond the ring limit. */
  ring: Int32Array;
  /** The most voxels of one slice that any line bin holds. */
  binVoxels: number;
}

let geometryCache: BinGeometry | undefined;

/**
 * The bins' geometry for one slice size, kept for the next image (a batch is usually of one size): 36
 * angles of 2-byte bins, 4.7 MB for the 256×256 grid. Each bin is worked out by the very expressions the
 * line search once evaluated voxel by voxel, so the bins, and their sums, are the same to the bit; per image
 * only the additions remain.
 */
function binGeometry(width: number, height: number): BinGeometry {
  if (geometryCache && geometryCache.width === width && geometryCache.height === height) return geometryCache;
  const cx = (width - 1) / 2,
    cy = (height - 1) / 2;
  const diag = Math.ceil(Math.hypot(width, height)) + 1;
  const centre = diag / 2,
    segment = diag / SEGMENTS;
  // No clamp: |dx·cos + dy·sin| is at most half the slice's diagonal, hypot(w-1, h-1) / 2, under
  // (diag - 1) / 2, so the distance across rounds within 0…diag-1 and the distance along, divided by
  // diag / 8, floors within 0…7.
  const line = new Uint16Array(ANGLES * width * height);
  const filled = new Int32Array(diag * SEGMENTS);
  let binVoxels = 0;
  for (let a = 0; a < ANGLES; a++) {
    filled.fill(0);
    const ca = Math.cos((Math.PI * a) / ANGLES),
      sa = Math.sin((Math.PI * a) / ANGLES);
    for (let y = 0, k = a * width * height; y < height; y++)
      for (let x = 0; x < width; x++, k++) {
        const dx = x - cx,
          dy = y - cy;
        const t = Math.round(dx * ca + dy * sa + centre);
        const along = Math.floor((-dx * sa + dy * ca + centre) / segment);
        line[k] = along * diag + t;
        binVoxels = Math.max(binVoxels, ++filled[line[k]!]!);
      }
  }
  const ringLimit = 0.45 * Math.min(width, height);
  const ring = new Int32Array(width * height).fill(-1);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const dx = x - cx,
        dy = y - cy;
      const rad = Math.min(diag - 1, Math.round(Math.hypot(dx, dy)));
      // The edge of the reconstruction circle (at half the matrix) is a centred circle on every scan.
      if (rad >= ringLimit) continue;
      const sector = Math.min(15, Math.floor(((Math.atan2(dy, dx) + Math.PI) / (2 * Math.PI)) * 16));
      ring[y * width + x] = rad * 16 + sector;
    }
  geometryCache = { width, height, diag, line, ring, binVoxels };
  return geometryCache;
}

/**
 * Streaks and rings, in HU, from the high-pass residual of homogeneous tissue (clipped at ±150 HU). A streak
 * is a straight line whose residual keeps one sign all along it; a ring is a circle about the centre (the
 * rotation axis) that keeps one sign all around. Each line is cut into 8 segments and each circle into 16
 * sectors; a line's or circle's amplitude is the median of its pieces' mean residuals, so anatomy edges,
 * which only touch a few pieces, do not count, and noise averages out. The score is the mean of the three
 * largest amplitudes. (An amplitude in HU rather than a z-score: real reconstructions have correlated
 * noise, which inflates every z-score.)
 */
export function lineScores(residual: Float32Array, keep: MaskBits, ringKeep: MaskBits, width: number, height: number) {
  const plane = width * height;
  const slices = residual.length / plane;
  const { diag, ring, line: lineBins, binVoxels } = binGeometry(width, height);
  const ringSum = new Float64Array(diag * 16);
  const ringN = new Uint32Array(ringSum.length);
  // Four slices at most: the line sums cost 36 passes per voxel.
  const zStep = Math.max(1, Math.ceil(slices / 4));
  const { words } = keep;
  const planeWords = words * height;
  // The voxels the lines are judged on, gathered first (their place in the slice and clipped residual): the
  // sums then run one angle at a time, each angle's bins (a few kilobytes) staying in cache, where one voxel
  // at a time touched 36 bins far apart. Every bin still adds its voxels in scan order, so the sums are the
  // same to the bit. The masks are read a word of 32 voxels at a time, set bits only.
  let lineVoxels = 0;
  for (let z = 0; z < slices; z += zStep)
    for (let k = z * planeWords, end = k + planeWords; k < end; k++) lineVoxels += ones32(keep.bits[k]!);
  // Residuals of whole-number images are multiples of 1/256 (smoothInPlane divides by 4 four times). Each is
  // then also packed with a count of one into a whole number, 256·r·2^shift + 1, 2^shift above any bin's
  // count: a bin's sum and count take one whole-number addition, exact in any order, where they took two
  // floating-point ones, and the sum it holds is that of the floating-point additions to the bit. No bin
  // holds more voxels than the most one slice's bin holds times the slices judged, and |256·r| is at most
  // 38,400: the packing is used only where that bounds every bin within 32 bits.
  const most = binVoxels * Math.ceil(slices / zStep);
  const shift = 32 - Math.clz32(most);
  let whole = 38400 * most * 2 ** shift + most < 2 ** 31;
  const at = scratchInt32('ct-line-at', lineVoxels),
    clipped = scratchFloat32('ct-line-residual', lineVoxels),
    packed = scratchInt32('ct-line-packed-values', lineVoxels);
  // Two walks, one per mask, each over its set bits only: one walk over both took a branch per voxel on
  // which of the two it was in, which the processor could not predict.
  let v = 0;
  for (let z = 0; z < slices; z += zStep) {
    const o = z * plane;
    for (let y = 0; y < height; y++)
      for (let j = 0, k = (z * height + y) * words; j < words; j++, k++) {
        for (let w = ringKeep.bits[k]!; w !== 0; w &= w - 1) {
          const p = y * width + 32 * j + 31 - Math.clz32(w & -w);
          const bin = ring[p]!;
          if (bin < 0) continue;
          const r = residual[o + p]!;
          ringSum[bin]! += r < -150 ? -150 : r > 150 ? 150 : r;
          ringN[bin]!++;
        }
        for (let w = keep.bits[k]!; w !== 0; w &= w - 1) {
          const p = y * width + 32 * j + 31 - Math.clz32(w & -w);
          const u = residual[o + p]!;
          const r = u < -150 ? -150 : u > 150 ? 150 : u;
          const q = r * 256;
          if ((q | 0) !== q) whole = false;
          at[v] = p;
          packed[v] = (q << shift) + 1;
          clipped[v++] = r;
        }
      }
  }
  const rings = ringProminence(ringSum, ringN);
  const bins = ANGLES * diag * SEGMENTS;
  if (whole) {
    const sums = scratchInt32('ct-line-packed', bins).fill(0);
    addPacked(sums, packed, at, lineVoxels, lineBins, plane, diag * SEGMENTS);
    return { streaks: streakScore(new Float64Array(0), sums, diag, shift), rings };
  }
  // The bins' sums and counts, kept between calls: a megabyte that a fresh array would zero all the same and
  // then leave to the garbage collector.
  const lineSum = scratchFloat64('ct-line-sums', bins).fill(0);
  const lineN = scratchInt32('ct-line-counts', bins).fill(0);
  addByAngle(lineSum, lineN, clipped, at, lineVoxels, lineBins, plane, diag * SEGMENTS);
  return { streaks: streakScore(lineSum, lineN, diag, 0), rings };
}

/**
 * Adds each voxel's packed value to its bin of every angle. Four angles at a time: neighbouring voxels mostly
 * fall in the same bin of one angle, so each addition waits for the one before; four angles' bins are four
 * independent chains.
 */
function addPacked(
  sums: Int32Array,
  values: Int32Array,
  at: Int32Array,
  voxels: number,
  lineBins: Uint16Array,
  plane: number,
  stride: number,
): void {
  for (let a = 0; a < ANGLES; a += 6) {
    const b0 = a * stride,
      b1 = b0 + stride,
      b2 = b1 + stride,
      b3 = b2 + stride,
      b4 = b3 + stride,
      b5 = b4 + stride;
    const t0 = lineBins.subarray(a * plane, (a + 1) * plane),
      t1 = lineBins.subarray((a + 1) * plane, (a + 2) * plane),
      t2 = lineBins.subarray((a + 2) * plane, (a + 3) * plane),
      t3 = lineBins.subarray((a + 3) * plane, (a + 4) * plane),
      t4 = lineBins.subarray((a + 4) * plane, (a + 5) * plane),
      t5 = lineBins.subarray((a + 5) * plane, (a + 6) * plane);
    for (let p = 0; p < voxels; p++) {
      const i = at[p]!,
        r = values[p]!;
      const k0 = b0 + t0[i]!,
        k1 = b1 + t1[i]!,
        k2 = b2 + t2[i]!,
        k3 = b3 + t3[i]!,
        k4 = b4 + t4[i]!,
        k5 = b5 + t5[i]!;
      sums[k0] = (sums[k0]! + r) | 0;
      sums[k1] = (sums[k1]! + r) | 0;
      sums[k2] = (sums[k2]! + r) | 0;
      sums[k3] = (sums[k3]! + r) | 0;
      sums[k4] = (sums[k4]! + r) | 0;
      sums[k5] = (sums[k5]! + r) | 0;
    }
  }
}

/** addPacked for residuals that are not packed: each bin's sum and count, added in scan order. */
function addByAngle(
  sums: Float64Array,
  counts: Int32Array,
  values: Float32Array,
  at: Int32Array,
  voxels: number,
  lineBins: Uint16Array,
  plane: number,
  stride: number,
): void {
  for (let a = 0; a < ANGLES; a += 4) {
    const b0 = a * stride,
      b1 = b0 + stride,
      b2 = b1 + stride,
      b3 = b2 + stride;
    const t0 = lineBins.subarray(a * plane, (a + 1) * plane),
      t1 = lineBins.subarray((a + 1) * plane, (a + 2) * plane),
      t2 = lineBins.subarray((a + 2) * plane, (a + 3) * plane),
      t3 = lineBins.subarray((a + 3) * plane, (a + 4) * plane);
    for (let p = 0; p < voxels; p++) {
      const i = at[p]!,
        r = values[p]!;
      const k0 = b0 + t0[i]!,
        k1 = b1 + t1[i]!,
        k2 = b2 + t2[i]!,
        k3 = b3 + t3[i]!;
      sums[k0]! += r;
      sums[k1]! += r;
      sums[k2]! += r;
      sums[k3]! += r;
      counts[k0]!++;
      counts[k1]!++;
      counts[k2]!++;
      counts[k3]!++;
    }
  }
}

/**
 * The streak score from the line bins: each line's amplitude is the median of its segments' means (those of
 * 6 voxels or more, 3 segments at least; sorted by insertion in a small buffer, the order a stable sort
 * gives), and the score the mean of the three largest amplitudes, kept as they come instead of an array of
 * every line's: the same sum of the same three numbers. The bins hold sums in `sum` and counts in `n`, or,
 * with `sum` empty, both packed in `n` (256·sum·2^shift + count).
 */
function streakScore(sum: Float64Array, n: Int32Array, diag: number, shift: number): number {
  const packed = sum.length === 0,
    low = (1 << shift) - 1;
  const z = new Float64Array(SEGMENTS);
  let first = -Infinity,
    second = -Infinity,
    third = -Infinity,
    lines = 0;
  const span = SEGMENTS * diag;
  for (let start = 0; start < n.length; start += span)
    for (let line = start, lastLine = start + diag; line < lastLine; line++) {
      // The segments that count, and whether any one's mean may exceed the third largest amplitude so far:
      // if none does, neither does their median, and the three largest stay as they are without it. (A
      // mean is |sum| / voxels rounded, at most the third when |sum| is at most third · voxels, which the
      // product, rounded, with a margin a billion times its rounding error, bounds.)
      let count = 0,
        larger = false;
      for (let k = line, end = line + span; k < end; k += diag) {
        const bin = n[k]!;
        const voxels = packed ? bin & low : bin;
        if (voxels < 6) continue;
        count++;
        // The packed sum over 256 is exact: a multiple of 1/256 under 2^23.
        const total = packed ? (bin >> shift) / 256 : sum[k]!;
        if (Math.abs(total) > third * voxels * (1 - 1e-9)) larger = true;
      }
      if (count < 3) continue;
      lines++;
      if (!larger) continue;
      count = 0;
      for (let k = line, end = line + span; k < end; k += diag) {
        const bin = n[k]!;
        const voxels = packed ? bin & low : bin;
        if (voxels < 6) continue;
        const v = (packed ? (bin >> shift) / 256 : sum[k]!) / voxels;
        let j = count++;
        for (; j > 0 && z[j - 1]! > v; j--) z[j] = z[j - 1]!;
        z[j] = v;
      }
      const m = Math.abs(z[count >> 1]!);
      if (m > first) {
        third = second;
        second = first;
        first = m;
      } else if (m > second) {
        third = second;
        second = m;
      } else if (m > third) third = m;
    }
  const top = lines >= 3 ? 0 + first + second + third : lines === 2 ? 0 + first + second : lines === 1 ? 0 + first : 0;
  return top / Math.max(1, Math.min(3, lines));
}

/**
 * Ring amplitude in HU: each radius's profile value is the median of its 16 sectors' mean residuals (so
 * anatomy touching a few sectors does not count). Radii that stand out of the profile (|z| > 4 against the
 * profile's own spread, each value weighted by the square root of its voxel count, 1.4826 MAD over radii)
 * are rings; the sum of the three largest amplitudes over three is returned (a single detector ring counts,
 * at a third of its amplitude; none gives 0). The z-score alone would find the faint round layers of a
 * quiet head scan; the amplitude says whether a ring would be seen.
 */
function ringProminence(sum: Float64Array, n: Uint32Array): number {
  const radii = sum.length / 16;
  // Typed arrays of one entry per radius, filled in radius order as the arrays pushed to once were.
  const profile = new Float64Array(radii),
    amplitude = new Float64Array(radii);
  let used = 0;
  // Each radius's sector means, sorted by insertion as they come (16 at most).
  const means = new Float64Array(16);
  for (let rad = 0; rad < radii; rad++) {
    let count = 0,
      sectors = 0;
    for (let k = rad * 16, end = k + 16; k < end; k++) {
      const voxels = n[k]!;
      count += voxels;
      if (voxels < 6) continue;
      const v = sum[k]! / voxels;
      let j = sectors++;
      for (; j > 0 && means[j - 1]! > v; j--) means[j] = means[j - 1]!;
      means[j] = v;
    }
    if (sectors < 6) continue;
    const m = means[sectors >> 1]!;
    amplitude[used] = m;
    profile[used++] = m * Math.sqrt(count);
  }
  if (used < 12) return 0;
  const mid = medianOf(profile.subarray(0, used));
  const deviation = new Float64Array(used);
  for (let r = 0; r < used; r++) deviation[r] = Math.abs(profile[r]! - mid);
  const spread = 1.4826 * medianOf(deviation);
  if (!(spread > 0)) return 0;
  // The amplitude (HU) of the radii that stand out of the profile's noise (|z| > 4): a faint circle in a very
  // quiet image is significant without being an artefact anyone would see. The three largest are kept as
  // they come: the same three numbers a sort of them all gives, added in the same order.
  let first = 0,
    second = 0,
    third = 0;
  for (let r = 0; r < used; r++) {
    if (!(Math.abs(profile[r]! - mid) / spread > 4)) continue;
    const a = Math.abs(amplitude[r]!);
    if (a > first) {
      third = second;
      second = first;
      first = a;
    } else if (a > second) {
      third = second;
      second = a;
    } else if (a > third) third = a;
  }
  return (first + second + third) / 3;
}

/**
 * CT in Hounsfield units: noise as the SD of homogeneous soft-tissue blocks (air when there is no soft
 * tissue), HU calibration (air near -1000, soft tissue near 0–60), CNR of soft tissue against fat, streaks,
 * rings, clipping at the scanner limits and edge blur. No mean-signal SNR: water is 0 HU.
 */
export function ctMeasures(c: MeasureContext): Measures {
  const { values, width, height } = c;
  const n = values.length;
  const plane = width * height;
  const slices = plane ? Math.floor(n / plane) : 0;
  const [, high] = c.storedRange;
  // Tissue classes are told on the smoothed image: in a very noisy one, raw values stray out of their class.
  // The same sigma-1 smoothing as the sharpness measures', computed once per check.
  const smooth = smoothedOnce(values, width, height);
  // One pass for every voxel-wise quantity: the classes (their masks as packed bits, their values gathered
  // for the percentiles), the residual, the masks the dilations start from, the clipping counts and the
  // clamped image for the edge width. The classes are told without branches, as bits; their values are then
  // gathered a word of 32 voxels at a time, set bits only.
  const words = (width + 31) >> 5;
  const bitWords = words * height * slices;
  const softBits = new Int32Array(bitWords),
    airBits = new Int32Array(bitWords),
    bodyBits = new Int32Array(bitWords),
    notSoftBits = new Int32Array(bitWords),
    notAirBits = new Int32Array(bitWords);
  // Work buffers kept between calls, each written in full before it is read. The edge width's smoothing of
  // the clamped image is remembered by the array: what a previous check left is dropped first.
  const residual = scratchFloat32('ct-residual', n),
    clamped = scratchFloat32('ct-clamped', n);
  forgetSmoothed(clamped);
  // The classes' values, for their percentiles (exact order statistics: the order they are gathered in does
  // not matter). Single precision holds them exactly.
  const softValues = scratchFloat32('ct-soft', n),
    airValues = scratchFloat32('ct-air', n),
    fatValues = scratchFloat32('ct-fat', n);
  // The clipping limit: the stored maximum or 3071 HU, whichever is lower (a stored maximum that is not a
  // number compares false, leaving 3071).
  const limit = high < 3071 ? high : 3071;
  let softN = 0,
    airN = 0,
    bodyN = 0,
    fatN = 0,
    atLimit = 0,
    atTop = 0,
    max = -Infinity;
  const bx = Math.floor(width / BLOCK),
    by = Math.floor(height / BLOCK);
  const softSd: number[] = [],
    airSd: number[] = [];
  for (let z = 0; z < slices; z++)
    for (let y = 0; y < height; y++) {
      const w0 = (z * height + y) * words;
      for (let j = 0; j < words; j++) {
        let soft = 0,
          air = 0,
          body = 0,
          notSoft = 0,
          notAir = 0,
          fat = 0;
        const x0 = 32 * j,
          start = z * plane + y * width + x0;
        for (let b = 0, i = start, end = start + Math.min(32, width - x0); i < end; b++, i++) {
          const v = smooth[i]!,
            raw = values[i]!;
          const isSoft = v >= -150 && v <= 250 ? 1 : 0;
          // Below -1100 is padding outside the reconstructed circle, not air.
          const isAir = v >= -1100 && v <= -400 ? 1 : 0;
          const isBody = v > -500 ? 1 : 0;
          soft |= isSoft << b;
          air |= isAir << b;
          body |= isBody << b;
          fat |= (v >= -150 && v <= -50 ? 1 : 0) << b;
          bodyN += isBody;
          atLimit += isBody & (raw >= limit ? 1 : 0);
          // The brightest value and how many body voxels hold it, counted as the maximum rises.
          if (raw >= max) {
            if (raw > max) {
              max = raw;
              atTop = isBody;
            } else atTop += isBody;
          }
          residual[i] = raw - v;
          // Thin dense objects (head holders, table edges, wires) blur into the soft range: their raw values
          // keep them out.
          notSoft |= (isSoft && raw > -300 && raw < 400 ? 0 : 1) << b;
          // Homogeneous air, for the rings that run through the air around the body.
          notAir |= (isAir && v <= -700 && raw > -1150 && raw < -650 ? 0 : 1) << b;
          // Clamped to ±1000 without a comparison, which noisy air about -1000 HU left the processor unable to
          // predict: `over` + |over| is 0 within the window and 2·over above it, `under` - |under| likewise below,
          // so within it raw less +0 (raw itself, -0 included) remains and outside it the limit, exactly while
          // raw ∓ 1000 is exact: every value under 2^50 in size (larger ones are clamped again below).
          const over = raw - 1000,
            under = raw + 1000;
          clamped[i] = raw - (over + Math.abs(over) + (under - Math.abs(under))) * 0.5;
        }
        for (let w = soft; w !== 0; w &= w - 1) softValues[softN++] = values[start + 31 - Math.clz32(w & -w)]!;
        for (let w = air; w !== 0; w &= w - 1) airValues[airN++] = smooth[start + 31 - Math.clz32(w & -w)]!;
        for (let w = fat; w !== 0; w &= w - 1) fatValues[fatN++] = values[start + 31 - Math.clz32(w & -w)]!;
        const k = w0 + j;
        softBits[k] = soft;
        airBits[k] = air;
        bodyBits[k] = body;
        notSoftBits[k] = notSoft;
        notAirBits[k] = notAir;
      }
      // The 8×8 blocks whose voxels are all soft tissue or all air, once their last row is in: only those
      // are measured (row by row, each row from left to right, as the block's sums were always added).
      if (y % BLOCK !== BLOCK - 1 || y >= by * BLOCK) continue;
      const top = z * height + y - (BLOCK - 1);
      for (let b = 0; b < bx; b++) {
        const j = (b * BLOCK) >> 5,
          shift = (b * BLOCK) & 31;
        let allSoft = 0xff,
          allAir = 0xff;
        for (let r = 0; r < BLOCK; r++) {
          allSoft &= softBits[(top + r) * words + j]! >>> shift;
          allAir &= airBits[(top + r) * words + j]! >>> shift;
        }
        if (allSoft !== 0xff && allAir !== 0xff) continue;
        let sum = 0,
          sq = 0;
        for (let r = 0; r < BLOCK; r++)
          for (let i = (top + r) * width + b * BLOCK, end = i + BLOCK; i < end; i++) {
            const raw = values[i]!;
            sum += raw;
            sq += raw * raw;
          }
        const cells = BLOCK * BLOCK;
        const sd = Math.sqrt(Math.max(0, sq / cells - (sum / cells) ** 2) * (cells / (cells - 1)));
        if (!(sd > 0)) continue;
        (allSoft === 0xff ? softSd : airSd).push(sd);
      }
    }
  if (!(c.extent && c.extent.min > -(2 ** 50) && c.extent.max < 2 ** 50))
    for (let i = 0; i < slices * plane; i++) {
      const raw = values[i]!;
      clamped[i] = raw < -1000 ? -1000 : raw > 1000 ? 1000 : raw;
    }
  // The quietest quarter of whole blocks is homogeneous tissue; edges and structure only raise a block's SD.
  const noise =
    softSd.length >= 4
      ? quantileInPlace(Float64Array.from(softSd), 25)
      : airSd.length >= 4
        ? quantileInPlace(Float64Array.from(airSd), 25)
        : 0;
  // Air outside the body is the darkest large class; lung (about -850) only lifts the upper percentiles.
  const airHu = airN ? quantileInPlace(airValues.subarray(0, airN), 10) : -1000;
  // Soft tissue's and fat's values are raw Hounsfield units, whole numbers on nearly every scan: counted.
  const soft = softValues.subarray(0, softN),
    fat = fatValues.subarray(0, fatN);
  const softHu = softN ? (integerMedian(soft) ?? quantileInPlace(soft, 50)) : 40;
  const fatHu = integerMedian(fat) ?? quantileInPlace(fat, 50);
  // Calibration error in HU: how far air is from -1000 and soft tissue from the 0–60 band.
  // The darkest class may be lung (about -850) when the field holds no outside air, so -1100 to -850 is fine.
  const huError = Math.max(
    airN > n * 0.01 ? Math.max(0, airHu + 850, -1100 - airHu) : 0,
    softN > n * 0.02 ? Math.max(0, -20 - softHu, softHu - 80) : 0,
  );
  // Tissue judged on the smoothed image, so the streaks themselves do not take their pixels out of it.
  // The masks are grown on packed bits, 32 voxels a word operation.
  const mask = (bits: Int32Array): MaskBits => ({ bits, words, width, height, slices });
  const edges = morphBits(mask(notSoftBits), 2, false).bits;
  const airEdges = morphBits(mask(notAirBits), 2, false).bits;
  // Rings are judged away from bone and the body's outline (5 voxels off): a round head's thin layer of fluid
  // inside the skull is a centred circle of its own.
  const farEdges = morphBits(mask(edges), 5, false).bits;
  const keepBits = new Int32Array(bitWords),
    ringKeepBits = new Int32Array(bitWords);
  // Bits of each row's last word that lie within the width: a complement must leave those past it unset.
  const lastValid = lastWordBits(width);
  // The kept voxels' absolute residuals, for their median (fat's values are no longer needed).
  const kept = fatValues;
  let keepN = 0;
  for (let row = 0, rows = height * slices; row < rows; row++)
    for (let j = 0, k = row * words; j < words; j++, k++) {
      const keep = softBits[k]! & ~edges[k]!;
      keepBits[k] = keep;
      // Rings run through the air around the body as well: homogeneous air (away from its edges) is judged too.
      ringKeepBits[k] = ((keep & ~farEdges[k]!) | ~airEdges[k]!) & (j === words - 1 ? lastValid : -1);
      for (let w = keep, at = row * width + 32 * j; w !== 0; w &= w - 1)
        kept[keepN++] = Math.abs(residual[at + 31 - Math.clz32(w & -w)]!);
    }
  const residualSd = quantileInPlace(kept.subarray(0, keepN), 50) * 1.4826;
  const keep = mask(keepBits);
  const lines =
    residualSd > 0 ? lineScores(residual, keep, mask(ringKeepBits), width, height) : { streaks: 0, rings: 0 };
  // Values clamped to a window on export pile up at the top; a lone brightest voxel is not clipping.
  const clipped = Math.max(atLimit, atTop >= 2 ? atTop : 0) / Math.max(1, bodyN);
  const near = scratchUint8('ct-near', n);
  unpackMask(morphBits(mask(bodyBits), 2, false), near);
  const edge = edgeWidth(clamped, width, height, near);
  forgetSmoothed(clamped);
  return {
    noise_hu: noise,
    air_hu: airHu,
    soft_tissue_hu: softHu,
    hu_error: huError,
    cnr: noise > 0 && fatHu < 0 ? Math.abs(softHu - fatHu) / noise : 0,
    streaks: lines.streaks,
    metal_streaks: residualSd > 0 ? metalStreaks(values, residual, keep, max) : 0,
    rings: lines.rings,
    clipped,
    edge_width: edge * c.stride,
  };
}
