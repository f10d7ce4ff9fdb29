// MR artefacts seen outside or across the head: N/2 ghosting, motion ghosts in the background air, and
// wrap-around. Each is judged relative to the head's own signal, on masks that follow the head rather than
// the image's matrix, so a field of view closed in on the head, another matrix size, a quarter turn or a
// background of exact zeros does not change what a clean image measures.
import { type MaskBits, morphBits, packMask, unpackMask } from './mask-bits.ts';
import { blockStats, pick, quantile } from './image-stats.ts';
import { binomialSmooth, smoothedOnce } from './sharpness.ts';

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
  /** `head` packed, for the measures that shrink it again. */
  headBits?: MaskBits;
}

/**
 * Fills the 4-connected region of the in-plane voxels p with `grid[o + p] === want` and `mark[p] === 0`
 * that holds `seed` (such a voxel), setting `mark` to `id`; returns how many voxels it filled. A scanline
 * fill: each run of a row is marked whole and queued once (as its first and last voxel), then the rows
 * above and below are searched along it, so no voxel is visited more than a few times. `stack` holds at
 * least plane + 2 * height numbers (two per run, and a row holds at most width / 2 + 1 runs).
 */
function fillRegion(
  grid: Uint8Array,
  o: number,
  want: number,
  width: number,
  plane: number,
  mark: Int32Array,
  id: number,
  seed: number,
  stack: Int32Array,
): number {
  let top = 0,
    filled = 0;
  // Marks the open run through p, which is open, and queues it.
  const row0 = seed - (seed % width);
  let a = seed,
    b = seed;
  while (a > row0 && grid[o + a - 1] === want && !mark[a - 1]) a--;
  while (b < row0 + width - 1 && grid[o + b + 1] === want && !mark[b + 1]) b++;
  for (let p = a; p <= b; p++) mark[p] = id;
  stack[top++] = a;
  stack[top++] = b;
  while (top > 0) {
    const last = stack[--top]!,
      first = stack[--top]!;
    filled += last - first + 1;
    const row = first - (first % width);
    for (let side = 0; side < 2; side++) {
      const d = side === 0 ? -width : width;
      if (side === 0 ? row === 0 : row + width >= plane) continue;
      const start = row + d;
      for (let q = first + d, end = last + d; q <= end; q++) {
        if (grid[o + q] !== want || mark[q]) continue;
        let s = q,
          e = q;
        while (s > start && grid[o + s - 1] === want && !mark[s - 1]) s--;
        while (e < start + width - 1 && grid[o + e + 1] === want && !mark[e + 1]) e++;
        for (let p = s; p <= e; p++) mark[p] = id;
        stack[top++] = s;
        stack[top++] = e;
        q = e + 1;
      }
    }
  }
  return filled;
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
  const packed = packMask(object, width, height);
  const closedBits = morphBits(morphBits(packed, close, false), close, true);
  for (let k = 0; k < packed.bits.length; k++) closedBits.bits[k]! |= packed.bits[k]!;
  const closed = new Uint8Array(object.length);
  unpackMask(closedBits, closed);
  const head = new Uint8Array(object.length);
  const stack = new Int32Array(plane + 2 * height + 2);
  const label = new Int32Array(plane);
  const sizes = new Int32Array(plane + 1);
  const kept = new Uint8Array(plane);
  const minPiece = Math.max(4, plane * 0.005);
  let headCount = 0;
  for (let z = 0; z < slices; z++) {
    const o = z * plane;
    // Connected pieces of the closed object (4-neighbours), sized; the small ones are left out.
    label.fill(0);
    let pieces = 0;
    for (let start = 0; start < plane; start++) {
      if (!closed[o + start] || label[start]) continue;
      pieces++;
      sizes[pieces] = fillRegion(closed, o, 1, width, plane, label, pieces, start, stack);
    }
    for (let p = 0; p < plane; p++) kept[p] = label[p] && sizes[label[p]!]! >= minPiece ? 1 : 0;
    // Fill: what the border reaches through voxels of no kept piece is outside; the rest is head.
    label.fill(0);
    const seed = (p: number) => {
      if (!kept[p] && !label[p]) fillRegion(kept, 0, 0, width, plane, label, 1, p, stack);
    };
    for (let x = 0; x < width; x++) {
      seed(x);
      seed((height - 1) * width + x);
    }
    for (let y = 0; y < height; y++) {
      seed(y * width);
      seed(y * width + width - 1);
    }
    for (let p = 0; p < plane; p++) {
      const inside = label[p] ? 0 : 1;
      head[o + p] = inside;
      headCount += inside;
    }
  }
  const air = new Uint8Array(object.length);
  const headBits = packMask(head, width, height);
  const airCount = unpackMask(morphBits(headBits, margin, false), air, true);
  return { head, air, airCount, headCount, headBits };
}

/**
 * The pairs of voxels i and j, `shift` voxels on from i along `axis` (wrapping round) in the same slice, of
 * one slice as runs along which both advance by one voxel: [i, j, length] triples in the order of i, row by
 * row, so sums over them add up in the order of a walk over the voxels, with no coordinates divided out.
 */
function shiftedRuns(axis: PhaseAxis, width: number, height: number, shift: number): Int32Array {
  const runs = new Int32Array(height * (axis === 'x' ? 6 : 3));
  for (let y = 0, k = 0; y < height; y++) {
    const row = y * width;
    if (axis === 'x') {
      runs.set([row, row + shift, width - shift, row + width - shift, row, shift], k);
      k += 6;
    } else {
      runs.set([row, ((y + shift) % height) * width, width], k);
      k += 3;
    }
  }
  return runs;
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
  const plane = width * height;
  const runs = shiftedRuns(axis, width, height, shift);
  for (let o = 0; o + plane <= detail.length; o += plane)
    for (let k = 0; k < runs.length; k += 3) {
      const di = runs[k]! - runs[k + 1]!;
      for (let j = o + runs[k + 1]!, end = j + runs[k + 2]!; j < end; j++) {
        const i = j + di;
        if (!head[i] || !head[j]) continue;
        ab += detail[i]! * detail[j]!;
        aa += detail[i]! * detail[i]!;
        bb += detail[j]! * detail[j]!;
        pairs++;
      }
    }
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
  const plane = width * height;
  const runs = shiftedRuns(axis, width, height, (axis === 'x' ? width : height) >> 1);
  for (let o = 0; o + plane <= values.length; o += plane)
    for (let k = 0; k < runs.length; k += 3) {
      const di = runs[k]! - runs[k + 1]!;
      for (let j = o + runs[k + 1]!, end = j + runs[k + 2]!; j < end; j++) {
        const i = j + di;
        if (!masks.air[i]) continue;
        if (!masks.head[j]) {
          restSum += values[i]!;
          restN++;
          continue;
        }
        ghostSum += values[i]!;
        ghostN++;
        ab += detail[i]! * detail[j]!;
        bb += detail[j]! * detail[j]!;
      }
    }
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

/**
 * A line's detail where `compare` is set: itself less the running mean of the head's own voxels (`head`) within
 * 8 of it. The air is left out of the mean, so where the head's outline crosses the line it leaves no step in
 * the detail: a round head cut by both edges of a tight field of view has outlines at alike places in its
 * first and last lines, which would otherwise agree as a fold's do.
 */
function lineDetail(line: Float64Array, head: Uint8Array, compare: Uint8Array, out: Float64Array): void {
  const n = line.length;
  for (let t = 0; t < n; t++) {
    if (!compare[t]) continue;
    let sum = 0,
      count = 0;
    for (let u = Math.max(0, t - 8), end = Math.min(n - 1, t + 8); u <= end; u++)
      if (head[u]) {
        sum += line[u]!;
        count++;
      }
    out[t] = line[t]! - sum / count;
  }
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
  const first = new Float64Array(count),
    last = new Float64Array(count),
    a = new Float64Array(count),
    b = new Float64Array(count);
  const headP = new Uint8Array(count),
    headQ = new Uint8Array(count),
    both = new Uint8Array(count);
  let on = 0,
    ab = 0,
    aa = 0,
    bb = 0;
  const at = (o: number, line: number, t: number) => (axis === 'y' ? o + line * width + t : o + t * width + line);
  for (let z = 0; z < slices; z++) {
    const o = z * plane;
    let any = false;
    for (let t = 0; t < count; t++) {
      const i = at(o, p, t),
        j = at(o, q, t);
      first[t] = smooth[i]!;
      last[t] = smooth[j]!;
      headP[t] = head[i]!;
      headQ[t] = head[j]!;
      both[t] = inner[i]! & inner[j]!;
      if (both[t]) any = true;
    }
    if (!any) continue;
    lineDetail(first, headP, both, a);
    lineDetail(last, headQ, both, b);
    for (let t = 0; t < count; t++) {
      if (!both[t]) continue;
      on++;
      ab += a[t]! * b[t]!;
      aa += a[t]! * a[t]!;
      bb += b[t]! * b[t]!;
    }
  }
  return { r: aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0, share: on / Math.max(1, count * slices) };
}

/**
 * Wrap-around: anatomy folded in from the far side of the field of view. The first and last rows (or
 * columns) of a wrapped image are neighbours in the true anatomy, so both hold head and their detail agrees;
 * a head that merely fills a tight field of view touches both edges with unrelated anatomy, whose detail does
 * not. Profiles are of the image smoothed at sigma 1 (noise does not agree), their detail finer than 17
 * voxels taken against the head alone, compared where both ends lie 2 voxels or more inside the head (the
 * smoothing's reach: nearer, a voxel's value holds some of the air). What the first line's detail shares with
 * lines 4–6 in from the far edge (and the last line's with lines as far in from the near edge), which are no
 * neighbours even when wrapped, is taken off: a small or smooth head agrees with other lines by chance as
 * much. So is what the pairs one line further in agree by beyond the edge pair: a fold makes the edge lines
 * the nearest pair of all, so no pair further apart agrees more, whereas a head symmetric about its midline
 * matches each edge line best with a line a little in from the other (its mirror image) and only partly with
 * the edge itself. Returns, for the worse axis, that excess correlation, in full once a twentieth of the
 * edge lines is inside the head at both ends.
 */
export function wrapAround(values: Float32Array, masks: HeadMasks, width: number, height: number): number {
  const smooth = smoothedOnce(values, width, height);
  const inner = new Uint8Array(masks.head.length);
  unpackMask(morphBits(masks.headBits ?? packMask(masks.head, width, height), 2, true), inner);
  let worst = 0;
  for (const axis of ['y', 'x'] as const) {
    const [count, n] = axis === 'y' ? [width, height] : [height, width];
    if (count < 16 || n < 16) continue;
    const pair = (p: number, q: number) => lineCorrelation(smooth, masks.head, inner, axis, width, height, p, q);
    const edge = pair(0, n - 1);
    if (!(edge.share > 0)) continue;
    let chance = 0;
    for (const k of [4, 5, 6]) chance += (pair(0, n - 1 - k).r + pair(k, n - 1).r) / 6;
    const mirror = Math.max(0, Math.max(pair(0, n - 2).r, pair(1, n - 1).r) - edge.r);
    worst = Math.max(worst, Math.min(1, edge.share / 0.05) * Math.max(0, edge.r - Math.max(0, chance) - mirror));
  }
  return worst;
}
