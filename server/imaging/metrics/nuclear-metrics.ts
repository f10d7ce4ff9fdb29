import type { MeasureContext, Measures } from './context.ts';
import { edgeWidth, orderStatistics, quantile } from './image-stats.ts';
import { noiseGrain } from './noise-grain.ts';
import { pileUpShare, tally, type PileUpTally } from './pile-up.ts';
import { scratchFloat32, scratchUint8 } from './scratch.ts';

/**
 * SD over mean of every whole 6×6 block of every slice that lies wholly in `body` and has a positive mean, as
 * blockStats gives them (the same sums in the same order), without summing the blocks that do not: a block
 * is left at its first voxel outside the body.
 */
function bodyBlockRatios(values: Float32Array, width: number, height: number, body: Uint8Array): number[] {
  const size = 6,
    n = size * size;
  const slices = Math.floor(values.length / Math.max(1, width * height));
  const bx = Math.floor(width / size),
    by = Math.floor(height / size);
  const ratios: number[] = [];
  for (let z = 0; z < slices; z++) {
    const o = z * width * height;
    for (let j = 0; j < by; j++)
      blocks: for (let i = 0; i < bx; i++) {
        let sum = 0,
          sumSq = 0;
        for (let y = j * size; y < (j + 1) * size; y++) {
          const row = o + y * width;
          for (let x = i * size; x < (i + 1) * size; x++) {
            if (!body[row + x]) continue blocks;
            const v = values[row + x]!;
            sum += v;
            sumSq += v * v;
          }
        }
        const mean = sum / n;
        if (!(mean > 0)) continue;
        ratios.push(Math.sqrt(Math.max(0, sumSq / n - mean * mean) * (n / (n - 1))) / mean);
      }
  }
  return ratios;
}

/**
 * PET and NM: counts-based noise as the coefficient of variation of the quieter half of blocks in the
 * uptake region (Poisson noise is 1/√counts), blur, the grain of the counts noise, and clipping of the
 * hottest voxels.
 */
export function nuclearMeasures(c: MeasureContext): Measures {
  const { values, width, height } = c;
  // The body, not only the hottest organs Otsu would pick: a tenth of the near-maximum uptake.
  const copy = scratchFloat32('nm-uptake-order', values.length);
  copy.set(values);
  const top = copy.length ? orderStatistics(copy, Math.floor(copy.length * 0.995), false)[0] : 0;
  // A work buffer: the body is read only while the measures are taken. As it is marked, row by row, its
  // pile-up is tallied and the smallest non-zero step between neighbours along x within it found (the grain's
  // quantisation step).
  const object = scratchUint8('nm-body', values.length).fill(0);
  const hottest: PileUpTally = { n: 0, min: Infinity, max: -Infinity, atMax: 0 };
  let smallestStep = Infinity;
  if (top > 0) {
    const cut = top * 0.1;
    for (let row = 0; row < values.length; row += width) {
      // The previous voxel's value when it is in the body, else NaN (whose differences compare false).
      let previous = NaN;
      for (let i = row, end = Math.min(values.length, row + width); i < end; i++) {
        const v = values[i]!;
        if (!(v > cut)) {
          previous = NaN;
          continue;
        }
        object[i] = 1;
        tally(hottest, v);
        const d = Math.abs(v - previous);
        if (d > 0 && d < smallestStep) smallestStep = d;
        previous = v;
      }
    }
  }
  const ratios = bodyBlockRatios(values, width, height, object);
  const edge = edgeWidth(values, width, height, object) * c.stride;
  // A gamma camera counts each pixel's events apart, so a planar frame's noise is white (Poisson), and a
  // reconstruction's is as wide as its filter, however smooth or sharp the anatomy: blur added after
  // acquisition widens the grain as it widens the edges. A planar frame's edges are wide by nature (the
  // collimator's resolution falls with depth) and a 3 px blur barely shows in them; it shows in the grain.
  const grain = noiseGrain(values, width, height, object, smallestStep);
  const cv = ratios.length ? quantile(ratios, 50) : 0;
  return {
    counts_cv: cv,
    // A reconstruction's noise is what its filter left: judged on tighter limits than a planar frame's raw counts.
    ...(c.planar ? {} : { recon_counts_cv: cv }),
    edge_width: edge,
    // A reconstruction (PET, SPECT) is as sharp as its filter makes it: its blur is judged on tighter limits
    // than a planar frame's, whose edges are wide by nature (the gamma camera's resolution falls with depth).
    ...(c.planar ? {} : { recon_edge_width: edge }),
    clipped: pileUpShare(hottest),
    ...(grain === undefined ? {} : { noise_grain: grain * c.stride }),
  };
}
