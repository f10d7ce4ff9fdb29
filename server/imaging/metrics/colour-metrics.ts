import { laplacianVariance } from './sharpness.ts';

/** Histology measures of an RGB slide image. */
export interface ColourMetrics {
  /** Scale-normalised variance of the Laplacian of the tissue (×1000): the higher, the better focused. */
  focus: number;
  /** Fraction of the image covered by tissue. */
  tissueCoverage: number;
  /** How far the empty slide is from neutral white: largest channel deviation over the mean, 0–1. */
  colourCast: number;
}

/**
 * Focus, tissue coverage and colour cast of an RGB image whose `tissue` mask marks the stained area. `grey`
 * is its luminance as mask.ts's luminance() gives it: the array the check measures, so the focus reuses the
 * sigma-1 smoothing the check's own sharpness already made of it (smoothedOnce) rather than a second one.
 */
export function colourMetrics(
  rgb: Float32Array,
  grey: Float32Array,
  tissue: Uint8Array,
  width: number,
  height: number,
): ColourMetrics {
  const pixels = tissue.length;
  const sums = [0, 0, 0];
  let blank = 0,
    covered = 0,
    max = 0;
  for (let p = 0; p < pixels; p++) {
    const r = rgb[p * 3]!,
      g = rgb[p * 3 + 1]!,
      b = rgb[p * 3 + 2]!;
    max = Math.max(max, r, g, b);
    if (tissue[p]) covered++;
    else {
      blank++;
      sums[0]! += r;
      sums[1]! += g;
      sums[2]! += b;
    }
  }
  // Without empty slide to look at, the grey-world assumption over the whole image stands in.
  const means =
    blank > pixels * 0.02
      ? sums.map((s) => s / blank)
      : [0, 1, 2].map((c) => rgb.filter((_, i) => i % 3 === c).reduce((a, v) => a + v, 0) / pixels);
  const average = (means[0]! + means[1]! + means[2]!) / 3;
  const cast = average > 0 ? Math.max(...means.map((m) => Math.abs(m - average))) / average : 0;
  return {
    focus: laplacianVariance(grey, width, height, tissue, max || 1) * 1000,
    tissueCoverage: covered / pixels,
    colourCast: cast,
  };
}
