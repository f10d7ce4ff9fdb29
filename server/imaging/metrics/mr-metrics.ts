import type { MeasureContext, Measures } from './context.ts';
import { histogram, moments, otsuThreshold } from './histogram.ts';
import { blockStats, edgeWidth, pick, pileUp, quantile, robustNoise } from './image-stats.ts';
import { backgroundNoise } from './noise.ts';
import { ghostRatio } from './sharpness.ts';

/** Pearson correlation of two equally long profiles; 0 when either is flat. */
function correlation(a: number[], b: number[]): number {
  const n = a.length;
  if (n < 3) return 0;
  const ma = a.reduce((x, y) => x + y, 0) / n,
    mb = b.reduce((x, y) => x + y, 0) / n;
  let ab = 0,
    aa = 0,
    bb = 0;
  for (let i = 0; i < n; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/**
 * Wrap-around: anatomy folded in from the far side of the field of view. The first and last rows (or
 * columns) of a wrapped image are neighbours in the true anatomy, so both hold object and their profiles
 * agree; an object that merely fills a tight field of view touches both edges with unrelated anatomy.
 * Returns, for the worse axis, the share of the edge lines that is object times their correlation.
 */
export function wrapAround(values: Float32Array, object: Uint8Array, width: number, height: number): number {
  const slices = values.length / (width * height);
  let worst = 0;
  for (const axis of ['y', 'x'] as const) {
    const count = axis === 'y' ? width : height;
    const first: number[] = [],
      last: number[] = [];
    let on = 0;
    for (let z = 0; z < slices; z++) {
      const o = z * width * height;
      for (let t = 0; t < count; t++) {
        const [i, j] =
          axis === 'y' ? [o + t, o + (height - 1) * width + t] : [o + t * width, o + t * width + width - 1];
        first.push(values[i]!);
        last.push(values[j]!);
        if (object[i] && object[j]) on++;
      }
    }
    worst = Math.max(worst, (on / Math.max(1, first.length)) * Math.max(0, correlation(first, last)));
  }
  return worst;
}

/** What measureQuality has already measured that the MR measures use. */
export interface MrGiven {
  efc: number;
  fber: number;
  ghost?: number;
  /** backgroundNoise(values, background, true) on the background outside `grown`, when it was computed. */
  rayleigh?: ReturnType<typeof backgroundNoise>;
  /** moments(values, object, 1). */
  foreground?: ReturnType<typeof moments>;
}

/**
 * MR magnitude images, after MRIQC: SNR with the Rician (Rayleigh background) correction, CNR and CJV
 * between the two tissue classes Otsu finds in the head, EFC and FBER (given), INU as the spread of the
 * low-pass tissue intensity, ghosting (half-FOV), background structure (motion ghosts), wrap-around
 * (object at the edge of the field of view), clipping and blur.
 */
export function mrMeasures(c: MeasureContext, given: MrGiven): Measures {
  const { values, width, height, object, grown } = c;
  const n = values.length;
  const background = new Uint8Array(n);
  let bgN = 0;
  for (let i = 0; i < n; i++) {
    background[i] = grown[i] ? 0 : 1;
    bgN += background[i]!;
  }
  const enough = bgN >= Math.max(64, n * 0.05);
  const noise = enough
    ? (given.rayleigh ?? backgroundNoise(values, background, true))
    : { sigma: 0, model: 'laplacian', mean: 0 };
  const fg = given.foreground ?? moments(values, object, 1);
  // A background of exact zeros (masked or skull-stripped volumes) holds no noise: the object's own
  // high-pass noise estimate stands in, without the Rayleigh correction.
  const sigma = noise.sigma > 0 ? noise.sigma : robustNoise(values, width, height, object);
  // Two tissue classes inside the object (grey/white matter, or tissue/fluid).
  const inner = histogram(values, object);
  const cut = otsuThreshold(inner);
  const hi = new Uint8Array(n),
    lo = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!object[i]) continue;
    if (values[i]! > cut) hi[i] = 1;
    else lo[i] = 1;
  }
  const a = moments(values, hi, 1),
    b = moments(values, lo, 1);
  const gap = Math.abs(a.mean - b.mean);
  // Bias field: spread of 16-voxel block means of the brighter class, relative to its median.
  const blocks = blockStats(values, width, height, 16, hi);
  const tissueMeans = pick(blocks.mean, (k) => blocks.inside[k]! > 0.9);
  const inu =
    tissueMeans.length >= 4
      ? (quantile(tissueMeans, 95) - quantile(tissueMeans, 5)) / Math.max(1e-9, quantile(tissueMeans, 50))
      : 0;
  // Structure in the air: SD of 8-voxel block means against what Rayleigh noise alone gives (0.655σ/8).
  const bgBlocks = blockStats(values, width, height, 8, background);
  const bgMeans = pick(bgBlocks.mean, (k) => bgBlocks.inside[k] === 1);
  const bgStructure =
    sigma > 0 && bgMeans.length >= 8
      ? (quantile(bgMeans, 90) - quantile(bgMeans, 10)) / 2.563 / ((0.655 * sigma) / 8)
      : 0;
  return {
    snr: sigma > 0 ? fg.mean / sigma : 0,
    cnr: sigma > 0 ? gap / sigma : 0,
    cjv: gap > 0 ? (a.sd + b.sd) / gap : 0,
    // Fine variation of the brighter tissue over the background noise: about 1 or more as acquired (the same
    // thermal noise, plus texture), far below when the tissue's intensities were squeezed or smoothed afterwards.
    tissue_noise_ratio: tissueNoiseRatio(values, width, height, hi, background, enough),
    efc: given.efc,
    fber: given.fber,
    inu,
    // The same ghost-to-signal ratio as the generic metrics', measured once.
    ghosting: enough ? (given.ghost ?? ghostRatio(values, width, height, object, grown, fg.mean)) : 0,
    background_structure: bgStructure,
    wrap_around: wrapAround(values, object, width, height),
    clipped: pileUp(values, object),
    edge_width: mrEdgeWidth(c),
  };
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
 * The fine variation of the brighter tissue over that of the background air, both by the same high-pass
 * estimate (Immerkær's, median-based), so that noise correlated by interpolation or filtering in the
 * reconstruction lowers both alike. Air's magnitude noise (Rayleigh) varies 0.655 times as much as the
 * Gaussian noise of tissue, so an image as acquired gives about 1.5 or more (texture adds to it); tissue
 * intensities squeezed or smoothed afterwards give far less. 1 when there is no background to compare with.
 */
function tissueNoiseRatio(
  values: Float32Array,
  width: number,
  height: number,
  tissue: Uint8Array,
  background: Uint8Array,
  enough: boolean,
): number {
  if (!enough) return 1;
  const air = robustNoise(values, width, height, background);
  return air > 0 ? robustNoise(values, width, height, tissue) / air : 1;
}
