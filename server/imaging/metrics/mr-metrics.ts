import type { MeasureContext, Measures } from './context.ts';
import { type MaskBits, packMask } from './mask-bits.ts';
import {
  binScale,
  type Histogram,
  histogram,
  HISTOGRAM_BINS,
  moments,
  momentsOfSums,
  otsuThreshold,
} from './histogram.ts';
import { edgeWidth, immerkaer, medianInPlace, pileUpShare } from './image-stats.ts';
import type { IntegerCounts } from './integer-median.ts';
import { backgroundNoise } from './noise.ts';
import { biasFieldSpread } from './bias-field.ts';
import { scratchFloat64, scratchInt32, scratchUint8 } from './scratch.ts';
import { knownSmallWholeNumbers } from './sharpness.ts';
import { airBitsOf, backgroundStructure, ghosting, headBitsOf, headMasks, wrapAround } from './mr-artefacts.ts';
import { ghostBand } from './ghost-band.ts';

/** What measureQuality has already measured that the MR measures use. */
export interface MrGiven {
  efc: number;
  /** Undefined where it cannot be formed (no background, or a background of exact zeros). */
  fber?: number;
  /** backgroundNoise(values, background, true) on the background outside `grown`, when it was computed. */
  rayleigh?: ReturnType<typeof backgroundNoise>;
  /** moments(values, object, 1). */
  foreground?: ReturnType<typeof moments>;
  /** How many voxels lie outside `grown`, when counted. */
  backgroundCount?: number;
  /** The object's voxels counted per value, when they are whole numbers counted so. */
  objectCounts?: IntegerCounts;
  /** `object` packed (packMask), when it was. */
  objectBits?: MaskBits;
}

/** The standard deviation of a Rayleigh law over its sigma: sqrt(2 - π/2). */
const RAYLEIGH_SD = Math.sqrt(2 - Math.PI / 2);
/**
 * How many times its voxel-to-voxel (high-pass) variation the air's spread may be and still be noise: white
 * noise gives about 1 (0.9–1.2 on the corpus's clean images), noise in small whole numbers up to 3 (dicom3tools'
 * 0051.dcm: 2.0); pydicom's MR_small, a crop whose "air" is dark tissue, 6.1.
 */
const STRUCTURED_AIR = 4;

/**
 * MR magnitude images, after MRIQC: SNR with the Rician (Rayleigh background) correction, CNR and CJV
 * between the two tissue classes Otsu finds in the head, EFC and FBER (given), INU as the spread of the
 * head's low-passed local tissue level, ghosting (half-FOV), background structure (motion ghosts), ghosts at
 * any shift along the phase axis (ghost band), wrap-around (object at the edge of the field of view), clipping
 * and blur.
 */
export function mrMeasures(c: MeasureContext, given: MrGiven): Measures {
  const { values, width, height, object, grown } = c;
  const n = values.length;
  // The background's size, the object's range (for its histogram's binning and pileUp's clipping) and the
  // histogram: from what measureQuality counted where it did, else one pass for the first two.
  let top = -Infinity,
    bottom = Infinity;
  const counted = given.objectCounts;
  if (counted) {
    const { min, counts } = counted;
    for (let j = 0; j < counts.length; j++)
      if (counts[j]! > 0) {
        bottom = Math.min(bottom, min + j);
        top = min + j;
      }
  }
  let bgN = given.backgroundCount;
  if (bgN === undefined || !counted) {
    let outside = 0;
    // Masks hold 0 or 1: the count adds, without a branch to mispredict at the object's edge.
    for (let i = 0; i < n; i++) {
      outside += 1 - grown[i]!;
      if (!object[i]) continue;
      const v = values[i]!;
      if (v < bottom) bottom = v;
      if (v > top) top = v;
    }
    bgN ??= outside;
  }
  const enough = bgN >= Math.max(64, n * 0.05);
  const noise = enough
    ? (given.rayleigh ?? backgroundNoise(values, grown, true, 0))
    : { sigma: 0, model: 'laplacian', mean: 0 };
  const fg = given.foreground ?? moments(values, object, 1);
  // Two tissue classes inside the object (grey/white matter, or tissue/fluid), binned over the object's range.
  const inner =
    counted && top >= bottom ? binnedCounts(counted, bottom, top) : histogram(values, object, undefined, [bottom, top]);
  const cut = otsuThreshold(inner);
  // The two tissue classes' moments (as moments() over each class's mask would sum them, in scan order) and
  // how many of the object's voxels hold its largest value (pileUp's clipping): from the counts per value where
  // every sum is a whole number that double precision holds exactly (the same in any order), else from the voxels.
  const { hiN, hiSum, hiSumSq, loN, loSum, loSumSq, atTop } =
    counted && exactSums(fg.n, bottom, top)
      ? classSumsOfCounts(counted, bottom, top, cut)
      : classSumsOfVoxels(values, object, cut, top);
  // Each voxel's class for the noise estimates: 1 brighter tissue, 2 darker, 3 the air (when there is enough),
  // 0 none (the object's margin, or air that is too little).
  const air = enough ? 3 : 0;
  const a = momentsOfSums(hiN, hiSum, hiSumSq),
    b = momentsOfSums(loN, loSum, loSumSq);
  const gap = Math.abs(a.mean - b.mean);
  // Bias field: the head's local tissue level, low-passed, its spread over the head (see bias-field.ts).
  // The object packed once, for the bias field's blocks and the head mask.
  const objectBits = given.objectBits ?? packMask(object, width, height);
  const inu = biasFieldSpread(values, width, height, object, objectBits);
  // The artefacts are looked for in the air outside the head (holes filled, a margin of a 40th of the field
  // of view), so dark tissue inside the head and the head's blurred edge are not taken for ghosts.
  const masks = headMasks(object, width, height, Math.max(3, Math.round(Math.min(width, height) / 40)), objectBits);
  const ghost = ghosting(values, masks, width, height, fg.mean, c.phase);
  const structure = backgroundStructure(values, masks, width, height, noise.sigma, fg.mean);
  // Not on a projection: the tissue of its slab lies beside the vessels, where the band's air would be.
  const band = c.projection
    ? undefined
    : ghostBand(values, headBitsOf(masks, width, height), airBitsOf(masks, width, height), fg.mean, c.phase);
  // The bright tissue's high-pass noise, compared with the air's and with the dark tissue's: all three in one pass.
  // A background of exact zeros (masked or skull-stripped volumes) holds no noise, and one whose spread is
  // many times its voxel-to-voxel variation is not noise but tissue (a crop with no air in it, whose dark
  // tissue lies outside the object): either way the object's own high-pass noise estimate (both tissue
  // classes together) stands in, without the Rayleigh correction.
  // The object's estimate is asked for up front only for air of exact zeros: tissue taken for air shows in the
  // air's own estimate, and is rare enough to be worth a second pass rather than a selection in every check.
  const rule: ClassRule = { object, grown, cut, air };
  const noiseByClass = (union: number) =>
    (width >= 3 && height >= 3 && knownSmallWholeNumbers(values)
      ? countedNoiseByClass(values, width, height, rule, union)
      : undefined) ??
    robustNoiseByClass(values, width, height, tissueClasses(values, rule), [hiN, loN, air ? bgN : 0], union);
  const [hiNoise, loNoise, airNoise, zeroAirNoise] = noiseByClass(noise.sigma > 0 ? 0 : 2);
  const airSpread = noise.model === 'rayleigh' ? RAYLEIGH_SD * noise.sigma : noise.sigma;
  const noiseLike = !(airNoise! > 0) || airSpread <= STRUCTURED_AIR * airNoise!;
  const sigma = noise.sigma > 0 && noiseLike ? noise.sigma : (zeroAirNoise ?? noiseByClass(2)[3]!);
  // The air's magnitude noise (Rayleigh) varies 0.655 times as much as the tissue's Gaussian noise by the same
  // estimate, so an image as acquired gives about 1.5 or more. Air whose noise is symmetric about zero (real-
  // valued data, or Gaussian noise added to a phantom) varies as much as the tissue's: its ratio is put on the
  // same scale. None without enough air, or air of exact zeros.
  const realValued = noise.model === 'gaussian' && Math.abs(noise.mean) < 0.5 * noise.sigma;
  const onRayleighScale = realValued ? 1 / RAYLEIGH_SD : 1;
  const tnr = enough && airNoise! > 0 ? (hiNoise! / airNoise!) * onRayleighScale : undefined;
  return {
    snr: sigma > 0 ? fg.mean / sigma : 0,
    cnr: sigma > 0 ? gap / sigma : 0,
    cjv: gap > 0 ? (a.sd + b.sd) / gap : 0,
    // The gap between the two tissue classes over the mean signal: it needs no air, so intensities squeezed
    // after acquisition show on a background of exact zeros too, where tissue_noise_ratio cannot be formed.
    tissue_contrast: fg.mean > 0 ? gap / fg.mean : 0,
    // The brighter tissue's fine variation over the darker tissue's (the same high-pass estimate): both hold
    // the same thermal noise as acquired, so about 1; intensities squeezed above a level (a window's top)
    // leave the bright tissue flat. Needs no air either.
    tissue_noise_balance: loNoise! > 0 ? hiNoise! / loNoise! : 1,
    // Fine variation of the brighter tissue over the background noise: about 1 or more as acquired (the same
    // thermal noise, plus texture), far below when the tissue's intensities were squeezed or smoothed afterwards.
    // What cannot be measured on this image is left out (the verdict passes over it) rather than given a
    // value that would read as a measurement: no air to compare with, or air of exact zeros.
    ...(tnr === undefined ? {} : { tissue_noise_ratio: tnr }),
    efc: given.efc,
    ...(given.fber === undefined ? {} : { fber: given.fber }),
    ...(inu === undefined ? {} : { inu }),
    ...(ghost === undefined ? {} : { ghosting: ghost }),
    ...(structure === undefined ? {} : { background_structure: structure }),
    ...(band === undefined ? {} : { ghost_band: band }),
    wrap_around: wrapAround(values, masks, width, height),
    clipped: pileUpShare(hiN + loN, top, atTop, bottom, 0),
    edge_width: mrEdgeWidth(c),
  };
}

/** The sums of each tissue class (above the cut, and the rest of the object) and the voxels at the object's top. */
interface ClassSums {
  hiN: number;
  hiSum: number;
  hiSumSq: number;
  loN: number;
  loSum: number;
  loSumSq: number;
  atTop: number;
}

/**
 * Whether every sum of the object's `n` whole values (within [bottom, top]) and their squares is a whole number
 * double precision holds exactly: then they add up to the same number in any order, from counts as from the
 * voxels in scan order.
 */
function exactSums(n: number, bottom: number, top: number): boolean {
  const m = Math.max(Math.abs(bottom), Math.abs(top));
  return n * m * m <= Number.MAX_SAFE_INTEGER;
}

/** ClassSums from the object's counts per value (see exactSums). */
function classSumsOfCounts({ min, counts }: IntegerCounts, bottom: number, top: number, cut: number): ClassSums {
  const s: ClassSums = { hiN: 0, hiSum: 0, hiSumSq: 0, loN: 0, loSum: 0, loSumSq: 0, atTop: 0 };
  for (let v = bottom; v <= top; v++) {
    const k = counts[v - min]!;
    if (v > cut) {
      s.hiN += k;
      s.hiSum += k * v;
      s.hiSumSq += k * v * v;
    } else {
      s.loN += k;
      s.loSum += k * v;
      s.loSumSq += k * v * v;
    }
  }
  s.atTop = top >= bottom ? counts[top - min]! : 0;
  return s;
}

/**
 * ClassSums from the voxels, in scan order. Within the object the two classes interleave voxel by voxel
 * (noise): each voxel's value is added to both classes' sums, times 1 or 0, rather than chosen by a branch the
 * processor would mispredict (adding a zero leaves a sum as it was). The object's voxels lie in long runs, so
 * testing for them costs little.
 */
function classSumsOfVoxels(values: Float32Array, object: Uint8Array, cut: number, top: number): ClassSums {
  let hiN = 0,
    hiSum = 0,
    hiSumSq = 0,
    loN = 0,
    loSum = 0,
    loSumSq = 0,
    atTop = 0;
  for (let i = 0; i < values.length; i++) {
    if (!object[i]) continue;
    const v = values[i]!;
    const hi = +(v > cut),
      lo = 1 - hi;
    hiN += hi;
    hiSum += v * hi;
    hiSumSq += v * v * hi;
    loN += lo;
    loSum += v * lo;
    loSumSq += v * v * lo;
    atTop += +(v === top);
  }
  return { hiN, hiSum, hiSumSq, loN, loSum, loSumSq, atTop };
}

/**
 * histogram(values, object, BINS, [bottom, top]) from the object's counts per value: each value falls in the
 * bin histogram() computes for it, so the counts are those of its pass over the voxels.
 */
function binnedCounts({ min, counts }: IntegerCounts, bottom: number, top: number): Histogram {
  const bins = new Uint32Array(HISTOGRAM_BINS);
  const scale = binScale(bottom, top, HISTOGRAM_BINS);
  let total = 0;
  for (let j = bottom - min; j <= top - min; j++) {
    const k = counts[j]!;
    bins[((min + j - bottom) * scale + 0.5) | 0]! += k;
    total += k;
  }
  return { min: bottom, max: top, counts: bins, total };
}

/**
 * Edge width in image pixels. A large image is measured at full resolution in a window about its centre:
 * the grid's every-other-voxel sampling halves a blur's width in grid voxels, down to where the edge-width
 * estimate can no longer tell it from the smoothing it measures with.
 */
function mrEdgeWidth(c: MeasureContext): number {
  if (c.stride === 1) return edgeWidth(c.values, c.width, c.height, c.band);
  const crop = c.fullResolution();
  return edgeWidth(crop.values, crop.width, crop.height, crop.mask);
}

/**
 * robustNoise (Immerkær's high-pass estimate, median-based) of each class of voxels at once: `classes`
 * holds every voxel's class, 1 to `totals.length` (0 for none), and `totals` how many voxels of each class
 * there are in all; the k-th value returned is robustNoise over the mask of class k + 1, to the bit (the same
 * responses, filed by class in one pass instead of one pass and one count per mask). 0 for a class with no
 * voxel off the border. With `union` k > 0, one more value: the estimate over classes 1 to k together.
 */
function robustNoiseByClass(
  values: Float32Array,
  width: number,
  height: number,
  classes: Uint8Array,
  totals: readonly number[],
  union = 0,
): number[] {
  const count = totals.length;
  const plane = width * height;
  const slices = plane ? values.length / plane : 0;
  // Where each class's responses start in one shared buffer: the totals less the voxels on the border of
  // each slice (no response there), which are far fewer than a count over the whole image would visit.
  const start = new Int32Array(count + 2);
  for (let c = 1; c <= count; c++) start[c + 1] = totals[c - 1]!;
  for (let z = 0; z < slices; z++) {
    const o = z * plane;
    if (width < 3 || height < 3) {
      for (let i = o; i < o + plane; i++) start[classes[i]! + 1]!--;
      continue;
    }
    for (let x = 0; x < width; x++) {
      start[classes[o + x]! + 1]!--;
      start[classes[o + (height - 1) * width + x]! + 1]!--;
    }
    for (let y = 1; y < height - 1; y++) {
      start[classes[o + y * width]! + 1]!--;
      start[classes[o + y * width + width - 1]! + 1]!--;
    }
  }
  start[1] = 0;
  for (let c = 2; c <= count + 1; c++) start[c]! += start[c - 1]!;
  // A work buffer kept between calls: every response is written before the medians read it.
  const responses = scratchFloat64('class-responses', start[count + 1]!);
  const next = start.slice(0, count + 1);
  for (let z = 0; z < slices; z++) {
    const o = z * plane;
    for (let y = 1; y < height - 1; y++) {
      const row = o + y * width;
      for (let i = row + 1, end = row + width - 1; i < end; i++) {
        const c = classes[i]!;
        if (c) responses[next[c]!++] = Math.abs(immerkaer(values, i, width));
      }
    }
  }
  const noises: number[] = [];
  for (let c = 1; c <= count; c++)
    noises.push(medianInPlace(responses.subarray(start[c]!, start[c + 1]!)) / (0.6745 * 6));
  // Last: selection may reorder the responses across the classes it joins (each class's median is taken).
  if (union > 0) noises.push(medianInPlace(responses.subarray(start[1]!, start[union + 1]!)) / (0.6745 * 6));
  return noises;
}

/** Responses counted one by one; larger ones share the last count (COUNTED - 1 and above). */
const COUNTED = 4096;

/** What decides each voxel's class for the noise estimates (see mrMeasures): the object, `grown`, the cut, air's class. */
interface ClassRule {
  object: Uint8Array;
  grown: Uint8Array;
  cut: number;
  /** 3, or 0 where there is too little air. */
  air: number;
}

/**
 * Voxel i's class by `rule`: 1 above the cut in the object, 2 the rest of it, air's class outside `grown`, else
 * 0. Branch-free: the object lies within `grown`, so a voxel outside `grown` is the background.
 */
function classOf(values: Float32Array, { object, grown, cut, air }: ClassRule, i: number): number {
  return object[i]! * (2 - +(values[i]! > cut)) + (1 - grown[i]!) * air;
}

/** Each voxel's class (ClassRule), in a work buffer kept between calls (every voxel's is written). */
function tissueClasses(values: Float32Array, rule: ClassRule) {
  const classes = scratchUint8('mr-classes', values.length);
  for (let i = 0; i < values.length; i++) classes[i] = classOf(values, rule, i);
  return classes;
}

/**
 * robustNoiseByClass (classes 1 to 3 of `rule`) on an image of small whole numbers, by counting: each
 * response is then a whole number (exact in any order of adding the mask's terms), so each class's median is
 * read off counts of the responses, the same value a selection over them gives, with no response stored and
 * no pass over them afterwards; each voxel's class is worked out where its response is, with no array of
 * classes. The mask is taken as what it is, a second difference along the row of second differences across
 * the rows, each column's worked out once for three voxels (a third of the loads, half the arithmetic).
 * Responses of COUNTED - 1 or more share one count: undefined when a median lies among them (noise of a
 * thousand units or more), for the stored responses to decide.
 */
function countedNoiseByClass(
  values: Float32Array,
  width: number,
  height: number,
  rule: ClassRule,
  union: number,
): number[] | undefined {
  const plane = width * height;
  const classCount = 3;
  // Class c's counts at [c · COUNTED, (c + 1) · COUNTED); class 0 (no class) is counted too, and never read,
  // so the loop holds no branch.
  const counts = scratchInt32('class-response-counts', (classCount + 1) * COUNTED).fill(0);
  const top = COUNTED - 1;
  for (let o = 0; o + plane <= values.length; o += plane)
    for (let y = 1; y < height - 1; y++) {
      const row = o + y * width,
        up = row - width,
        down = row + width;
      let before = values[up]! - 2 * values[row]! + values[down]!,
        here = values[up + 1]! - 2 * values[row + 1]! + values[down + 1]!;
      for (let x = 1; x < width - 1; x++) {
        const i = row + x;
        const after = values[up + x + 1]! - 2 * values[i + 1]! + values[down + x + 1]!;
        // A whole number under 2^21: exact as an integer.
        const r = Math.abs(before - 2 * here + after) | 0;
        counts[classOf(values, rule, i) * COUNTED + (r < top ? r : top)]!++;
        before = here;
        here = after;
      }
    }
  const noises: number[] = [];
  for (let c = 1; c <= classCount; c++) {
    const m = countedMedian(counts, c, c);
    if (m === undefined) return undefined;
    noises.push(m / (0.6745 * 6));
  }
  if (union > 0) {
    const m = countedMedian(counts, 1, union);
    if (m === undefined) return undefined;
    noises.push(m / (0.6745 * 6));
  }
  return noises;
}

/**
 * The median of the responses of classes `from` to `to` together, from their counts, as quantileInPlace(·, 50)
 * gives it (the values at ranks ⌊(n-1)/2⌋ and the next, interpolated); 0 for none, undefined when either rank
 * falls in the shared count of the largest responses.
 */
function countedMedian(counts: Int32Array, from: number, to: number): number | undefined {
  const at = (b: number) => {
    let k = 0;
    for (let c = from; c <= to; c++) k += counts[c * COUNTED + b]!;
    return k;
  };
  let n = 0;
  for (let b = 0; b < COUNTED; b++) n += at(b);
  if (n === 0) return 0;
  const middle = 0.5 * (n - 1);
  const lo = Math.floor(middle);
  // The bin holding rank lo, and how many responses lie in the bins before it.
  let b = 0,
    before = 0;
  while (before + at(b) <= lo) before += at(b++);
  if (b === COUNTED - 1) return undefined;
  if (middle === lo) return b;
  let high = b;
  if (before + at(b) <= lo + 1) {
    high++;
    while (at(high) === 0) high++;
    if (high === COUNTED - 1) return undefined;
  }
  return b + (high - b) * (middle - lo);
}
