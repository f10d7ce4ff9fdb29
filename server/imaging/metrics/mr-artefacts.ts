// MR artefacts seen outside or across the head: N/2 ghosting, motion ghosts in the background air, and
// wrap-around. Each is judged relative to the head's own signal, on masks that follow the head rather than
// the image's matrix, so a field of view closed in on the head, another matrix size, a quarter turn or a
// background of exact zeros does not change what a clean image measures.
import { allBitsSet, lastWordBits, type MaskBits, morphBits, ones32, packMask, unpackMask } from './mask-bits.ts';
import { pick, quantile } from './image-stats.ts';
import { scratchFloat32, scratchUint8 } from './scratch.ts';
import { binomialSmooth, smoothedOnce } from './sharpness.ts';

/** The in-plane axis a DICOM image's phase was encoded along (InPlanePhaseEncodingDirection: ROW → x, COL → y). */
export type PhaseAxis = 'x' | 'y';

/**
 * The head and the air around it, slice by slice. headMasks gives both packed as well, which the measures
 * read; its byte masks are written out only when asked for, into work buffers good until the next call.
 */
export interface HeadMasks {
  /** The object with its gaps closed and its holes (skull, ventricles, dark tissue) filled. */
  readonly head: Uint8Array;
  /** What lies outside the head grown by a margin: the air the artefacts are looked for in. */
  readonly air: Uint8Array;
  airCount: number;
  headCount: number;
  /** `head` packed. */
  headBits?: MaskBits;
  /** `air` packed. */
  airBits?: MaskBits;
}

/** The masks' head packed: headMasks' own, or packed from the bytes. */
export function headBitsOf(masks: HeadMasks, width: number, height: number): MaskBits {
  return masks.headBits ?? packMask(masks.head, width, height);
}

/** The masks' air packed: headMasks' own, or packed from the bytes. */
export function airBitsOf(masks: HeadMasks, width: number, height: number): MaskBits {
  return masks.airBits ?? packMask(masks.air, width, height);
}

/** Bit x of packed row `row` (0 or 1). */
function bitAt(m: MaskBits, row: number, x: number): number {
  return (m.bits[row * m.words + (x >> 5)]! >>> (x & 31)) & 1;
}

/** The 32 bits of packed row `row` from column `c` on (c < width), wrapping round at the row's end. */
function bitsFrom(m: MaskBits, row: number, c: number): number {
  const { bits, words, width } = m;
  const base = row * words;
  if (c + 32 <= width) {
    const k = c >> 5,
      s = c & 31;
    return s === 0 ? bits[base + k]! : (bits[base + k]! >>> s) | (bits[base + k + 1]! << (32 - s));
  }
  // Across the row's end: bit by bit (a word or two a row).
  let out = 0;
  for (let b = 0, x = c; b < 32; b++, x = x + 1 === width ? 0 : x + 1) out |= bitAt(m, row, x) << b;
  return out;
}

/** The lowest set bit's index of a non-zero word. */
const lowestBit = (v: number) => 31 - Math.clz32(v & -v);

/**
 * Appends the runs of set bits of one packed row (words `w0` on) to `runs` as [start, end) pairs from index
 * `n`; returns the new index. Bits past the width are clear, so no run goes beyond it.
 */
function bitRuns(bits: Int32Array, w0: number, words: number, runs: Int32Array, n: number): number {
  let start = -1;
  for (let k = 0; k < words; k++) {
    const word = bits[w0 + k]!,
      base = k << 5;
    let pos = 0;
    while (pos < 32) {
      const above = pos === 0 ? -1 : -1 << pos;
      if (start < 0) {
        const ones = word & above;
        if (ones === 0) break;
        pos = lowestBit(ones);
        start = base + pos;
      } else {
        const zeros = ~word & above;
        if (zeros === 0) break;
        pos = lowestBit(zeros);
        runs[n++] = start;
        runs[n++] = base + pos;
        start = -1;
      }
    }
  }
  if (start >= 0) {
    runs[n++] = start;
    runs[n++] = words << 5;
  }
  return n;
}

/** Sets bits [start, end) of the packed row at word `w0`. */
function setBits(bits: Int32Array, w0: number, start: number, end: number): void {
  for (let k = start >> 5, last = (end - 1) >> 5; k <= last; k++) {
    const lo = k === start >> 5 ? start & 31 : 0,
      hi = k === last ? ((end - 1) & 31) + 1 : 32;
    bits[w0 + k]! |= (hi === 32 ? -1 : (1 << hi) - 1) & (-1 << lo);
  }
}

const work: Int32Array[] = [];

/**
 * Work buffer `k` of headMasks, at least `length` long, kept between calls (a check builds the masks once per
 * image, and fresh arrays sized for the worst case would be zeroed and collected each time). Every element
 * read is written first in the same call.
 */
function workInts(k: number, length: number): Int32Array {
  if (!(work[k] && work[k].length >= length)) work[k] = new Int32Array(length);
  return work[k];
}

/** The root of run `r` in a union-find forest, halving the path on the way. */
function root(parent: Int32Array, r: number): number {
  while (parent[r] !== r) {
    parent[r] = parent[parent[r]!]!;
    r = parent[r]!;
  }
  return r;
}

/**
 * Joins, in `parent`, every run of one row with the runs of the row above it that share a column with it
 * (4-neighbours). Runs are [start, end) pairs in `runs`, row y's from `first[y]` to `first[y + 1]` (run
 * indices).
 */
function joinRows(runs: Int32Array, first: Int32Array, height: number, parent: Int32Array): void {
  for (let y = 1; y < height; y++) {
    let a = first[y - 1]!;
    const aEnd = first[y]!;
    for (let b = first[y]!, bEnd = first[y + 1]!; b < bEnd && a < aEnd;) {
      if (runs[2 * a]! < runs[2 * b + 1]! && runs[2 * b]! < runs[2 * a + 1]!) {
        const ra = root(parent, a),
          rb = root(parent, b);
        if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
      }
      // The run that ends first can meet no later run of the other row.
      if (runs[2 * a + 1]! < runs[2 * b + 1]!) a++;
      else b++;
    }
  }
}

/**
 * The head of each slice: the object closed by `close` voxels, pieces smaller than 0.5% of the slice
 * dropped (noise above the threshold), and every region the image border cannot reach through
 * non-object voxels filled in. A morphological closing and hole filling, as MRIQC's head mask.
 * Pieces and the regions between them are found as runs of each row, joined where runs of neighbouring
 * rows share a column (4-neighbours): a slice holds a few runs a row where it holds hundreds of voxels.
 * `packed` is `object` packed (packMask), when the caller has it.
 */
export function headMasks(
  object: Uint8Array,
  width: number,
  height: number,
  margin: number,
  packed: MaskBits = packMask(object, width, height),
): HeadMasks {
  const plane = width * height;
  const slices = plane ? object.length / plane : 0;
  const close = Math.max(1, Math.round(Math.min(width, height) / 64));
  // The closing runs on a frame `close` voxels wide, so an object touching the border is not cut open.
  const closedBits = morphBits(morphBits(packed, close, false), close, true);
  for (let k = 0; k < packed.bits.length; k++) closedBits.bits[k]! |= packed.bits[k]!;
  const { words } = packed;
  const headBits: MaskBits = { bits: new Int32Array(packed.bits.length), words, width, height, slices };
  // A row holds at most width / 2 + 1 runs of either kind.
  const most = height * ((width >> 1) + 2);
  const runs = workInts(0, 2 * most),
    gaps = workInts(1, 2 * most),
    parent = workInts(2, most),
    size = workInts(3, most),
    first = workInts(4, height + 1),
    gapFirst = workInts(5, height + 1);
  const outside = workInts(6, most);
  const minPiece = Math.max(4, plane * 0.005);
  for (let z = 0; z < slices; z++) {
    // The closed object's runs, joined into pieces and sized.
    let n = 0;
    for (let y = 0; y < height; y++) {
      first[y] = n >> 1;
      n = bitRuns(closedBits.bits, (z * height + y) * words, words, runs, n);
    }
    const count = (first[height] = n >> 1);
    for (let r = 0; r < count; r++) parent[r] = r;
    joinRows(runs, first, height, parent);
    size.fill(0, 0, count);
    for (let r = 0; r < count; r++) size[root(parent, r)]! += runs[2 * r + 1]! - runs[2 * r]!;
    // The gaps between the kept pieces' runs, joined into regions; those touching the border are outside.
    let g = 0;
    for (let y = 0; y < height; y++) {
      gapFirst[y] = g >> 1;
      let from = 0;
      for (let r = first[y]!; r < first[y + 1]!; r++) {
        if (size[root(parent, r)]! < minPiece) continue;
        if (runs[2 * r]! > from) {
          gaps[g++] = from;
          gaps[g++] = runs[2 * r]!;
        }
        from = runs[2 * r + 1]!;
      }
      if (from < width) {
        gaps[g++] = from;
        gaps[g++] = width;
      }
    }
    const gapCount = (gapFirst[height] = g >> 1);
    for (let r = 0; r < gapCount; r++) parent[r] = r;
    joinRows(gaps, gapFirst, height, parent);
    outside.fill(0, 0, gapCount);
    for (let y = 0; y < height; y++)
      for (let r = gapFirst[y]!; r < gapFirst[y + 1]!; r++)
        if (y === 0 || y === height - 1 || gaps[2 * r] === 0 || gaps[2 * r + 1] === width) outside[root(parent, r)] = 1;
    // The head: each row less its gaps that reach the border.
    for (let y = 0; y < height; y++) {
      const w0 = (z * height + y) * words;
      let from = 0;
      for (let r = gapFirst[y]!, end = gapFirst[y + 1]!; r <= end; r++) {
        // Each outside gap ends the head's run before it; the row's end ends the last.
        if (r < end && !outside[root(parent, r)]) continue;
        const to = r < end ? gaps[2 * r]! : width;
        if (to > from) setBits(headBits.bits, w0, from, to);
        if (r < end) from = gaps[2 * r + 1]!;
      }
    }
  }
  // The air: what the head grown by the margin leaves, as bits; the byte masks are written out (into work
  // buffers kept between calls, every byte written) only for a caller that asks for them.
  const around = morphBits(headBits, margin, false);
  const airBits: MaskBits = { bits: new Int32Array(around.bits.length), words, width, height, slices };
  // Bits of each row's last word that lie within the width: the air's complement leaves those past it clear.
  const lastValid = lastWordBits(width);
  let headCount = 0,
    airCount = 0;
  for (let k = 0; k < around.bits.length; k++) {
    const a = ~around.bits[k]! & (k % words === words - 1 ? lastValid : -1);
    airBits.bits[k] = a;
    airCount += ones32(a);
    headCount += ones32(headBits.bits[k]!);
  }
  let head: Uint8Array | undefined, air: Uint8Array | undefined;
  return {
    get head() {
      if (!head) unpackMask(headBits, (head = scratchUint8('head-mask', object.length)));
      return head;
    },
    get air() {
      if (!air) unpackMask(airBits, (air = scratchUint8('air-mask', object.length)));
      return air;
    },
    airCount,
    headCount,
    headBits,
    airBits,
  };
}

/** Fewest voxels each region of the ghost-to-signal ratio must hold for its mean to mean something. */
const MIN_REGION = 64;

/** Sums of one axis's ghost-to-signal ratio: the air where the shifted head falls, the rest of the air. */
interface AirSums {
  ghostSum: number;
  ghostN: number;
  restSum: number;
  restN: number;
  /** The ghost's detail regressed on the head's: sum of products, and of the head's squares. */
  ab: number;
  bb: number;
}

/**
 * The air sums along x and y (each when asked for) in one walk over the air: each air voxel i is paired with
 * the voxel half the field of view on from it along each axis (wrapping round), j. The walk is over the packed
 * masks a word (32 voxels of a row) at a time: the air's bits with and without the head's shifted onto them
 * (along x, the head's row read from half the width on; along y, the row half the height on) give each sum's
 * voxels, visited in order, so each sum adds up in the order of a walk over the voxels. The detail (`fine`
 * less `coarse`, in single precision as an image of it holds) is worked out only at the pairs that use it.
 */
function airSums(
  values: Float32Array,
  fine: Float32Array,
  coarse: Float32Array,
  headBits: MaskBits,
  airBits: MaskBits,
  width: number,
  height: number,
  alongX: boolean,
  alongY: boolean,
): { x: AirSums; y: AirSums } {
  const { words } = airBits;
  const rows = height * airBits.slices;
  const hx = width >> 1,
    hy = height >> 1;
  let xg = 0,
    xgn = 0,
    xr = 0,
    xrn = 0,
    xab = 0,
    xbb = 0,
    yg = 0,
    ygn = 0,
    yr = 0,
    yrn = 0,
    yab = 0,
    ybb = 0;
  for (let row = 0; row < rows; row++) {
    const y = row % height;
    // The row half the height on, in the same slice, and j - i for it.
    const yRow = row - y + ((y + hy) % height),
      dy = (yRow - row) * width;
    for (let k = 0; k < words; k++) {
      const a = airBits.bits[row * words + k]!;
      if (a === 0) continue;
      const at = row * width + 32 * k;
      if (alongX) {
        const shifted = bitsFrom(headBits, row, (32 * k + hx) % width);
        for (let w = a & shifted; w !== 0; w &= w - 1) {
          const x = 32 * k + 31 - Math.clz32(w & -w);
          const i = at - 32 * k + x,
            j = x < width - hx ? i + hx : i + hx - width;
          const d = Math.fround(fine[i]! - coarse[i]!),
            e = Math.fround(fine[j]! - coarse[j]!);
          xg += values[i]!;
          xgn++;
          xab += d * e;
          xbb += e * e;
        }
        for (let w = a & ~shifted; w !== 0; w &= w - 1) {
          xr += values[at + 31 - Math.clz32(w & -w)]!;
          xrn++;
        }
      }
      if (alongY) {
        const shifted = headBits.bits[yRow * words + k]!;
        for (let w = a & shifted; w !== 0; w &= w - 1) {
          const i = at + 31 - Math.clz32(w & -w),
            j = i + dy;
          const d = Math.fround(fine[i]! - coarse[i]!),
            e = Math.fround(fine[j]! - coarse[j]!);
          yg += values[i]!;
          ygn++;
          yab += d * e;
          ybb += e * e;
        }
        for (let w = a & ~shifted; w !== 0; w &= w - 1) {
          yr += values[at + 31 - Math.clz32(w & -w)]!;
          yrn++;
        }
      }
    }
  }
  return {
    x: { ghostSum: xg, ghostN: xgn, restSum: xr, restN: xrn, ab: xab, bb: xbb },
    y: { ghostSum: yg, ghostN: ygn, restSum: yr, restN: yrn, ab: yab, bb: ybb },
  };
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
  sums: AirSums,
  values: Float32Array,
  detail: () => Float32Array,
  masks: HeadMasks,
  axis: PhaseAxis,
  width: number,
  height: number,
  signal: number,
): number | undefined {
  const { ghostSum, ghostN, restSum, restN, ab, bb } = sums;
  const enough = Math.max(MIN_REGION, values.length * 0.01);
  if (ghostN >= enough && restN >= enough) {
    // Signed, as MRIQC's: a clean image scatters about 0, so a cohort of clean images has a spread to compare with.
    const gsr = (ghostSum / ghostN - restSum / restN) / signal;
    return Math.min(gsr, bb > 0 ? ab / bb : 0);
  }
  const n = axis === 'x' ? width : height;
  const half = n >> 1;
  const rho = headCorrelation(detail(), masks.head, axis, width, height, half);
  if (rho === undefined) return undefined;
  const near = [-5, -4, 4, 5]
    .map((d) => headCorrelation(detail(), masks.head, axis, width, height, (half + d + n) % n))
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
  const coarse = binomialSmooth(fine, width, height, undefined, scratchFloat32('ghost-detail', values.length));
  const axes = phase ? [phase] : (['x', 'y'] as const);
  const sums = airSums(
    values,
    fine,
    coarse,
    headBitsOf(masks, width, height),
    airBitsOf(masks, width, height),
    width,
    height,
    axes.includes('x'),
    axes.includes('y'),
  );
  // The whole detail image only where the head leaves too little air: written over the wider smoothing, once.
  let detail: Float32Array | undefined;
  const whole = () => {
    if (!detail) {
      detail = coarse;
      for (let i = 0; i < detail.length; i++) detail[i] = fine[i]! - detail[i]!;
    }
    return detail;
  };
  let worst: number | undefined;
  for (const axis of axes) {
    const g = ghostAlong(sums[axis], values, whole, masks, axis, width, height, signal);
    if (g !== undefined) worst = Math.max(worst ?? -Infinity, g);
  }
  return worst;
}

/**
 * The mean of every whole `size`×`size` block of every slice that lies wholly in `air` (inside 1), as
 * blockStats gives it (summed in the same order); the other blocks (inside 0) are not summed, and only
 * tested (on the packed air, a word or two a row) until their first row not all air.
 */
function airBlockMeans(
  values: Float32Array,
  air: MaskBits,
  width: number,
  height: number,
  size: number,
): { mean: Float64Array; inside: Uint8Array; count: number } {
  const slices = Math.floor(values.length / Math.max(1, width * height));
  const bx = Math.floor(width / size),
    by = Math.floor(height / size);
  const count = bx * by * slices;
  const mean = new Float64Array(count),
    inside = new Uint8Array(count);
  const n = size * size;
  let k = 0;
  for (let z = 0; z < slices; z++) {
    const o = z * width * height;
    for (let j = 0; j < by; j++)
      for (let i = 0; i < bx; i++, k++) {
        let all = true;
        for (let y = j * size; y < (j + 1) * size && all; y++)
          all = allBitsSet(air.bits, (z * height + y) * air.words, i * size, (i + 1) * size);
        if (!all) continue;
        let sum = 0;
        for (let y = j * size; y < (j + 1) * size; y++)
          for (let at = o + y * width + i * size, end = at + size; at < end; at++) sum += values[at]!;
        mean[k] = sum / n;
        inside[k] = 1;
      }
  }
  return { mean, inside, count };
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
  const blocks = airBlockMeans(values, airBitsOf(masks, width, height), width, height, size);
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
  head: MaskBits,
  inner: MaskBits,
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
  for (let z = 0; z < slices; z++) {
    const o = z * plane;
    let any = false;
    for (let t = 0; t < count; t++) {
      // Voxel t of each line: its row and column, and its index.
      const rowP = axis === 'y' ? p : t,
        rowQ = axis === 'y' ? q : t,
        xP = axis === 'y' ? t : p,
        xQ = axis === 'y' ? t : q;
      const i = o + rowP * width + xP,
        j = o + rowQ * width + xQ;
      first[t] = smooth[i]!;
      last[t] = smooth[j]!;
      headP[t] = bitAt(head, z * height + rowP, xP);
      headQ[t] = bitAt(head, z * height + rowQ, xQ);
      both[t] = bitAt(inner, z * height + rowP, xP) & bitAt(inner, z * height + rowQ, xQ);
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
  const head = headBitsOf(masks, width, height);
  const inner = morphBits(head, 2, true);
  let worst = 0;
  for (const axis of ['y', 'x'] as const) {
    const [count, n] = axis === 'y' ? [width, height] : [height, width];
    if (count < 16 || n < 16) continue;
    const pair = (p: number, q: number) => lineCorrelation(smooth, head, inner, axis, width, height, p, q);
    const edge = pair(0, n - 1);
    if (!(edge.share > 0)) continue;
    let chance = 0;
    for (const k of [4, 5, 6]) chance += (pair(0, n - 1 - k).r + pair(k, n - 1).r) / 6;
    const mirror = Math.max(0, Math.max(pair(0, n - 2).r, pair(1, n - 1).r) - edge.r);
    worst = Math.max(worst, Math.min(1, edge.share / 0.05) * Math.max(0, edge.r - Math.max(0, chance) - mirror));
  }
  return worst;
}
