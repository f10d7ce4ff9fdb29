// Pixel operations the corpus generators and degradations share: seeded noise, smooth random fields,
// Gaussian and directional blur, on single-channel planes (x fastest) or interleaved RGB.
import { gaussian, seededRandom } from '../../tests/fixtures/phantoms.ts';

/** A seeded generator with the helpers the corpus needs. */
export interface Rng {
  next: () => number;
  normal: () => number;
  /** Uniform in [a, b). */
  between: (a: number, b: number) => number;
  /** One of the items. */
  choose: <T>(items: readonly T[]) => T;
}

/** A seeded random source (mulberry32 + Box–Muller): the corpus is the same on every run. */
export function rng(seed: number): Rng {
  const next = seededRandom(seed);
  const normal = gaussian(seededRandom(seed ^ 0x5bd1e995));
  return {
    next,
    normal,
    between: (a, b) => a + (b - a) * next(),
    choose: (items) => items[Math.floor(next() * items.length)]!,
  };
}

/** Gaussian blur of a plane (separable, kernel to 3 sigma, edges clamped); sigma 0 returns a copy. */
export function gaussianBlur(values: Float32Array, width: number, height: number, sigma: number): Float32Array {
  if (sigma <= 0) return values.slice();
  const radius = Math.max(1, Math.ceil(sigma * 3));
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, k) => Math.exp(-((k - radius) ** 2) / (2 * sigma * sigma)));
  const total = kernel.reduce((a, b) => a + b, 0);
  for (let k = 0; k < kernel.length; k++) kernel[k]! /= total;
  const tmp = new Float32Array(values.length);
  const out = new Float32Array(values.length);
  const slices = values.length / (width * height);
  for (let z = 0; z < slices; z++) {
    const o = z * width * height;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        let s = 0;
        for (let k = -radius; k <= radius; k++)
          s += kernel[k + radius]! * values[o + y * width + Math.min(width - 1, Math.max(0, x + k))]!;
        tmp[o + y * width + x] = s;
      }
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        let s = 0;
        for (let k = -radius; k <= radius; k++)
          s += kernel[k + radius]! * tmp[o + Math.min(height - 1, Math.max(0, y + k)) * width + x]!;
        out[o + y * width + x] = s;
      }
  }
  return out;
}

/** Blur along one direction (a line of `length` pixels at `angle` radians): linear motion. */
export function motionBlur(values: Float32Array, width: number, height: number, length: number, angle: number) {
  const out = new Float32Array(values.length);
  const steps = Math.max(1, Math.round(length));
  const dx = Math.cos(angle),
    dy = Math.sin(angle);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let s = 0;
      for (let k = 0; k < steps; k++) {
        const t = k - (steps - 1) / 2;
        const sx = Math.min(width - 1, Math.max(0, Math.round(x + t * dx)));
        const sy = Math.min(height - 1, Math.max(0, Math.round(y + t * dy)));
        s += values[sy * width + sx]!;
      }
      out[y * width + x] = s / steps;
    }
  return out;
}

/** A smooth random field in about [-1, 1]: white noise on a coarse grid, bilinearly enlarged. */
export function smoothField(width: number, height: number, cell: number, r: Rng): Float32Array {
  const gw = Math.ceil(width / cell) + 2,
    gh = Math.ceil(height / cell) + 2;
  const grid = Float32Array.from({ length: gw * gh }, () => r.between(-1, 1));
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const gx = x / cell,
        gy = y / cell;
      const x0 = Math.floor(gx),
        y0 = Math.floor(gy);
      const fx = gx - x0,
        fy = gy - y0;
      const at = (i: number, j: number) => grid[j * gw + i]!;
      out[y * width + x] =
        at(x0, y0) * (1 - fx) * (1 - fy) +
        at(x0 + 1, y0) * fx * (1 - fy) +
        at(x0, y0 + 1) * (1 - fx) * fy +
        at(x0 + 1, y0 + 1) * fx * fy;
    }
  return out;
}

/** Each channel of an interleaved RGB plane, processed as a plane and put back. */
export function perChannel(rgb: Float32Array, op: (plane: Float32Array) => Float32Array): Float32Array {
  const pixels = rgb.length / 3;
  const out = new Float32Array(rgb.length);
  for (let c = 0; c < 3; c++) {
    const plane = new Float32Array(pixels);
    for (let p = 0; p < pixels; p++) plane[p] = rgb[p * 3 + c]!;
    const done = op(plane);
    for (let p = 0; p < pixels; p++) out[p * 3 + c] = done[p]!;
  }
  return out;
}

/** Values rounded and held within [low, high], as a stored integer type would. */
export function quantise(values: Float32Array, low: number, high: number): Float32Array {
  return values.map((v) => Math.min(high, Math.max(low, Math.round(v))));
}

/** Inside an ellipse centred at (cx, cy) with semi-axes a, b, rotated by `angle`. */
export function inEllipse(x: number, y: number, cx: number, cy: number, a: number, b: number, angle = 0): boolean {
  const c = Math.cos(angle),
    s = Math.sin(angle);
  const u = (x - cx) * c + (y - cy) * s,
    v = -(x - cx) * s + (y - cy) * c;
  return (u / a) ** 2 + (v / b) ** 2 <= 1;
}
