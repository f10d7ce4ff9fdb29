import { rangeOf, type MeasureContext, type Measures, type ValuesExtent } from './context.ts';
import { edgeWidth, quantile, quantileInPlace, robustNoise } from './image-stats.ts';
import { binScale, HISTOGRAM_BINS, otsuThreshold, type Histogram } from './histogram.ts';
import { scratchInt32, scratchUint8 } from './scratch.ts';

/**
 * The smallest and largest of a radiograph's values, how many hold the largest, whether all are whole, and (when
 * known) how many hold each whole value from the smallest on.
 */
type ImageExtent = ValuesExtent & { atMax: number };

/**
 * Smallest and largest of `values`, the count at the largest and whether all are whole, in one pass: for
 * callers whose measure context does not carry them (measureGrid's pass finds them for nearly every image).
 */
function extentOf(values: Float32Array): ImageExtent {
  let min = Infinity,
    max = -Infinity,
    atMax = 0,
    fractions = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v > max) {
      max = v;
      atMax = 1;
    } else if (v === max) atMax++;
    if (v < min) min = v;
    fractions += +(v !== Math.floor(v));
  }
  return { min, max, atMax, whole: fractions === 0 };
}

/**
 * Marks with 2 the cells of `cells` that are 1 and connected through other such cells, 4-neighbours in-plane,
 * to the border of their slice (a grid of `width`×`height` cells per slice), and returns how many it marked.
 * In place, so the cells left at 1 are those inside, and with an explicit stack of cell indices in a typed
 * array, no recursion: a cell is marked as it is pushed, so each is pushed at most once and the stack never
 * outgrows the grid.
 */
function markBorderConnected(cells: Uint8Array, width: number, height: number): number {
  const plane = width * height;
  if (plane === 0) return 0;
  const stack = scratchInt32('projection-border-stack', plane);
  let marked = 0;
  for (let o = 0; o + plane <= cells.length; o += plane) {
    let top = 0;
    const push = (i: number) => {
      if (cells[i] === 1) {
        cells[i] = 2;
        marked++;
        stack[top++] = i;
      }
    };
    for (let x = 0; x < width; x++) {
      push(o + x);
      push(o + (height - 1) * width + x);
    }
    for (let y = 0; y < height; y++) {
      push(o + y * width);
      push(o + y * width + width - 1);
    }
    while (top > 0) {
      const i = stack[--top]!;
      const x = (i - o) % width;
      if (x > 0) push(i - 1);
      if (x < width - 1) push(i + 1);
      if (i - o >= width) push(i - width);
      if (i - o < plane - width) push(i + width);
    }
  }
  return marked;
}

/**
 * Far darker than the anatomy: under this share of the mean brightness of the field's bright Otsu class. The
 * dark surrounds measured lie under a twentieth (an image intensifier's unexposed ring at 0–2 of 255, the bands
 * behind its collimator blades 7–17 against anatomy about 160; the generated radiographs' direct-exposure
 * background 0.03–0.07 against 0.5–0.75), while anatomy near the field's edge reaches down to about a fifth
 * (the same run's vignetted bottom rows, 20–50): the share sits between, and the generated radiographs measure
 * the same with 0.15, 0.2 or 0.25.
 */
const SURROUND_RATIO = 0.15;
/** The field that remains must keep at least this share of the image, else the dark part is the anatomy. */
const MIN_FIELD_SHARE = 0.1;

/**
 * Leaves out of `mask` what is far darker than the anatomy around it and connected to the image border: the
 * unexposed ring around an image intensifier's circular field, the bands behind its collimator blades (lit only
 * by veiling glare), a dark shutter carrying electronic noise (so its blocks are not flat), and a
 * direct-exposure background. IEC 62494-1's exposure index is likewise taken over the anatomy, without
 * collimated or direct-exposure areas: a hand on a large dark background is not called under-exposed for its
 * background. Brightness is as displayed (MONOCHROME1 inverted) and counted from the black of the stored range,
 * so an image darker as a whole (under-exposed) keeps its proportions and keeps its anatomy. The surround is
 * found on 8-voxel blocks (their means, which noise does not split) and needs a core, blocks whose eight
 * neighbours are all that dark; the core is left out whole, and in the surround's other blocks, which the field's
 * edge crosses, only the voxels that dark. The field left must hold a tenth of the image, else nothing is taken.
 * Returns how many voxels it left out.
 */
function leaveOutDarkSurround(
  c: MeasureContext,
  blocks: FieldBlocks,
  mask: Uint8Array,
  field: FieldExtent,
  low: number,
  high: number,
  inField: Histogram,
  tally?: ValueCounts,
  sumsCounted = false,
): number {
  const { values, width, height } = c;
  const span = high - low;
  const brightness = (v: number) => (c.invert ? high - v : v - low) / span;
  const split = otsuThreshold(inField);
  // Negated, v ≤ split reads -v ≥ -split (exactly), so one test serves MONOCHROME1 too.
  const sign = c.invert ? -1 : 1,
    edge = sign * split;
  let n = 0,
    sum = 0;
  if (tally && sumsCounted) {
    // Whole values whose every partial sum is below 2^53 add up exactly in any order: the bright class's
    // size and sum follow from the counts per value, without a pass over the voxels.
    const { counts, base } = tally;
    for (let i = 1; i < counts.length; i++) {
      const count = counts[i]!;
      if (count === 0) continue;
      const v = base + i - 1;
      if (sign * v < edge) continue;
      n += count;
      sum += v * count;
    }
  } else
    // The bright class's size and sum, without branches: a voxel outside it adds 0 (a sum from +0 keeps its
    // value to the bit), and which voxels fall on which side of the split is too irregular to predict.
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      const bright = mask[i]! & +(sign * v >= edge);
      n += bright;
      sum += bright ? v : 0;
    }
  if (!n) return 0;
  const anatomy = brightness(sum / n);
  const bx = Math.floor(width / 8),
    by = Math.floor(height / 8);
  const perSlice = bx * by;
  const dark = new Uint8Array(blocks.count);
  for (let k = 0; k < blocks.count; k++) {
    const b = brightness(blocks.mean[k]!);
    dark[k] = b < SURROUND_RATIO * anatomy ? 1 : 0;
  }
  // Dark blocks reached from the border are marked 2: the surround.
  markBorderConnected(dark, bx, by);
  // The core: surround blocks whose neighbours within the slice are all dark.
  const core = new Uint8Array(blocks.count);
  let cores = 0;
  for (let k = 0; k < blocks.count; k++) {
    if (dark[k] !== 2) continue;
    const i = k % bx,
      j = Math.floor((k % perSlice) / bx);
    let all = true;
    for (let dj = -1; dj <= 1 && all; dj++)
      for (let di = -1; di <= 1 && all; di++) {
        const ii = i + di,
          jj = j + dj;
        if (ii >= 0 && jj >= 0 && ii < bx && jj < by && !dark[k + dj * bx + di]) all = false;
      }
    if (!all) continue;
    core[k] = 1;
    cores++;
  }
  if (!cores) return 0;
  const cut = SURROUND_RATIO * anatomy;
  const plane = width * height;
  const drop = (apply: boolean) => {
    let dropped = 0;
    for (let k = 0; k < blocks.count; k++) {
      if (dark[k] !== 2) continue;
      const z = Math.floor(k / perSlice),
        j = Math.floor((k % perSlice) / bx),
        i = k % bx;
      for (let y = j * 8; y < j * 8 + 8; y++)
        for (let x = i * 8; x < i * 8 + 8; x++) {
          const v = z * plane + y * width + x;
          if (!mask[v] || (!core[k] && brightness(values[v]!) >= cut)) continue;
          dropped++;
          if (!apply) continue;
          mask[v] = 0;
          if (tally) tally.counts[values[v]! - tally.base + 1]!--;
        }
    }
    return dropped;
  };
  return field.count - drop(false) >= values.length * MIN_FIELD_SHARE ? drop(true) : 0;
}

/**
 * Counts of whole values: value base + i - 1 at index i ≥ 1 (index 0 unused). `n` is how many are counted,
 * once the field is final.
 */
interface ValueCounts {
  counts: Int32Array;
  base: number;
  n: number;
}

/**
 * The exposed (collimated) field: 8-voxel blocks that are not flat, less what is far darker than the anatomy
 * and connected to the image border (leaveOutDarkSurround). Collimator shutters, padding and burned-in
 * borders are flat; exposed anatomy always carries quantum noise and structure. With the mask come the counts
 * of the field's values when the image (extent `image`) holds whole numbers over a span that can be counted.
 */
function fieldMask(
  c: MeasureContext,
  blocks: FieldBlocks,
  low: number,
  high: number,
): { mask: Uint8Array; values?: ValueCounts } {
  const { values, width, height } = c;
  const image = blocks.extent;
  // A work buffer: the mask is read only while the radiograph's measures are taken.
  const mask = scratchUint8('radiograph-field', values.length).fill(0);
  // An image too small for one block, or without any flat area, is all field.
  if (blocks.count === 0) {
    mask.fill(1);
    return { mask };
  }
  const typical = quantile(blocks.sd, 50);
  // The field's blocks, and its size and extent from theirs: the field's histogram is binned over that extent.
  const inField = scratchUint8('radiograph-field-blocks', blocks.count);
  const field: FieldExtent = { count: 0, min: Infinity, max: -Infinity };
  for (let k = 0; k < blocks.count; k++) {
    const on = blocks.sd[k]! > typical * 0.1;
    inField[k] = on ? 1 : 0;
    if (!on) continue;
    if (blocks.min[k]! < field.min) field.min = blocks.min[k]!;
    if (blocks.max[k]! > field.max) field.max = blocks.max[k]!;
    field.count += 64;
  }
  // Stored images hold whole numbers over a span of a few thousand: the field's are counted per value (for
  // its percentiles and its histogram) as its blocks are marked; other values go straight into the histogram.
  // Either way only the field's blocks are read, and counts do not depend on the order they are added in.
  const counted = image.whole && image.max - image.min < MAX_COUNTED_SPAN;
  const base = Math.floor(image.min);
  const tally: ValueCounts | undefined = counted
    ? { counts: scratchInt32('radiograph-field-values', Math.floor(image.max) - base + 2).fill(0), base, n: 0 }
    : undefined;
  const counts = tally?.counts;
  const odd = tally ? scratchInt32('radiograph-field-odd', tally.counts.length).fill(0) : undefined;
  const bins = new Uint32Array(HISTOGRAM_BINS);
  const scale = binScale(field.min, field.max, HISTOGRAM_BINS);
  const bx = Math.floor(width / 8),
    by = Math.floor(height / 8);
  const plane = width * height;
  // A block's row of the mask is two 32-bit words of four 1 bytes when rows start on whole words.
  const quads =
    (width & 3) === 0 && (mask.byteOffset & 3) === 0
      ? new Uint32Array(mask.buffer, mask.byteOffset, mask.length >> 2)
      : undefined;
  // When the field is most of the image and the image's own counts per value are known, the field's are those
  // less the voxels outside it (`odd` then counts what is taken away), which reads the smaller part.
  const whole = image.counts;
  const complement = !!(
    counts &&
    odd &&
    whole &&
    whole.length === counts.length - 1 &&
    2 * field.count > values.length
  );
  for (let k = 0; k < blocks.count; k++) {
    const i = k % bx,
      j = Math.floor((k % (bx * by)) / bx),
      z = Math.floor(k / (bx * by));
    if (!inField[k]) {
      if (complement && odd)
        for (let y = j * 8; y < j * 8 + 8; y++)
          for (let v = z * plane + y * width + i * 8, end = v + 8; v < end; v++) odd[(values[v]! - base + 1) | 0]!++;
      continue;
    }
    for (let y = j * 8; y < j * 8 + 8; y++) {
      const from = z * plane + y * width + i * 8;
      if (quads) quads[from >> 2] = quads[(from >> 2) + 1] = 0x01010101;
      // Eight stores a row otherwise: fill() for eight bytes costs a call each.
      else for (let v = from, end = from + 8; v < end; v++) mask[v] = 1;
      if (complement) continue;
      if (counts && odd)
        // Even and odd voxels count into two sets (see histogram): neighbours often hold the same value.
        for (let v = from, end = from + 8; v < end; v += 2) {
          // | 0: the index as an integer (the values are whole), which the compiler then need not check.
          counts[(values[v]! - base + 1) | 0]!++;
          odd[(values[v + 1]! - base + 1) | 0]!++;
        }
      else for (let v = from, end = from + 8; v < end; v++) bins[((values[v]! - field.min) * scale + 0.5) | 0]!++;
    }
  }
  if (complement && counts && odd && whole) {
    // The voxels outside every whole block: right of the last block column, below the last block row, and
    // past the last whole slice.
    const slices = Math.floor(values.length / plane);
    for (let z = 0; z < slices; z++) {
      const o = z * plane;
      for (let y = 0; y < by * 8; y++)
        for (let v = o + y * width + bx * 8, end = o + y * width + width; v < end; v++)
          odd[(values[v]! - base + 1) | 0]!++;
      for (let v = o + by * 8 * width; v < o + plane; v++) odd[(values[v]! - base + 1) | 0]!++;
    }
    for (let v = slices * plane; v < values.length; v++) odd[(values[v]! - base + 1) | 0]!++;
    counts[0] = 0;
    for (let i = 1; i < counts.length; i++) counts[i] = whole[i - 1]! - odd[i]!;
  } else if (counts && odd) for (let i = 0; i < counts.length; i++) counts[i]! += odd[i]!;
  // Each whole value falls in the bin histogram() would put it in, once for all its voxels.
  if (tally && field.count > 0)
    for (let v = field.min; v <= field.max; v++) {
      const count = tally.counts[v - base + 1]!;
      if (count) bins[((v - field.min) * scale + 0.5) | 0]! += count;
    }
  const histogram: Histogram =
    field.count > 0
      ? { min: field.min, max: field.max, counts: bins, total: field.count }
      : { min: 0, max: 0, counts: bins, total: 0 };
  if (!tally) {
    leaveOutDarkSurround(c, blocks, mask, field, low, high, histogram);
    return { mask };
  }
  // The bright class's sum is taken from the counts when no sum of the field's values can pass 2^53.
  const exact = Math.max(Math.abs(image.min), Math.abs(image.max)) * field.count <= Number.MAX_SAFE_INTEGER;
  tally.n = field.count - leaveOutDarkSurround(c, blocks, mask, field, low, high, histogram, tally, exact);
  return { mask, values: tally };
}

/** Mean, SD, smallest and largest value of every whole 8×8 block of every slice, and the extent of all values. */
interface FieldBlocks {
  mean: Float64Array;
  sd: Float64Array;
  min: Float64Array;
  max: Float64Array;
  count: number;
  extent: ImageExtent;
}

/**
 * blockStats (8-voxel blocks, no mask) with each block's smallest and largest value found in the same pass:
 * the same sums in the same order, so the same means and SDs to the bit. `extent` is that of all the values.
 */
function fieldBlocks(values: Float32Array, width: number, height: number, extent: ImageExtent): FieldBlocks {
  const size = 8,
    n = size * size;
  const slices = Math.floor(values.length / Math.max(1, width * height));
  const bx = Math.floor(width / size),
    by = Math.floor(height / size);
  const count = bx * by * slices;
  const mean = new Float64Array(count),
    sd = new Float64Array(count),
    min = new Float64Array(count),
    max = new Float64Array(count);
  let k = 0;
  for (let z = 0; z < slices; z++) {
    const o = z * width * height;
    for (let j = 0; j < by; j++)
      for (let i = 0; i < bx; i++, k++) {
        let sum = 0,
          sumSq = 0,
          lo = Infinity,
          hi = -Infinity;
        for (let y = j * size; y < (j + 1) * size; y++) {
          const row = o + y * width;
          for (let x = i * size; x < (i + 1) * size; x++) {
            const v = values[row + x]!;
            sum += v;
            sumSq += v * v;
            if (v < lo) lo = v;
            if (v > hi) hi = v;
          }
        }
        const average = sum / n;
        mean[k] = average;
        sd[k] = Math.sqrt(Math.max(0, sumSq / n - average * average) * (n / (n - 1)));
        min[k] = lo;
        max[k] = hi;
      }
  }
  return { mean, sd, min, max, count, extent };
}

/** How many voxels the field's blocks hold, and their smallest and largest value. */
interface FieldExtent {
  count: number;
  min: number;
  max: number;
}

/**
 * Share of the image at its largest value (or the stored maximum `high`, when lower), leaving out what is
 * connected to the image border: a collimator shutter is flat and bright along the edge, saturated anatomy
 * lies inside. Counted only when the top value holds at least two voxels.
 */
function saturatedInside(
  values: Float32Array,
  width: number,
  height: number,
  high: number,
  image: ImageExtent,
): number {
  const top = Math.min(image.max, high);
  // At the image's largest value, its voxels were counted in the pass that found it.
  let count = 0;
  if (top === image.max) count = image.atMax;
  else for (let i = 0; i < values.length; i++) if (values[i]! >= top) count++;
  if (count < 2) return 0;
  // Top-valued voxels reached from the border through others like them are a shutter, not anatomy; with
  // none on the border there is nothing to reach.
  if (!onBorder(values, width, height, top)) return count / values.length;
  return (count - borderConnectedAtLeast(values, width, height, top)) / values.length;
}

/**
 * How many voxels of at least `top` are connected through others like them, 4-neighbours in-plane, to the
 * border of their slice: markBorderConnected of the mask of such voxels, without writing that mask out. The
 * walk fills a row's run at a time (a shutter or a saturated patch is long runs): each run is marked whole,
 * and the rows above and below it are scanned for the runs they continue into, one seed per run.
 */
function borderConnectedAtLeast(values: Float32Array, width: number, height: number, top: number): number {
  const plane = width * height;
  if (plane === 0) return 0;
  const seen = scratchUint8('radiograph-saturated', values.length).fill(0);
  // A filled run seeds at most one run per two voxels of each neighbouring row, and the border one per voxel.
  const seeds = scratchInt32('radiograph-run-seeds', 2 * plane + 2 * (width + height));
  let marked = 0;
  for (let o = 0; o + plane <= values.length; o += plane) {
    let depth = 0;
    for (let x = 0; x < width; x++) {
      if (values[o + x]! >= top) seeds[depth++] = o + x;
      if (values[o + (height - 1) * width + x]! >= top) seeds[depth++] = o + (height - 1) * width + x;
    }
    for (let y = 0; y < height; y++) {
      if (values[o + y * width]! >= top) seeds[depth++] = o + y * width;
      if (values[o + y * width + width - 1]! >= top) seeds[depth++] = o + y * width + width - 1;
    }
    while (depth > 0) {
      const i = seeds[--depth]!;
      if (seen[i]) continue;
      const row = o + Math.floor((i - o) / width) * width;
      let l = i,
        r = i;
      while (l > row && !seen[l - 1] && values[l - 1]! >= top) l--;
      while (r < row + width - 1 && !seen[r + 1] && values[r + 1]! >= top) r++;
      seen.fill(1, l, r + 1);
      marked += r - l + 1;
      // The runs of the rows above and below that touch this one, each seeded once.
      for (const next of [row - width, row + width]) {
        if (next < o || next >= o + plane) continue;
        for (let k = l - row + next, end = r - row + next, inRun = false; k <= end; k++) {
          const on = !seen[k] && values[k]! >= top;
          if (on && !inRun) seeds[depth++] = k;
          inRun = on;
        }
      }
    }
  }
  return marked;
}

/** Whether any voxel of `values` on the border of its slice is at least `top`. */
function onBorder(values: Float32Array, width: number, height: number, top: number): boolean {
  const plane = width * height;
  for (let o = 0; plane > 0 && o + plane <= values.length; o += plane) {
    for (let x = 0; x < width; x++)
      if (values[o + x]! >= top || values[o + (height - 1) * width + x]! >= top) return true;
    for (let y = 0; y < height; y++)
      if (values[o + y * width]! >= top || values[o + y * width + width - 1]! >= top) return true;
  }
  return false;
}

/**
 * The collimated field of each slice as a rectangle: border rows and columns are peeled off while they are
 * flat (their spread under 0.2% of the image's range), as collimator shutters and padding are. Then the share
 * of the field's voxels piled up at the field's largest value (when at least two are): clipped or saturated
 * anatomy is flat at the top, exposed anatomy carries noise. A bright shutter, at whatever value, is outside.
 * `image` is the extent of all the values.
 */
function saturatedInField(
  values: Float32Array,
  width: number,
  height: number,
  image: ImageExtent,
  blocks: FieldBlocks,
): number {
  const { min, max } = image;
  const plane = width * height;
  const flatSpread = (max - min) * 0.002;
  let piled = 0,
    area = 0;
  for (let o = 0; o + plane <= values.length; o += plane) {
    let x0 = 0,
      x1 = width - 1,
      y0 = 0,
      y1 = height - 1;
    const flat = (a0: number, a1: number, fixed: number, alongX: boolean) => {
      let lo = Infinity,
        hi = -Infinity;
      for (let t = a0; t <= a1; t++) {
        const v = values[o + (alongX ? fixed * width + t : t * width + fixed)]!;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      return hi - lo <= flatSpread;
    };
    for (let peeled = true; peeled && x0 < x1 && y0 < y1;) {
      peeled = false;
      if (flat(x0, x1, y0, true)) {
        y0++;
        peeled = true;
      }
      if (y1 > y0 && flat(x0, x1, y1, true)) {
        y1--;
        peeled = true;
      }
      if (flat(y0, y1, x0, false)) {
        x0++;
        peeled = true;
      }
      if (x1 > x0 && flat(y0, y1, x1, false)) {
        x1--;
        peeled = true;
      }
    }
    // How many voxels hold the field's largest value; a field that is the whole of the only slice was tallied
    // with the image's extent.
    const at =
      plane === values.length && x0 === 0 && y0 === 0 && x1 === width - 1 && y1 === height - 1
        ? image.atMax
        : countAtTop(values, width, height, o, [x0, x1, y0, y1], blocks);
    piled += at >= 2 ? at : 0;
    area += (x1 - x0 + 1) * (y1 - y0 + 1);
  }
  return area ? piled / area : 0;
}

/**
 * How many voxels of the rectangle [x0, x1] × [y0, y1] of the slice at `o` hold its largest value. The 8×8
 * blocks wholly inside it give their largest values without reading them; only the strips of the rectangle
 * outside those blocks are read, then the voxels of the blocks whose largest is the rectangle's.
 */
function countAtTop(
  values: Float32Array,
  width: number,
  height: number,
  o: number,
  [x0, x1, y0, y1]: [number, number, number, number],
  blocks: FieldBlocks,
): number {
  const bx = Math.floor(width / 8),
    by = Math.floor(height / 8);
  // The whole blocks inside: columns 8·i0 to 8·i1 - 1, rows 8·j0 to 8·j1 - 1.
  const i0 = Math.ceil(x0 / 8),
    i1 = Math.min(bx, Math.floor((x1 + 1) / 8)),
    j0 = Math.ceil(y0 / 8),
    j1 = Math.min(by, Math.floor((y1 + 1) / 8));
  let top = -Infinity,
    at = 0;
  const strip = (ya: number, yb: number, xa: number, xb: number) => {
    for (let y = ya; y <= yb; y++)
      for (let i = o + y * width + xa, end = o + y * width + xb; i <= end; i++) {
        const v = values[i]!;
        if (v > top) {
          top = v;
          at = 1;
        } else if (v === top) at++;
      }
  };
  if (!(i1 > i0 && j1 > j0)) {
    strip(y0, y1, x0, x1);
    return at;
  }
  strip(y0, 8 * j0 - 1, x0, x1);
  strip(8 * j0, 8 * j1 - 1, x0, 8 * i0 - 1);
  strip(8 * j0, 8 * j1 - 1, 8 * i1, x1);
  strip(8 * j1, y1, x0, x1);
  const first = (o / (width * height)) * bx * by;
  let blockTop = -Infinity;
  for (let j = j0; j < j1; j++)
    for (let i = i0; i < i1; i++) {
      const m = blocks.max[first + j * bx + i]!;
      if (m > blockTop) blockTop = m;
    }
  if (blockTop < top) return at;
  if (blockTop > top) {
    top = blockTop;
    at = 0;
  }
  for (let j = j0; j < j1; j++)
    for (let i = i0; i < i1; i++) {
      if (blocks.max[first + j * bx + i] !== top) continue;
      for (let y = 8 * j; y < 8 * j + 8; y++)
        for (let k = o + y * width + 8 * i, end = k + 8; k < end; k++) if (values[k] === top) at++;
    }
  return at;
}

/**
 * Edge width of the exposed field in image pixels. A radiograph larger than the grid is judged at full
 * resolution in its central window (the field mask carried over): the grid samples every s-th pixel of a
 * 2,000–4,000 px CR/DX/MG image, where an edge 1 px wide looks like a step and the width read is about half the
 * stride (a generated 2048² radiograph with 1 px edges read 3.6–4 px). When the window holds little of the field
 * (under a tenth) or no edge, the grid's width is kept.
 */
function radiographEdgeWidth(c: MeasureContext, field: Uint8Array): number {
  const grid = () => edgeWidth(c.values, c.width, c.height, field) * c.stride;
  if (c.stride === 1) return grid();
  const crop = c.fullResolution();
  const plane = crop.width * crop.height,
    gridPlane = c.width * c.height;
  const mask = scratchUint8('radiograph-window-field', crop.values.length);
  // The grid column of each of the window's columns, worked out once for all rows.
  const column = scratchInt32('radiograph-window-column', crop.width);
  for (let x = 0; x < crop.width; x++) column[x] = Math.min(c.width - 1, Math.floor((crop.x0 + x) / c.stride));
  let inside = 0;
  for (let o = 0, k = 0; o < crop.values.length; o += plane, k++) {
    let previousRow = -1,
      previousInside = 0;
    for (let y = 0; y < crop.height; y++) {
      const gridRow = k * gridPlane + Math.min(c.height - 1, Math.floor((crop.y0 + y) / c.stride)) * c.width;
      const row = o + y * crop.width;
      // Each grid row stands for `stride` rows of the window: its copies are copied, not mapped again.
      if (gridRow === previousRow) {
        mask.copyWithin(row, row - crop.width, row);
        inside += previousInside;
        continue;
      }
      let rowInside = 0;
      for (let x = 0; x < crop.width; x++) {
        const m = field[gridRow + column[x]!]!;
        mask[row + x] = m;
        rowInside += m;
      }
      inside += rowInside;
      previousRow = gridRow;
      previousInside = rowInside;
    }
  }
  // A window without edges (0) says nothing of the image's sharpness: the grid's width is kept then too.
  return (inside >= crop.values.length * 0.1 && edgeWidth(crop.values, crop.width, crop.height, mask)) || grid();
}

/** Above this many distinct whole values, maskedPercentiles selects instead of counting. */
const MAX_COUNTED_SPAN = 1 << 17;

/**
 * The `ps`-th percentiles (0–100) of the values of `mask`, each as quantileInPlace gives it (interpolated
 * between neighbours as sorting would). Stored images hold whole numbers over a span of a few thousand, whose
 * order statistics one count per value gives exactly, for every percentile at once: within the image's extent
 * (`image`), in one pass over the mask; other values are copied and selected.
 */
function maskedPercentiles(values: Float32Array, mask: Uint8Array, ps: number[], image: ImageExtent): number[] {
  const { min: low, max: high } = image;
  if (!(high - low < MAX_COUNTED_SPAN)) return percentilesInTwoPasses(values, mask, ps);
  // The image's extent bounds the field's, so the counts are taken in the pass that finds whether the field
  // holds whole numbers only, from the image's whole floor; a fraction sends the values to the two passes.
  const base = Math.floor(low);
  const counts = scratchInt32('radiograph-percentile-counts', Math.floor(high) - base + 1).fill(0);
  let n = 0,
    min = Infinity;
  for (let i = 0; i < values.length; i++) {
    if (mask[i] !== 1) continue;
    const v = values[i]!;
    if (v !== Math.floor(v)) return percentilesInTwoPasses(values, mask, ps);
    n++;
    if (v < min) min = v;
    counts[v - base]!++;
  }
  if (n === 0) return ps.map(() => 0);
  return percentilesOfCounts(counts, base, min - base, n, ps);
}

/**
 * The `ps`-th percentiles of `n` whole values counted in `counts` (value base + index), the smallest at index
 * `first`, interpolated as quantileInPlace does.
 */
function percentilesOfCounts(counts: Int32Array, base: number, first: number, n: number, ps: number[]): number[] {
  // The k-th smallest value (from 0): the first whose cumulative count passes k.
  const orderStatistic = (k: number) => {
    let v = first;
    for (let seen = counts[v]!; seen <= k; seen += counts[++v]!);
    return v + base;
  };
  return ps.map((p) => {
    const at = Math.min(n - 1, Math.max(0, (p / 100) * (n - 1)));
    const lo = Math.floor(at);
    const low = orderStatistic(lo);
    if (at === lo) return low;
    const high = orderStatistic(lo + 1);
    return low + (high - low) * (at - lo);
  });
}

/** The `ps`-th percentiles of the counted values, as maskedPercentiles gives them. */
function countedPercentiles({ counts, base, n }: ValueCounts, ps: number[]): number[] {
  if (n === 0) return ps.map(() => 0);
  let first = 1;
  while (counts[first] === 0) first++;
  return percentilesOfCounts(counts, base - 1, first, n, ps);
}

/**
 * maskedPercentiles for any values: a pass for the field's extent and whether it holds whole numbers only,
 * then a count per value over a span that is not too wide, else a selection among a copy.
 */
function percentilesInTwoPasses(values: Float32Array, mask: Uint8Array, ps: number[]): number[] {
  let n = 0,
    min = Infinity,
    max = -Infinity,
    whole = true;
  for (let i = 0; i < values.length; i++) {
    if (mask[i] !== 1) continue;
    const v = values[i]!;
    n++;
    if (v < min) min = v;
    if (v > max) max = v;
    if (whole && v !== Math.floor(v)) whole = false;
  }
  if (n === 0) return ps.map(() => 0);
  if (!whole || max - min >= MAX_COUNTED_SPAN) {
    const field = new Float64Array(n);
    for (let i = 0, k = 0; i < values.length; i++) if (mask[i] === 1) field[k++] = values[i]!;
    // Selection reorders the field's values, which leaves every later percentile of them the same.
    return ps.map((p) => quantileInPlace(field, p));
  }
  const counts = scratchInt32('radiograph-percentile-counts', max - min + 1).fill(0);
  for (let i = 0; i < values.length; i++) if (mask[i] === 1) counts[values[i]! - min]!++;
  return percentilesOfCounts(counts, min, 0, n, ps);
}

/**
 * Projection radiography (CR, DX, MG, XA…): exposure as the median of the collimated field within the
 * stored range (inverted for MONOCHROME1), saturation at the top of the range, dynamic range used by the
 * field, noise relative to the field's median signal, and blur.
 */
export function projectionMeasures(c: MeasureContext): Measures {
  const { values, width, height } = c;
  const [low, high] = rangeOf(c);
  const known = c.extent;
  const extent =
    known?.atMax !== undefined
      ? { min: known.min, max: known.max, atMax: known.atMax, whole: known.whole, counts: known.counts }
      : extentOf(values);
  const blocks = fieldBlocks(values, width, height, extent);
  const field = fieldMask(c, blocks, low, high);
  const mask = field.mask;
  const [p1 = 0, p50 = 0, p99 = 0] = field.values
    ? countedPercentiles(field.values, [1, 50, 99])
    : maskedPercentiles(values, mask, [1, 50, 99], extent);
  const level = (p50 - low) / (high - low);
  const saturated = Math.max(
    saturatedInside(values, width, height, high, extent),
    saturatedInField(values, width, height, extent, blocks),
  );
  const noiseSd = robustNoise(values, width, height, mask);
  // Quantum mottle is judged against the signal it rides on, as displayed above black: its SD relative to the
  // signal is 1/√(quanta per pixel), which the dose sets. Against the field's contrast instead, an image with a
  // wide range (a bright airway beside soft tissue) hides noise that would be plain on a narrower one.
  const signal = c.invert ? high - p50 : p50 - low;
  return {
    exposure: c.invert ? 1 - level : level,
    saturation: saturated,
    dynamic_range: (p99 - p1) / (high - low),
    noise: signal > 0 ? noiseSd / signal : 0,
    edge_width: radiographEdgeWidth(c, mask),
  };
}
