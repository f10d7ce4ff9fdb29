// The MR artefact measures as they were before they were made faster, kept verbatim (imports aside) as
// the reference the faster ones must match to the bit.
import { dilate } from '../../../server/imaging/metrics/mask.ts';
import { blockStats, pick, quantile } from '../../../server/imaging/metrics/image-stats.ts';
import { binomialSmooth, smoothedOnce } from '../../../server/imaging/metrics/sharpness.ts';

/** The in-plane axis a DICOM image's phase was encoded along (InPlanePhaseEncodingDirection: ROW → x, COL → y). */
export type PhaseAxis = 'x' | 'y';

/** The head and the air around it, slice by slice. */
export interface HeadMasks {
  /** The object with its gaps closed and its holes (skull, ventricles, dark tissue) filled. */
  head: Uint8Array;
  /** What lies outside the head grown by a margin: the air the artefacts are looked for in. */
  air: Uint8Array;
  airCount: number;
  headCount: number;
}

/** Shrinks a mask by `radius` voxels in-plane (the complement of dilating the complement). */
function erode(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const inverse = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) inverse[i] = mask[i] ? 0 : 1;
  const grown = dilate(inverse, width, height, radius);
  for (let i = 0; i < grown.length; i++) grown[i] = grown[i] ? 0 : 1;
  return grown;
}

/**
 * The head of each slice: the object closed by `close` voxels, pieces smaller than 0.5% of the slice
 * dropped (noise above the threshold), and every region the image border cannot reach through
 * non-object voxels filled in. A morphological closing and hole filling, as MRIQC's head mask.
 */
export function headMasks(object: Uint8Array, width: number, height: number, margin: number): HeadMasks {
  const plane = width * height;
  const slices = plane ? object.length / plane : 0;
  const close = Math.max(1, Math.round(Math.min(width, height) / 64));
  // The closing runs on a frame `close` voxels wide, so an object touching the border is not cut open.
  const closed = erode(dilate(object, width, height, close), width, height, close);
  for (let i = 0; i < object.length; i++) if (object[i]) closed[i] = 1;
  const head = new Uint8Array(object.length);
  const stack = new Int32Array(plane);
  const label = new Int32Array(plane);
  const minPiece = Math.max(4, plane * 0.005);
  const sizes: number[] = [0];
  const outside = new Uint8Array(plane);
  for (let z = 0; z < slices; z++) {
    const o = z * plane;
    // Connected pieces of the closed object (4-neighbours), sized in a first pass; the small ones are left out.
    label.fill(0);
    sizes.length = 1;
    for (let start = 0; start < plane; start++) {
      if (!closed[o + start] || label[start]) continue;
      const id = sizes.length;
      let top = 0,
        size = 0;
      stack[top++] = start;
      label[start] = id;
      while (top > 0) {
        const p = stack[--top]!;
        size++;
        const x = p % width;
        if (p >= width && closed[o + p - width] && !label[p - width]) {
          label[p - width] = id;
          stack[top++] = p - width;
        }
        if (p < plane - width && closed[o + p + width] && !label[p + width]) {
          label[p + width] = id;
          stack[top++] = p + width;
        }
        if (x > 0 && closed[o + p - 1] && !label[p - 1]) {
          label[p - 1] = id;
          stack[top++] = p - 1;
        }
        if (x < width - 1 && closed[o + p + 1] && !label[p + 1]) {
          label[p + 1] = id;
          stack[top++] = p + 1;
        }
      }
      sizes.push(size);
    }
    for (let p = 0; p < plane; p++) if (label[p] && sizes[label[p]!]! >= minPiece) head[o + p] = 1;
    // Fill: what the border reaches through non-head voxels is outside; the rest is head.
    outside.fill(0);
    let top = 0;
    const seed = (p: number) => {
      if (!head[o + p] && !outside[p]) {
        outside[p] = 1;
        stack[top++] = p;
      }
    };
    for (let x = 0; x < width; x++) {
      seed(x);
      seed((height - 1) * width + x);
    }
    for (let y = 0; y < height; y++) {
      seed(y * width);
      seed(y * width + width - 1);
    }
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      if (p >= width) seed(p - width);
      if (p < plane - width) seed(p + width);
      if (x > 0) seed(p - 1);
      if (x < width - 1) seed(p + 1);
    }
    for (let p = 0; p < plane; p++) if (!outside[p]) head[o + p] = 1;
  }
  const grown = dilate(head, width, height, margin);
  const air = new Uint8Array(object.length);
  let airCount = 0,
    headCount = 0;
  for (let i = 0; i < object.length; i++) {
    if (head[i]) headCount++;
    if (grown[i]) continue;
    air[i] = 1;
    airCount++;
  }
  return { head, air, airCount, headCount };
}

/**
 * Calls `visit(i, j)` for every voxel i of every slice and the voxel j `shift` voxels on along `axis`
 * (wrapping round) in the same slice; loops by row so no voxel's coordinates are divided out.
 */
function eachShifted(
  length: number,
  axis: PhaseAxis,
  width: number,
  height: number,
  shift: number,
  visit: (i: number, j: number) => void,
): void {
  const plane = width * height;
  for (let o = 0; o + plane <= length; o += plane)
    for (let y = 0; y < height; y++) {
      const row = o + y * width;
      if (axis === 'x') {
        for (let x = 0; x < width; x++) visit(row + x, row + ((x + shift) % width));
      } else {
        const to = o + ((y + shift) % height) * width;
        for (let x = 0; x < width; x++) visit(row + x, to + x);
      }
    }
}

/**
 * The correlation of the head's detail with itself `shift` voxels on along `axis`, over the pairs of head
 * voxels; undefined for fewer than 256 pairs.
 */
function headCorrelation(
  detail: Float32Array,
  head: Uint8Array,
  axis: PhaseAxis,
  width: number,
  height: number,
  shift: number,
): number | undefined {
  let ab = 0,
    aa = 0,
    bb = 0,
    pairs = 0;
  eachShifted(detail.length, axis, width, height, shift, (i, j) => {
    if (!head[i] || !head[j]) return;
    ab += detail[i]! * detail[j]!;
    aa += detail[i]! * detail[i]!;
    bb += detail[j]! * detail[j]!;
    pairs++;
  });
  return pairs >= 256 && aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : undefined;
}

/** Fewest voxels each region of the ghost-to-signal ratio must hold for its mean to mean something. */
const MIN_REGION = 64;

/**
 * The ghost along one axis, as a fraction of the signal. Where there is air to see it in, MRIQC's
 * ghost-to-signal ratio (the air where the head, shifted by half the field of view, would fall, against the
 * rest of the air, over the mean signal), but no more than the ghost's amplitude from its detail: the air's
 * fine structure regressed on the head's half a field of view away. Only a replica of the head has both;
 * dim tissue left outside the head mask raises the mean but does not copy the head's detail, and noise
 * copies neither. Where the head fills the field of view, the ghost's amplitude from within the head: a
 * ghost adds k times the image shifted by half the field, so the head's detail correlates with itself
 * there by rho = 2k/(1+k^2), solved for k. A symmetric head correlates with itself at every shift near
 * half the field too (its left half lands near its mirror image), a ghost only at half the field: what the
 * shifts a few voxels either side give is taken off. Undefined when neither has enough voxels.
 */
function ghostAlong(
  values: Float32Array,
  detail: Float32Array,
  masks: HeadMasks,
  axis: PhaseAxis,
  width: number,
  height: number,
  signal: number,
): number | undefined {
  let ghostSum = 0,
    ghostN = 0,
    restSum = 0,
    restN = 0,
    ab = 0,
    bb = 0;
  eachShifted(values.length, axis, width, height, (axis === 'x' ? width : height) >> 1, (i, j) => {
    if (!masks.air[i]) return;
    if (!masks.head[j]) {
      restSum += values[i]!;
      restN++;
      return;
    }
    ghostSum += values[i]!;
    ghostN++;
    ab += detail[i]! * detail[j]!;
    bb += detail[j]! * detail[j]!;
  });
  const enough = Math.max(MIN_REGION, values.length * 0.01);
  if (ghostN >= enough && restN >= enough) {
    // Signed, as MRIQC's: a clean image scatters about 0, so a cohort of clean images has a spread to compare with.
    const gsr = (ghostSum / ghostN - restSum / restN) / signal;
    return Math.min(gsr, bb > 0 ? ab / bb : 0);
  }
  const n = axis === 'x' ? width : height;
  const half = n >> 1;
  const rho = headCorrelation(detail, masks.head, axis, width, height, half);
  if (rho === undefined) return undefined;
  const near = [-5, -4, 4, 5]
    .map((d) => headCorrelation(detail, masks.head, axis, width, height, (half + d + n) % n))
    .filter((r): r is number => r !== undefined);
  const excess = Math.max(-1, Math.min(1, rho - (near.length ? near.reduce((a, b) => a + b, 0) / near.length : 0)));
  // Signed like the ratio in the air; 0 for no excess at all.
  return excess === 0 ? 0 : (Math.sign(excess) * (1 - Math.sqrt(1 - excess * excess))) / Math.abs(excess);
}

/**
 * Ghosting along the phase-encoding axis (both in-plane axes when the file does not name it, the worse
 * counts): the ghost-to-signal ratio in the air, or where the head leaves too little air, the ghost's
 * amplitude from within the head. Undefined when neither can be measured.
 */
export function ghosting(
  values: Float32Array,
  masks: HeadMasks,
  width: number,
  height: number,
  signal: number,
  phase?: PhaseAxis,
): number | undefined {
  if (!(signal > 0)) return undefined;
  // Detail: the image smoothed at sigma 1 (noise) less a wider smoothing (the head's overall shape), once for both axes.
  const fine = smoothedOnce(values, width, height);
  const detail = binomialSmooth(fine, width, height);
  for (let i = 0; i < detail.length; i++) detail[i] = fine[i]! - detail[i]!;
  let worst: number | undefined;
  for (const axis of phase ? [phase] : (['x', 'y'] as const)) {
    const g = ghostAlong(values, detail, masks, axis, width, height, signal);
    if (g !== undefined) worst = Math.max(worst ?? -Infinity, g);
  }
  return worst;
}

/**
 * Structure in the background air (motion ghosts, replicas of the head along the phase axis), as a fraction
 * of the head's signal: the spread of the air's block means, less what its noise alone gives them, over the
 * mean signal. Blocks are a fixed share of the field of view (a 24th of its smaller side), so a matrix
 * resampled or turned measures alike. The noise left in a block mean is measured, not assumed white (noise
 * correlated by interpolation averages away less): it is what differs between neighbouring blocks, robustly
 * (a median), and it is removed in quadrature. Undefined with fewer than 8 blocks of air.
 */
export function backgroundStructure(
  values: Float32Array,
  masks: HeadMasks,
  width: number,
  height: number,
  sigma: number,
  signal: number,
): number | undefined {
  const size = Math.max(4, Math.round(Math.min(width, height) / 24));
  const blocks = blockStats(values, width, height, size, masks.air);
  const means = pick(blocks.mean, (k) => blocks.inside[k] === 1);
  if (means.length < 8 || !(signal > 0)) return undefined;
  const spread = (quantile(means, 90) - quantile(means, 10)) / 2.563;
  // Neighbouring blocks of air, across and down: their differences hold the noise twice, ghosts seldom.
  const bx = Math.floor(width / size),
    by = Math.floor(height / size);
  const steps: number[] = [];
  for (let k = 0; k < blocks.count; k++) {
    if (blocks.inside[k] !== 1) continue;
    const i = k % bx,
      j = Math.floor(k / bx) % by;
    if (i + 1 < bx && blocks.inside[k + 1] === 1) steps.push(Math.abs(blocks.mean[k + 1]! - blocks.mean[k]!));
    if (j + 1 < by && blocks.inside[k + bx] === 1) steps.push(Math.abs(blocks.mean[k + bx]! - blocks.mean[k]!));
  }
  const measured = steps.length >= 8 ? (quantile(steps, 50) * 1.4826) / Math.SQRT2 : 0;
  const noise = Math.max(measured, (0.655 * sigma) / size);
  // Signed: below the noise's own share it is negative, so clean images scatter about 0 rather than pile up on it.
  const excess = spread * spread - noise * noise;
  return (Math.sign(excess) * Math.sqrt(Math.abs(excess))) / signal;
}

// wrapAround as it is meant to measure since it takes the detail against the head alone, compares 2 voxels
// inside the head and takes off a symmetric head's mirror match (a deliberate change of the measure, refitted):
// written plainly, the detail of every head voxel of both lines, as the reference later speed-ups must match.

/** A line's detail at its head voxels: itself less the mean of the head voxels within 8 of it (0 elsewhere). */
function lineDetail(line: Float64Array, head: Uint8Array): Float64Array {
  const n = line.length;
  const out = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    if (!head[t]) continue;
    let sum = 0,
      count = 0;
    for (let d = -8; d <= 8; d++)
      if (t + d >= 0 && t + d < n && head[t + d]) {
        sum += line[t + d]!;
        count++;
      }
    out[t] = line[t]! - sum / count;
  }
  return out;
}

/**
 * The correlation, over all slices, of the detail of line `p` with that of line `q` (rows along y, or
 * columns along x) where both are `inner`, and the share of the line's voxels that are.
 */
function lineCorrelation(
  smooth: Float32Array,
  head: Uint8Array,
  inner: Uint8Array,
  axis: PhaseAxis,
  width: number,
  height: number,
  p: number,
  q: number,
): { r: number; share: number } {
  const plane = width * height;
  const slices = plane ? smooth.length / plane : 0;
  const count = axis === 'y' ? width : height;
  let on = 0,
    ab = 0,
    aa = 0,
    bb = 0;
  const at = (o: number, line: number, t: number) => (axis === 'y' ? o + line * width + t : o + t * width + line);
  for (let z = 0; z < slices; z++) {
    const o = z * plane;
    const first = new Float64Array(count),
      last = new Float64Array(count),
      headP = new Uint8Array(count),
      headQ = new Uint8Array(count);
    for (let t = 0; t < count; t++) {
      first[t] = smooth[at(o, p, t)]!;
      last[t] = smooth[at(o, q, t)]!;
      headP[t] = head[at(o, p, t)]!;
      headQ[t] = head[at(o, q, t)]!;
    }
    const a = lineDetail(first, headP),
      b = lineDetail(last, headQ);
    for (let t = 0; t < count; t++) {
      if (!inner[at(o, p, t)] || !inner[at(o, q, t)]) continue;
      on++;
      ab += a[t]! * b[t]!;
      aa += a[t]! * a[t]!;
      bb += b[t]! * b[t]!;
    }
  }
  return { r: aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0, share: on / Math.max(1, count * slices) };
}

/**
 * Wrap-around: the edge lines' detail correlation, 2 voxels inside the head, less what lines 4–6 in from
 * the far edge share by chance and less what the pairs one line further in agree by beyond the edge pair.
 */
export function wrapAround(values: Float32Array, masks: HeadMasks, width: number, height: number): number {
  const smooth = smoothedOnce(values, width, height);
  const inner = erode(masks.head, width, height, 2);
  let worst = 0;
  for (const axis of ['y', 'x'] as const) {
    const [count, n] = axis === 'y' ? [width, height] : [height, width];
    if (count < 16 || n < 16) continue;
    const edge = lineCorrelation(smooth, masks.head, inner, axis, width, height, 0, n - 1);
    if (!(edge.share > 0)) continue;
    let chance = 0;
    for (const k of [4, 5, 6])
      chance +=
        (lineCorrelation(smooth, masks.head, inner, axis, width, height, 0, n - 1 - k).r +
          lineCorrelation(smooth, masks.head, inner, axis, width, height, k, n - 1).r) /
        6;
    const near = Math.max(
      lineCorrelation(smooth, masks.head, inner, axis, width, height, 0, n - 2).r,
      lineCorrelation(smooth, masks.head, inner, axis, width, height, 1, n - 1).r,
    );
    const mirror = Math.max(0, near - edge.r);
    worst = Math.max(worst, Math.min(1, edge.share / 0.05) * Math.max(0, edge.r - Math.max(0, chance) - mirror));
  }
  return worst;
}
