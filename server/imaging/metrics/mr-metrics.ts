import type { MeasureContext, Measures } from './context.ts';
import { histogram, moments, otsuThreshold } from './histogram.ts';
import { blockStats, edgeWidth, pick, pileUp, quantile, robustNoise } from './image-stats.ts';
import { backgroundNoise } from './noise.ts';
import { backgroundStructure, ghosting, headMasks, wrapAround } from './mr-artefacts.ts';

/** What measureQuality has already measured that the MR measures use. */
export interface MrGiven {
  efc: number;
  /** Undefined where it cannot be formed (no background, or a background of exact zeros). */
  fber?: number;
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
  // The artefacts are looked for in the air outside the head (holes filled, a margin of a 40th of the field
  // of view), so dark tissue inside the head and the head's blurred edge are not taken for ghosts.
  const masks = headMasks(object, width, height, Math.max(3, Math.round(Math.min(width, height) / 40)));
  const ghost = ghosting(values, masks, width, height, fg.mean, c.phase);
  const structure = backgroundStructure(values, masks, width, height, noise.sigma, fg.mean);
  // The bright tissue's high-pass noise, compared with the air's and with the dark tissue's: estimated once.
  const hiNoise = robustNoise(values, width, height, hi);
  const tnr = tissueNoiseRatio(values, width, height, hiNoise, background, enough);
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
    tissue_noise_balance: tissueNoiseBalance(values, width, height, hiNoise, lo),
    // Fine variation of the brighter tissue over the background noise: about 1 or more as acquired (the same
    // thermal noise, plus texture), far below when the tissue's intensities were squeezed or smoothed afterwards.
    // What cannot be measured on this image is left out (the verdict passes over it) rather than given a
    // value that would read as a measurement: no air to compare with, or air of exact zeros.
    ...(tnr === undefined ? {} : { tissue_noise_ratio: tnr }),
    efc: given.efc,
    ...(given.fber === undefined ? {} : { fber: given.fber }),
    inu,
    ...(ghost === undefined ? {} : { ghosting: ghost }),
    ...(structure === undefined ? {} : { background_structure: structure }),
    wrap_around: wrapAround(values, masks, width, height),
    clipped: pileUp(values, object),
    edge_width: mrEdgeWidth(c),
  };
}

/** The brighter tissue's robustNoise (`bright`) over the darker's; 1 (neutral) when the darker has none. */
function tissueNoiseBalance(values: Float32Array, width: number, height: number, bright: number, lo: Uint8Array) {
  const dark = robustNoise(values, width, height, lo);
  return dark > 0 ? bright / dark : 1;
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
 * The fine variation of the brighter tissue (`tissue`, its robustNoise) over that of the background air, both by the same high-pass
 * estimate (Immerkær's, median-based), so that noise correlated by interpolation or filtering in the
 * reconstruction lowers both alike. Air's magnitude noise (Rayleigh) varies 0.655 times as much as the
 * Gaussian noise of tissue, so an image as acquired gives about 1.5 or more (texture adds to it); tissue
 * intensities squeezed or smoothed afterwards give far less. Undefined when there is no background to compare
 * with, or its air holds no noise (exact zeros).
 */
function tissueNoiseRatio(
  values: Float32Array,
  width: number,
  height: number,
  tissue: number,
  background: Uint8Array,
  enough: boolean,
): number | undefined {
  if (!enough) return undefined;
  const air = robustNoise(values, width, height, background);
  return air > 0 ? tissue / air : undefined;
}
