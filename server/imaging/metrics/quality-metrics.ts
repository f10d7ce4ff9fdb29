import type { ImageVolume } from '../volume.ts';
import { blankInteriorSlices } from './completeness.ts';
import { colourMetrics, type ColourMetrics } from './colour-metrics.ts';
import type { MeasureContext, Measures } from './context.ts';
import { ctMeasures } from './ct-metrics.ts';
import { finiteOr } from './finite.ts';
import { histologyMeasures } from './histology-metrics.ts';
import { modalityFamily, type ModalityFamily } from './modality.ts';
import { mrMeasures, type MrGiven } from './mr-metrics.ts';
import { nuclearMeasures } from './nuclear-metrics.ts';
import { projectionMeasures } from './projection-metrics.ts';
import { ultrasoundMeasures } from './ultrasound-metrics.ts';
import {
  addCounts,
  binScale,
  countBuffer,
  histogram,
  HISTOGRAM_BINS,
  momentsOfSums,
  otsuThreshold,
  percentile,
  type Histogram,
} from './histogram.ts';
import { dilateBits, luminance } from './mask.ts';
import { lastWordBits, type MaskBits } from './mask-bits.ts';
import { fullResolutionCrop, type FullResolutionCrop } from './full-resolution.ts';
import { finiteMeasurementGrid, gridStride } from './measurement-grid.ts';
import { backgroundNoiseOf, laplacianNoise, type NoiseModel } from './noise.ts';
import type { IntegerCounts } from './integer-median.ts';
import { scratchFloat32, scratchUint8 } from './scratch.ts';
import { forgetSmoothed, ghostRatio, laplacianVariance } from './sharpness.ts';

/** Every measurement the check is based on; ratios are plain numbers, fractions 0–1. */
export interface QualityMetrics {
  modality: string;
  /** The family the image is judged as (CT, MR, XR for projection radiography, US, NM for PET/NM, SM for slides). */
  family: ModalityFamily;
  /** The family's own measurements (CT noise in HU, MR SNR and CJV, slide tissue coverage…), all finite. */
  measures: Measures;
  /** The acquisition protocol, where DICOM names one: the cohort an image is compared with is of the same. */
  protocol?: string;
  dimensions: [number, number, number];
  foregroundFraction: number;
  noiseSigma: number;
  noiseModel: NoiseModel;
  snr: number;
  cnr: number;
  efc: number;
  fber: number;
  sharpness: number;
  clippedFraction: number;
  dynamicRangeUsed: number;
  ghostRatio: number;
  colour?: ColourMetrics;
  /** A grey image whose every sampled value is this one (in modality units): blank, whatever its modality. */
  uniformValue?: number;
  /** Slices the DICOM series lacks, by its slice positions. */
  missingSlices?: number;
  /** Slices of one value throughout between slices with an image (see blankInteriorSlices). */
  blankSlices?: number;
}

/**
 * MRIQC's entropy focus criterion over all `n` voxels: 0 for all energy in one voxel, 1 for uniform. The
 * energy (the sum of squared values about `offset`) is summed exactly, by the caller's pass over the voxels; the entropy sum runs over the 4096-bin histogram (bin centres), which
 * replaces a logarithm per voxel by one per bin at well under 1% error.
 */
function entropyFocus(n: number, energy: number, all: Histogram, offset: number): number {
  const norm = Math.sqrt(energy);
  if (norm <= 0 || n < 2) return 0;
  const width = (all.max - all.min) / (all.counts.length - 1 || 1);
  let sum = 0;
  for (let b = 0; b < all.counts.length; b++) {
    const count = all.counts[b]!;
    if (count === 0) continue;
    const x = Math.abs(all.min + b * width - offset) / norm;
    if (x > 0) sum += count * x * Math.log(x);
  }
  const max = n * (1 / Math.sqrt(n)) * Math.log(1 / Math.sqrt(n));
  return sum / max;
}

/** What energyRatio needs to know of the magnitudes before binning them (see there). */
interface MagnitudeExtent {
  plain: boolean;
  top: number;
  low: number;
  high: number;
}

/**
 * MRIQC's foreground-background energy ratio: median of squared foreground over median of squared
 * background; since squaring is monotonic on magnitudes, that is the squared ratio of median magnitudes.
 * The foreground is the object's values, the background's those outside the object grown by 3 voxels, each
 * gathered in scan order. Magnitudes are |value - offset| in single precision (as an array of them would
 * hold), the values themselves when `plain`; the extent holds the largest magnitude before rounding and the
 * background's smallest and largest, which the caller's pass over the voxels finds. Both histograms are
 * filled from the gathered values, with magnitudes worked out as they are read rather than copied.
 */
function energyRatio(
  foreground: Float32Array,
  background: Float32Array,
  offset: number,
  all: Histogram,
  { plain, top, low, high }: MagnitudeExtent,
): number {
  // The background keeps its own (narrow) binning for precision; the foreground shares the known range.
  const bins = all.counts.length;
  const bgCounts = new Uint32Array(bins),
    fgCounts = new Uint32Array(bins);
  let bgTotal = 0,
    fgTotal = 0;
  if (high >= low) {
    const bgScale = binScale(low, high, bins),
      fgScale = binScale(0, top, bins);
    // Even and odd values count into two sets of bins (see histogram).
    const odd = countBuffer(bins);
    const nb = background.length,
      nf = foreground.length;
    for (let i = 0; i + 1 < nb; i += 2) {
      const m0 = plain ? background[i]! : Math.fround(Math.abs(background[i]! - offset)),
        m1 = plain ? background[i + 1]! : Math.fround(Math.abs(background[i + 1]! - offset));
      bgCounts[((m0 - low) * bgScale + 0.5) | 0]!++;
      odd[((m1 - low) * bgScale + 0.5) | 0]!++;
    }
    if (nb & 1) {
      const m = plain ? background[nb - 1]! : Math.fround(Math.abs(background[nb - 1]! - offset));
      bgCounts[((m - low) * bgScale + 0.5) | 0]!++;
    }
    addCounts(bgCounts, odd);
    for (let i = 0; i + 1 < nf; i += 2) {
      const m0 = plain ? foreground[i]! : Math.fround(Math.abs(foreground[i]! - offset)),
        m1 = plain ? foreground[i + 1]! : Math.fround(Math.abs(foreground[i + 1]! - offset));
      fgCounts[(m0 * fgScale + 0.5) | 0]!++;
      odd[(m1 * fgScale + 0.5) | 0]!++;
    }
    if (nf & 1) {
      const m = plain ? foreground[nf - 1]! : Math.fround(Math.abs(foreground[nf - 1]! - offset));
      fgCounts[(m * fgScale + 0.5) | 0]!++;
    }
    addCounts(fgCounts, odd);
    bgTotal = background.length;
    fgTotal = foreground.length;
  }
  const bgHist: Histogram =
    high >= low
      ? { min: low, max: high, counts: bgCounts, total: bgTotal }
      : { min: 0, max: 0, counts: bgCounts, total: 0 };
  const bg = percentile(bgHist, 50) ** 2;
  if (bg < 1e-3) return Infinity;
  return percentile({ min: 0, max: top, counts: fgCounts, total: fgTotal }, 50) ** 2 / bg;
}

/**
 * energyRatio of whole values given as counts per value (`fg` of `nf` values, `bg` of `nb`), to the bit: a
 * histogram's median bin is the bin of the value of rank ⌈total / 2⌉ (binning keeps the order), and the
 * magnitudes in order are the values walked outward from the offset, so only that one magnitude is binned.
 */
function countedEnergyRatio(
  fg: IntegerCounts,
  nf: number,
  bg: IntegerCounts,
  nb: number,
  offset: number,
  { plain, top, low, high }: MagnitudeExtent,
): number {
  const bins = HISTOGRAM_BINS;
  const bgMedian =
    high >= low && nb > 0
      ? binValue(
          low,
          high,
          ((magnitudeOfRank(bg, Math.ceil(0.5 * nb), offset, plain) - low) * binScale(low, high, bins) + 0.5) | 0,
        )
      : 0;
  const b = bgMedian ** 2;
  if (b < 1e-3) return Infinity;
  const fgMedian =
    high >= low && nf > 0
      ? binValue(0, top, (magnitudeOfRank(fg, Math.ceil(0.5 * nf), offset, plain) * binScale(0, top, bins) + 0.5) | 0)
      : 0;
  return fgMedian ** 2 / b;
}

/** The value percentile() gives for bin `b` of a histogram over [min, max] of HISTOGRAM_BINS bins. */
function binValue(min: number, max: number, b: number): number {
  return min + b * ((max - min) / (HISTOGRAM_BINS - 1));
}

/**
 * The `rank`-th smallest (from 1) magnitude of the counted values: the value itself when `plain`, else
 * |v - offset| in single precision, as energyRatio takes them. Both sides of the offset give magnitudes that
 * grow away from it, so the two are merged like sorted lists.
 */
function magnitudeOfRank({ min, counts }: IntegerCounts, rank: number, offset: number, plain: boolean): number {
  let seen = 0;
  if (plain) {
    for (let j = 0; j < counts.length; j++) {
      seen += counts[j]!;
      if (seen >= rank) return min + j;
    }
    return min + counts.length - 1;
  }
  // `up` walks from the first value at or above the offset, `down` from the one before it.
  let up = Math.max(0, Math.min(counts.length, Math.ceil(offset - min))),
    down = up - 1;
  for (;;) {
    const mUp = up < counts.length ? Math.fround(Math.abs(min + up - offset)) : Infinity;
    const mDown = down >= 0 ? Math.fround(Math.abs(min + down - offset)) : Infinity;
    if (mUp === Infinity && mDown === Infinity) return 0;
    if (mUp <= mDown) {
      seen += counts[up++]!;
      if (seen >= rank) return mUp;
    } else {
      seen += counts[down--]!;
      if (seen >= rank) return mDown;
    }
  }
}

/** The bin of each whole value from `min` on, in a histogram where each has a bin of its own. */
interface ValueBins {
  min: number;
  bins: Int32Array;
}

/** The bin of each whole value from the histogram's smallest to its largest (each its own, see measureGrid). */
function valueBins(all: Histogram): ValueBins {
  const scale = binScale(all.min, all.max, all.counts.length);
  const bins = new Int32Array(all.max - all.min + 1);
  // The value's bin as histogram() computes it from the value.
  for (let j = 0; j < bins.length; j++) bins[j] = ((all.min + j - all.min) * scale + 0.5) | 0;
  return { min: all.min, bins };
}

/** Counts per value (from the histogram's smallest, as integerCounts gives them) of counts per bin. */
function countsByValue({ min, bins }: ValueBins, binCounts: Uint32Array): IntegerCounts {
  const counts = new Int32Array(bins.length);
  for (let j = 0; j < bins.length; j++) counts[j] = binCounts[bins[j]!]!;
  return { min, counts };
}

/**
 * Measures a decoded image: foreground by Otsu, noise from the background (Rayleigh-corrected for MR
 * magnitude), SNR, CNR, EFC, FBER, sharpness, clipping, dynamic range and ghosting; colour images also
 * get the histology measures.
 */
export function measureQuality(whole: ImageVolume): QualityMetrics {
  // NaN and ±Infinity in float images would poison every sum: they are mapped to finite values first.
  // The grid's copy and the masks below live in work buffers: nothing of them outlives the check, and a
  // check's few hundred kilobytes of new arrays each time cost the garbage collector more than their filling.
  const { grid: volume, min, max } = finiteMeasurementGrid(whole, true);
  try {
    return measureGrid(whole, volume, [min, max]);
  } finally {
    // The shared smoothing lives for one check: the caller may change the pixels before the next.
    // (Grey values are the volume's own array; a colour image's luminance is a new one each time.)
    forgetSmoothed(volume.data);
  }
}

/** measureQuality's work on the finite measurement grid, whose values span `extent` (smallest, largest). */
function measureGrid(whole: ImageVolume, volume: ImageVolume, extent: [number, number]): QualityMetrics {
  const { width, height } = volume;
  const values = luminance(volume.data, volume.channels);
  // Grey values are the finite grid itself, whose range is known; a colour image's luminance is not.
  const all = volume.channels === 1 ? histogram(values, undefined, undefined, extent) : histogram(values);
  // A volume that does not name its modality (NIfTI, NRRD) is judged as CT when its values read as HU.
  const family = modalityFamily(volume, all);
  const modality = (
    volume.modality ??
    (volume.channels === 3 ? 'SM' : volume.format === 'nii' || volume.format === 'nrrd' ? family : 'OT')
  ).toUpperCase();
  // Histology is dark tissue on a bright slide; every other modality is bright signal on dark air.
  const n = values.length;
  const plane = width * height;
  const slices = plane ? Math.floor(n / plane) : 0;
  const inverted = volume.channels === 3;
  const threshold = otsuThreshold(all);
  const offset = modality === 'MR' ? 0 : percentile(all, 0.5);
  const [low, high] = volume.storedRange;
  // Saturation at the top counts anywhere; the bottom only inside the object, since air at 0 is normal.
  const top = Number.isFinite(high) ? high : Infinity;
  const bottom = Number.isFinite(low) ? low : -Infinity;
  // One pass for the object mask (Otsu's foreground, as foregroundMask draws it: bytes, and bits for the
  // dilations) and the sums every family needs: the object's moments, histogram (on the whole image's
  // binning) and values, the clipped voxels, the energy about the offset (for EFC) and the largest magnitude
  // (for FBER). Each sum is added in scan order, as separate passes would add it, so the results are the
  // same to the bit.
  const object = scratchUint8('grid-object', n).fill(0);
  const words = (width + 31) >> 5;
  const objectBits = new Int32Array(words * height * slices);
  const fgCounts = new Uint32Array(all.counts.length);
  const scale = binScale(all.min, all.max, all.counts.length);
  // The object's values in scan order, for FBER's foreground (kept between calls: written before read).
  const fgValues = scratchFloat32('object-values', n);
  // FBER's magnitudes about the offset: non-negative values about 0 are their own.
  const plain = offset === 0 && all.min >= 0;
  let fgN = 0,
    fgSum = 0,
    fgSumSq = 0,
    clipped = 0,
    energy = 0,
    fractions = 0;
  // Negated, v < threshold reads -v > -threshold (exactly): one test for both, with no choice per voxel; the
  // histogram's smallest value is read once, not from the object at every voxel.
  const sign = inverted ? -1 : 1,
    edge = sign * threshold,
    first = all.min;
  for (let row = 0, i = 0, rows = height * slices; row < rows; row++)
    for (let k = row * words, x = 0; x < width; k++) {
      let word = 0;
      for (let b = 0; b < 32 && x < width; b++, x++, i++) {
        const v = values[i]!;
        const inObject = sign * v > edge;
        if (inObject) {
          object[i] = 1;
          word |= 1 << b;
          fgValues[fgN++] = v;
          fgSum += v;
          fgSumSq += v * v;
          fgCounts[((v - first) * scale + 0.5) | 0]!++;
        }
        if (v >= top || (v <= bottom && inObject)) clipped++;
        fractions += +(v !== Math.floor(v));
        // d·d rather than d ** 2: the same number (the power function squares by one multiplication) without its call.
        const d = v - offset;
        energy += d * d;
      }
      objectBits[k] = word;
    }
  // The largest magnitude about the offset lies at the smallest or largest value (|v - offset| falls, then
  // rises): the same number a running maximum over the voxels finds.
  const magnitudeTop =
    n === 0 ? 0 : plain ? Math.max(0, all.max) : Math.max(Math.abs(all.min - offset), Math.abs(all.max - offset));
  // Whole numbers over at most as many values as the histogram has bins fall each in a bin of their own: the
  // histogram's counts are then the counts per value, from which the medians below follow without selecting
  // or binning the voxels again.
  const byValue = fractions === 0 && n > 0 && all.max - all.min <= all.counts.length - 1 ? valueBins(all) : undefined;
  const bgBins = byValue ? new Uint32Array(all.counts.length) : undefined;
  // Square dilations compose: radius 2 (sharpness band) then 1 more gives the radius-3 noise exclusion.
  // What is outside `grown` is the background. Grown on packed bits, each written out as bytes once.
  const objectMask: MaskBits = { bits: objectBits, words, width, height, slices };
  const { mask: band, bits: bandBits } = dilateBits(objectMask, n, 2, scratchUint8('grid-band', n));
  const { mask: grown, bits: grownBits } = dilateBits(bandBits, n, 1, scratchUint8('grid-grown', n));
  // The background, read off the unset bits of `grown` in scan order: its moments (for the noise), values
  // and the range of its magnitudes (for FBER).
  const bgValues = scratchFloat32('background-values', n);
  const lastValid = lastWordBits(width);
  let backgroundCount = 0,
    bgSum = 0,
    bgSumSq = 0,
    backgroundLow = Infinity,
    backgroundHigh = -Infinity;
  for (let row = 0, rows = height * slices; row < rows; row++)
    for (let j = 0, k = row * words; j < words; j++, k++)
      for (
        let w = ~grownBits.bits[k]! & (j === words - 1 ? lastValid : -1), at = row * width + 32 * j;
        w !== 0;
        w &= w - 1
      ) {
        const v = values[at + 31 - Math.clz32(w & -w)]!;
        bgValues[backgroundCount++] = v;
        bgSum += v;
        bgSumSq += v * v;
        const m = plain ? v : Math.fround(Math.abs(v - offset));
        if (m < backgroundLow) backgroundLow = m;
        if (m > backgroundHigh) backgroundHigh = m;
        if (bgBins) bgBins[((v - first) * scale + 0.5) | 0]!++;
      }
  const bgByValue = byValue && bgBins ? countsByValue(byValue, bgBins) : undefined;
  // The object's counts per value, for FBER's foreground median and the MR measures alike.
  const fgByValue = byValue && countsByValue(byValue, fgCounts);
  const fg = momentsOfSums(fgN, fgSum, fgSumSq);
  const fgHist: Histogram = { min: all.min, max: all.max, counts: fgCounts, total: fgN };
  const enoughBackground = backgroundCount >= Math.max(100, values.length * 0.02);
  const magnitude = modality === 'MR' && percentile(all, 0.5) >= 0;
  const background = bgValues.subarray(0, backgroundCount);
  const noise = enoughBackground
    ? backgroundNoiseOf(background, momentsOfSums(backgroundCount, bgSum, bgSumSq), magnitude, bgByValue)
    : { sigma: laplacianNoise(values, width, height), model: 'laplacian' as const, mean: percentile(all, 1) };
  const sigma = Math.max(noise.sigma, 1e-6);
  const span = percentile(fgHist, 99) - percentile(fgHist, 1) || percentile(all, 99.5) - percentile(all, 0.5);
  const pileUp = all.counts[all.counts.length - 1]! / Math.max(1, all.total);
  const range =
    Number.isFinite(high - low) && high > low ? (percentile(all, 99.5) - percentile(all, 0.5)) / (high - low) : 1;
  const efc = entropyFocus(values.length, energy, all, offset);
  // MR measures its own ghosting on the head (mr-artefacts.ts); the other families keep the plain half-FOV ratio.
  const ghost =
    enoughBackground && family !== 'MR' ? ghostRatio(values, width, height, object, grown, fg.mean) : undefined;
  const magnitudes: MagnitudeExtent = { plain, top: magnitudeTop, low: backgroundLow, high: backgroundHigh };
  const fber = !enoughBackground
    ? 0
    : fgByValue && bgByValue
      ? countedEnergyRatio(fgByValue, fgN, bgByValue, backgroundCount, offset, magnitudes)
      : energyRatio(fgValues.subarray(0, fgN), background, offset, all, magnitudes);
  let crop: FullResolutionCrop | undefined;
  const context: MeasureContext = {
    values,
    rgb: volume.channels === 3 ? volume.data : undefined,
    width,
    height,
    storedRange: volume.storedRange,
    invert: volume.invert,
    object,
    band,
    grown,
    stride: gridStride(whole.width, whole.height),
    planar: isPlanarNm(whole),
    fullResolution: () => (crop ??= fullResolutionCrop(whole, context.stride, width, height, values, band)),
    phase: whole.phaseEncoding === 'ROW' ? 'x' : whole.phaseEncoding === 'COL' ? 'y' : undefined,
    projection: isProjection(whole),
    extent: {
      min: all.min,
      max: all.max,
      whole: fractions === 0,
      // Each whole value in a bin of its own: the top bin holds the largest value only (all, when it is the only one).
      atMax: byValue ? (all.max > all.min ? all.counts[all.counts.length - 1]! : n) : undefined,
      counts: byValue && countsByValue(byValue, all.counts).counts,
    },
  };
  const measures = familyMeasures(family, context, {
    efc,
    // A background of exact zeros gives no ratio: the MR measures leave FBER out then.
    fber: enoughBackground && Number.isFinite(fber) ? Math.min(fber, 1e6) : undefined,
    // The MR measures estimate the air's Rayleigh noise on this same background: measured once.
    rayleigh: enoughBackground && magnitude ? noise : undefined,
    foreground: fg,
    backgroundCount,
    objectCounts: family === 'MR' ? fgByValue : undefined,
    objectBits: objectMask,
  });
  return finiteMetrics({
    modality,
    family: family === 'SM' && !context.rgb ? 'XR' : family,
    measures,
    protocol: whole.protocol?.trim() || undefined,
    dimensions: [whole.width, whole.height, whole.depth],
    foregroundFraction: fg.n / values.length,
    noiseSigma: noise.sigma,
    noiseModel: noise.model,
    snr: fg.mean / sigma,
    cnr: Math.abs(fg.mean - noise.mean) / sigma,
    efc,
    fber: Number.isFinite(fber) ? fber : 1e4,
    sharpness: laplacianVariance(values, width, height, band, span) * 1000,
    // A pile-up of more than 1% of voxels in the top histogram bin is clipping even below the type's maximum.
    clippedFraction: Math.max(clipped / values.length, pileUp > 0.01 && volume.channels === 1 ? pileUp : 0),
    dynamicRangeUsed: Math.min(1, range),
    ghostRatio: family === 'MR' ? Math.max(0, measures.ghosting ?? 0) : (ghost ?? 0),
    colour: volume.channels === 3 ? colourMetrics(volume.data, values, object, width, height) : undefined,
    uniformValue: volume.channels === 1 && all.max === all.min ? all.min : undefined,
    missingSlices: whole.missingSlices,
    blankSlices: whole.depth > 2 ? blankInteriorSlices(whole) || undefined : undefined,
  });
}

/**
 * Whether an NM image is to be judged as a planar frame (smooth by nature: the gamma camera's resolution
 * falls with depth) rather than a tomographic reconstruction: unless DICOM's Image Type says TOMO (SPECT).
 * PET (PT) is always a reconstruction.
 */
function isPlanarNm(volume: ImageVolume): boolean {
  return volume.modality?.toUpperCase() === 'NM' && !imageTypeValues(volume).some((v) => v.includes('TOMO'));
}

/** Whether DICOM's Image Type names the image a projection (an MIP or another derived projection). */
function isProjection(volume: ImageVolume): boolean {
  return imageTypeValues(volume).some((v) => v === 'PROJECTION IMAGE' || v.includes('MIP'));
}

/** The values of DICOM's Image Type (0008,0008), upper case; none when the file gives none. */
function imageTypeValues(volume: ImageVolume): string[] {
  return volume.imageType?.toUpperCase().split('\\') ?? [];
}

/** The measurements of the image's family; a grey image labelled as a slide is judged as a projection image. */
function familyMeasures(family: ModalityFamily, c: MeasureContext, mr: MrGiven): Measures {
  switch (family) {
    case 'CT':
      return ctMeasures(c);
    case 'MR':
      return mrMeasures(c, mr);
    case 'US':
      return ultrasoundMeasures(c);
    case 'NM':
      return nuclearMeasures(c);
    case 'SM':
      return c.rgb ? histologyMeasures(c) : projectionMeasures(c);
    default:
      return projectionMeasures(c);
  }
}

/** The metrics with every number made finite (a ratio over an empty mask or a zero spread is 0). */
function finiteMetrics(m: QualityMetrics): QualityMetrics {
  // A plain loop over the keys: the same keys in the same order as entries mapped through fromEntries, without
  // an array per entry.
  const clean = <T extends object>(o: T): T => {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o)) {
      const v = (o as Record<string, unknown>)[k];
      out[k] =
        typeof v === 'number' ? finiteOr(v) : typeof v === 'object' && v !== null && !Array.isArray(v) ? clean(v) : v;
    }
    return out as T;
  };
  return clean(m);
}
