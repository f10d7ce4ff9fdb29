// Graded degradations, applied the same way to generated and to real images: each takes a clean volume
// and returns a degraded copy, 'mild' or 'strong'.
import type { ModalityFamily } from '../../server/imaging/metrics/modality.ts';
import { laplacianNoise } from '../../server/imaging/metrics/noise.ts';
import type { Degradation } from '../../server/imaging/qc-detectors.ts';
import type { ImageVolume } from '../../server/imaging/volume.ts';
import { gaussianBlur, motionBlur, perChannel, type Rng } from './image-ops.ts';

/** How strong a degradation is: strong ones must be found, mild ones are reported as found or not. */
export type Strength = 'mild' | 'strong';

/** The degradations each family is tested on. */
export const DEGRADATIONS: Record<ModalityFamily, Degradation[]> = {
  CT: ['noise', 'blur', 'motion', 'streaks', 'rings', 'clipping', 'calibration', 'low-contrast'],
  MR: ['noise', 'blur', 'motion', 'ghosting', 'clipping', 'low-contrast', 'wrap-around'],
  XR: ['noise', 'blur', 'motion', 'clipping', 'low-contrast', 'under-exposure', 'over-exposure'],
  US: ['noise', 'blur', 'under-exposure', 'over-exposure', 'shallow-depth'],
  NM: ['noise', 'blur', 'clipping'],
  SM: ['blur', 'colour-cast', 'blank-slide', 'pen-marks', 'under-exposure', 'over-exposure', 'low-contrast'],
};

const pick = (s: Strength, mild: number, strong: number) => (s === 'mild' ? mild : strong);

/** Sorted copy's value at fraction q (0–1). */
function quantileOf(values: ArrayLike<number>, q: number): number {
  const sorted = Float32Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))] ?? 0;
}

/** The range a degraded value must stay in: the stored type's, or the image's own for float images. */
function limits(v: ImageVolume): [number, number] {
  const [lo, hi] = v.storedRange;
  if (Number.isFinite(lo) && Number.isFinite(hi)) return [lo, hi];
  let min = Infinity,
    max = -Infinity;
  for (const x of v.data) {
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return [min, max];
}

/** Each slice (of each channel for RGB) through `op`. */
function eachPlane(v: ImageVolume, op: (plane: Float32Array) => Float32Array): Float32Array {
  const plane = v.width * v.height;
  const run = (data: Float32Array) => {
    const out = new Float32Array(data.length);
    for (let z = 0; z < v.depth; z++) out.set(op(data.subarray(z * plane, (z + 1) * plane).slice()), z * plane);
    return out;
  };
  return v.channels === 3 ? perChannel(v.data, run) : run(v.data);
}

/** A threshold between object and background: halfway between the 5th and 95th percentiles. */
function objectThreshold(data: Float32Array): number {
  return (quantileOf(data, 0.05) + quantileOf(data, 0.95)) / 2;
}

const clampTo = (data: Float32Array, [lo, hi]: [number, number]) => data.map((x) => Math.min(hi, Math.max(lo, x)));

/** The degraded copy of `v`. */
export function degrade(v: ImageVolume, family: ModalityFamily, kind: Degradation, s: Strength, r: Rng): ImageVolume {
  const { width: w, height: h } = v;
  const range = limits(v);
  const out = (data: Float32Array): ImageVolume => ({ ...v, data: clampTo(data, range) });
  const span = quantileOf(v.data, 0.99) - quantileOf(v.data, 0.01) || 1;
  switch (kind) {
    case 'noise': {
      const base = Math.max(
        laplacianNoise(v.channels === 1 ? v.data : v.data.filter((_, i) => i % 3 === 1), w, h),
        span * 0.004,
      );
      // Graded on the image's own noise, with a floor so a strong grade is strong for a quiet image too.
      const floor = span * (family === 'CT' ? pick(s, 0.03, 0.06) : pick(s, 0.04, 0.1));
      const total = Math.max(base * pick(s, 2.5, 5), floor);
      const extra = Math.sqrt(Math.max(0, total * total - base * base));
      if (family === 'MR') return out(v.data.map((x) => Math.hypot(x + extra * r.normal(), extra * r.normal())));
      if (family === 'US') {
        const sd = pick(s, 14, 40) * (span / 200);
        return out(v.data.map((x) => (x > range[0] ? x + Math.abs(sd * r.normal()) : x)));
      }
      if (family === 'NM') {
        const mean = quantileOf(v.data, 0.9) || 1;
        const cv = pick(s, 0.2, 0.5);
        return out(v.data.map((x) => x + cv * Math.sqrt(Math.max(0, x) * mean) * r.normal()));
      }
      return out(v.data.map((x) => (family === 'CT' && x < -1100 ? x : x + extra * r.normal())));
    }
    case 'blur':
      return out(eachPlane(v, (p) => gaussianBlur(p, w, h, pick(s, 1.3, 3))));
    case 'motion': {
      if (family === 'MR') {
        // Motion during phase encoding: faint replicas along the phase axis (y unless the file says x), and some smearing.
        const weight = pick(s, 0.08, 0.2);
        const alongX = v.phaseEncoding === 'ROW';
        const n = alongX ? w : h;
        return out(
          eachPlane(v, (p) => {
            const smeared = motionBlur(p, w, h, pick(s, 3, 6), alongX ? 0 : Math.PI / 2);
            const o = smeared.slice();
            for (const [k, shift] of [1, 2, 3].map((k) => [k, Math.round((k * n) / 7)] as const))
              for (let y = 0; y < h; y++)
                for (let x = 0; x < w; x++) {
                  const [a, b] = alongX
                    ? [y * w + ((x + shift) % w), y * w + ((x - shift + w) % w)]
                    : [((y + shift) % h) * w + x, ((y - shift + h) % h) * w + x];
                  o[y * w + x]! += (weight * 0.6 ** (k - 1) * (smeared[a]! + smeared[b]!)) / 2;
                }
            return o;
          }),
        );
      }
      const angle = r.between(0, Math.PI);
      return out(eachPlane(v, (p) => motionBlur(p, w, h, pick(s, 6, 14), angle)));
    }
    case 'ghosting': {
      // An N/2 ghost along the phase axis (y unless the file says x).
      const weight = pick(s, 0.07, 0.18);
      const alongX = v.phaseEncoding === 'ROW';
      return out(
        eachPlane(v, (p) => {
          const o = p.slice();
          for (let y = 0; y < h; y++)
            for (let x = 0; x < w; x++)
              o[y * w + x]! += weight * p[alongX ? y * w + ((x + (w >> 1)) % w) : ((y + (h >> 1)) % h) * w + x]!;
          return o;
        }),
      );
    }
    case 'clipping': {
      const t = objectThreshold(v.data);
      // A bright collimator shutter (a plateau at the image's top) is not anatomy to clip: left out, so that
      // clipping at a share of the anatomy's values does clip (with it, a strong grade could change nothing).
      let top0 = -Infinity,
        atTop = 0;
      for (const x of v.data) if (x > top0) top0 = x;
      for (const x of v.data) if (x === top0) atTop++;
      const plateau = atTop > v.data.length * 0.01 ? top0 : Infinity;
      const inside = v.data.filter((x) => x > t && x !== plateau);
      const top = family === 'CT' ? pick(s, 300, 120) : quantileOf(inside.length ? inside : v.data, pick(s, 0.9, 0.7));
      return out(v.data.map((x) => Math.min(x, top)));
    }
    case 'low-contrast': {
      if (family === 'CT') return out(v.data.map((x) => (x < -1100 ? x : x * pick(s, 0.85, 0.5))));
      const factor = pick(s, 0.5, 0.15);
      if (family === 'SM') {
        const mean = v.data.reduce((a, b) => a + b, 0) / v.data.length;
        return out(v.data.map((x) => mean + (x - mean) * factor));
      }
      const t = objectThreshold(v.data);
      const inside = v.data.filter((x) => x > t);
      const mean = inside.reduce((a, b) => a + b, 0) / Math.max(1, inside.length);
      return out(v.data.map((x) => (family === 'MR' && x <= t ? x : mean + (x - mean) * factor)));
    }
    case 'streaks': {
      const mx = w * r.between(0.4, 0.6),
        my = h * r.between(0.4, 0.6);
      const lines = Array.from({ length: r.choose([8, 12, 16]) }, (_, k) => ({
        angle: (Math.PI * k) / 12 + r.between(0, 0.2),
        sign: k % 2 ? 1 : -1,
      }));
      const amp = pick(s, 60, 200);
      return out(
        eachPlane(v, (p) => {
          const o = p.slice();
          for (let y = 0; y < h; y++)
            for (let x = 0; x < w; x++) {
              if (p[y * w + x]! < -1100) continue;
              const dx = x - mx,
                dy = y - my;
              const dist = Math.hypot(dx, dy);
              if (dist < 3) {
                o[y * w + x] = 3000;
                continue;
              }
              for (const l of lines) {
                const off = Math.abs(-dx * Math.sin(l.angle) + dy * Math.cos(l.angle));
                if (off < 1.2) o[y * w + x]! += l.sign * amp * Math.exp(-dist / (w * 0.4));
              }
            }
          return o;
        }),
      );
    }
    case 'rings': {
      const radii = Array.from({ length: r.choose([4, 6, 8]) }, () => r.between(0.05, 0.4) * w);
      const amp = pick(s, 10, 30);
      return out(
        eachPlane(v, (p) =>
          p.map((x, i) => {
            if (x < -1100) return x;
            const d = Math.hypot((i % w) - (w - 1) / 2, Math.floor(i / w) - (h - 1) / 2);
            return x + radii.reduce((a, rad, k) => a + (Math.abs(d - rad) < 1 ? (k % 2 ? amp : -amp) : 0), 0);
          }),
        ),
      );
    }
    case 'calibration':
      return out(v.data.map((x) => (x < -1100 ? x : x + pick(s, 90, 250))));
    case 'under-exposure': {
      if (family === 'SM') return out(v.data.map((x) => x * pick(s, 0.7, 0.45)));
      const f = pick(s, 0.45, 0.2);
      const base = laplacianNoise(v.data, w, h);
      return out(v.data.map((x) => range[0] + (x - range[0]) * f + base * pick(s, 0.5, 1) * r.normal()));
    }
    case 'over-exposure': {
      if (family === 'SM') return out(v.data.map((x) => 255 - (255 - x) * pick(s, 0.5, 0.22)));
      const f = pick(s, 1.8, 3);
      return out(v.data.map((x) => range[0] + (x - range[0]) * f));
    }
    case 'shallow-depth': {
      const d0 = pick(s, 0.6, 0.35);
      return out(v.data.map((x, i) => x / (1 + Math.exp(((Math.floor(i / w) % h) / h - d0) / 0.04))));
    }
    case 'wrap-around':
      return wrapAround(v, s, range);
    case 'colour-cast': {
      const angle = r.between(0, 2 * Math.PI);
      const m = pick(s, 0.08, 0.16);
      const gains = [0, 1, 2].map((c) => 1 + m * Math.cos(angle + (2 * Math.PI * c) / 3));
      return out(v.data.map((x, i) => x * gains[i % 3]!));
    }
    case 'blank-slide': {
      const keep = pick(s, 0.06, 0.02);
      const side = Math.sqrt(keep) * Math.min(w, h);
      const x0 = r.between(0, w - side),
        y0 = r.between(0, h - side);
      const data = v.data.slice();
      for (let p = 0; p < w * h; p++) {
        const x = p % w,
          y = Math.floor(p / w);
        if (x >= x0 && x < x0 + side && y >= y0 && y < y0 + side) continue;
        for (let c = 0; c < 3; c++) data[p * 3 + c] = 242 + 2 * r.normal();
      }
      return out(data);
    }
    case 'pen-marks': {
      const data = v.data.slice();
      const ink = r.choose([
        [40, 60, 170],
        [40, 130, 60],
        [25, 25, 30],
      ]);
      const strokes = pick(s, 1, 3);
      const width = pick(s, 6, 12) * (Math.min(w, h) / 256);
      for (let k = 0; k < strokes; k++) {
        let x = r.between(0, w),
          y = r.between(0, h),
          a = r.between(0, 2 * Math.PI);
        for (let step = 0; step < Math.max(w, h) * 0.8; step++) {
          a += r.between(-0.1, 0.1);
          x += Math.cos(a);
          y += Math.sin(a);
          for (let dy = -width; dy <= width; dy++)
            for (let dx = -width; dx <= width; dx++) {
              const px = Math.round(x + dx),
                py = Math.round(y + dy);
              if (px < 0 || py < 0 || px >= w || py >= h || dx * dx + dy * dy > width * width) continue;
              for (let c = 0; c < 3; c++) data[(py * w + px) * 3 + c] = ink[c]!;
            }
        }
      }
      return out(data);
    }
  }
}

/**
 * Wrap-around: the field of view made smaller along y than the object, so what falls outside folds onto
 * the other side (added, as aliasing does). The fold takes `mild` 8% or `strong` 20% of the object's height.
 */
function wrapAround(v: ImageVolume, s: Strength, range: [number, number]): ImageVolume {
  const { width: w, height: h } = v;
  const t = objectThreshold(v.data);
  let first = h,
    last = 0;
  for (let z = 0; z < v.depth; z++)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        if (v.data[(z * h + y) * w + x]! > t) {
          first = Math.min(first, y);
          last = Math.max(last, y);
        }
  const objectHeight = Math.max(1, last - first + 1);
  const fold = Math.round(objectHeight * pick(s, 0.08, 0.2));
  const top = Math.max(0, first - 2),
    newH = Math.max(8, Math.min(h, last - top + 1 - fold));
  const data = new Float32Array(w * newH * v.depth);
  for (let z = 0; z < v.depth; z++)
    for (let y = top; y < h; y++) {
      const ny = (y - top) % newH;
      for (let x = 0; x < w; x++) {
        const src = v.data[(z * h + y) * w + x]!;
        const at = (z * newH + ny) * w + x;
        data[at] = y - top >= newH ? Math.hypot(data[at]!, src) : src;
      }
    }
  return { ...v, height: newH, data: clampTo(data, range) };
}
