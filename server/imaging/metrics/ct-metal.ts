import type { MaskBits } from './mask-bits.ts';

/** Hounsfield units from which a voxel is metal (cortical bone stays under about 1,900 HU, iodine under 1,500). */
const METAL_HU = 2000;
/** Radial bands each ray is cut into: a streak keeps its sign along all of them, a tissue edge crosses one or two. */
const BANDS = 6;

/**
 * Metal streaks, in HU: the dark and bright bands that fan out of metal in a filtered back-projection
 * (photon starvation and beam hardening along the rays through it). The metal is the brightest voxel at or
 * above 2,000 HU and the metal voxels within 10 voxels of it; about their centroid, the high-pass
 * `residual` of the homogeneous tissue (`keep`; clipped at ±150 HU) is followed along rays and cut by
 * distance (6 bands out to the farthest tissue). A ray's amplitude is the median of its bands' mean
 * residuals (bands of 3 voxels or more, 3 bands at least), so an anatomy edge crossing the ray in one band
 * does not count; the score is the mean of the three largest. 0 without metal: a generic streak (a line
 * through no metal) is for the line search to find. About 2π·r² voxel visits for tissue r voxels away.
 * `brightest`, when the caller knows it, is the largest of `values`: below 2,000 HU there is no metal to look for.
 */
export function metalStreaks(
  values: Float32Array,
  residual: Float32Array,
  keep: MaskBits,
  brightest = Infinity,
): number {
  if (!(brightest >= METAL_HU)) return 0;
  const { width, height, words } = keep;
  const bits = keep.bits;
  /** Whether the voxel at (x, y) of the first slice is kept. */
  const kept = (x: number, y: number) => (bits[y * words + (x >> 5)]! >>> (x & 31)) & 1;
  const plane = width * height;
  // The first slice only: the fan is a property of the slice the metal lies in.
  let top = -Infinity,
    at = -1;
  for (let i = 0; i < Math.min(plane, values.length); i++)
    if (values[i]! > top) {
      top = values[i]!;
      at = i;
    }
  if (!(top >= METAL_HU) || at < 0) return 0;
  const ax = at % width,
    ay = Math.floor(at / width);
  let sx = 0,
    sy = 0,
    count = 0;
  for (let y = Math.max(0, ay - 10); y <= Math.min(height - 1, ay + 10); y++)
    for (let x = Math.max(0, ax - 10); x <= Math.min(width - 1, ax + 10); x++)
      if (values[y * width + x]! >= METAL_HU) {
        sx += x;
        sy += y;
        count++;
      }
  const mx = sx / count,
    my = sy / count;
  // The farthest tissue voxel's distance: the squared distances find the few candidates (within a relative
  // 1e-12 of the largest, far beyond any rounding of either), and hypot, as before, measures only those.
  let far2 = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) if (kept(x, y)) far2 = Math.max(far2, (x - mx) * (x - mx) + (y - my) * (y - my));
  let far = 0;
  const near2 = far2 * (1 - 1e-12);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (kept(x, y) && (x - mx) * (x - mx) + (y - my) * (y - my) >= near2)
        far = Math.max(far, Math.hypot(x - mx, y - my));
  if (!(far > 8)) return 0;
  // One ray per voxel of arc at the farthest tissue, so neighbouring rays are at most a voxel apart; each ray
  // is walked a voxel at a time from the metal outward (nearest voxel), so a streak, being a ray, is followed
  // all along its length whatever its angle.
  const rays = Math.ceil(2 * Math.PI * far);
  const bandLength = far / BANDS;
  const sum = new Float64Array(BANDS);
  const n = new Uint32Array(BANDS);
  const amplitudes: number[] = [];
  const means: number[] = [];
  for (let a = 0; a < rays; a++) {
    const angle = (2 * Math.PI * a) / rays;
    const cx = Math.cos(angle),
      cy = Math.sin(angle);
    sum.fill(0);
    n.fill(0);
    for (let d = 1; d <= far; d++) {
      const x = Math.round(mx + d * cx),
        y = Math.round(my + d * cy);
      if (x < 0 || y < 0 || x >= width || y >= height) break;
      if (!kept(x, y)) continue;
      const i = y * width + x;
      const b = Math.min(BANDS - 1, Math.floor(d / bandLength));
      sum[b]! += Math.max(-150, Math.min(150, residual[i]!));
      n[b]!++;
    }
    means.length = 0;
    for (let b = 0; b < BANDS; b++) if (n[b]! >= 3) means.push(sum[b]! / n[b]!);
    if (means.length < 3) continue;
    means.sort((p, q) => p - q);
    const mid = means.length >> 1;
    amplitudes.push(Math.abs(means.length % 2 ? means[mid]! : (means[mid - 1]! + means[mid]!) / 2));
  }
  amplitudes.sort((p, q) => q - p);
  const best = amplitudes.slice(0, 3);
  return best.length ? best.reduce((p, q) => p + q, 0) / best.length : 0;
}
