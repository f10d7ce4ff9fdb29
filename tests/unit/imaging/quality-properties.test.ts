import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UnmeasurableImageError } from '../../../server/imaging/metrics/finite.ts';
import { measureQuality } from '../../../server/imaging/metrics/quality-metrics.ts';
import { assessQuality } from '../../../server/imaging/verdict.ts';
import type { ImageVolume } from '../../../server/imaging/volume.ts';

const MODALITIES = [undefined, 'CT', 'MR', 'CR', 'DX', 'MG', 'XA', 'US', 'PT', 'NM', 'SM', 'OT', 'XC'];

/** Every number anywhere in a value (objects and arrays walked). */
function numbersIn(value: unknown, path = 'metrics'): [string, number][] {
  if (typeof value === 'number') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbersIn(v, `${path}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => numbersIn(v, `${path}.${k}`));
  return [];
}

/** Pixel values as an image might hold them: ordinary, huge, tiny, negative, NaN and ±Infinity. */
const sample = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: -2000, max: 4000, noNaN: true }) },
  { weight: 2, arbitrary: fc.constantFrom(0, 1, -1024, 65535, 255) },
  { weight: 1, arbitrary: fc.double({ noNaN: false }) },
  { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, 3.4e38, -3.4e38, 1e-38) },
);

/** A random decoded image: 1×1 up to 48×48, one to three slices, grey or RGB, often constant or nearly so. */
const image = fc
  .record({
    width: fc.integer({ min: 1, max: 48 }),
    height: fc.integer({ min: 1, max: 48 }),
    depth: fc.integer({ min: 1, max: 3 }),
    channels: fc.constantFrom(1 as const, 3 as const),
    modality: fc.constantFrom(...MODALITIES),
    format: fc.constantFrom('dcm' as const, 'nii' as const, 'png' as const, 'tiff' as const),
    constant: fc.option(sample, { nil: undefined }),
    seed: fc.array(sample, { minLength: 1, maxLength: 64 }),
    storedRange: fc.constantFrom<[number, number]>([0, 255], [0, 65535], [-32768, 32767], [-Infinity, Infinity]),
  })
  .map((r): ImageVolume => {
    const n = r.width * r.height * r.depth * r.channels;
    const data = new Float32Array(n);
    // The seed values repeat across the image, so structure (edges, flat runs) appears at every size.
    for (let i = 0; i < n; i++) data[i] = r.constant ?? r.seed[(i * 7) % r.seed.length]!;
    return {
      format: r.format,
      width: r.width,
      height: r.height,
      depth: r.depth,
      channels: r.channels,
      data,
      spacing: [1, 1, 1],
      bitDepth: 16,
      storedRange: r.storedRange,
      photometric: r.channels === 3 ? 'RGB' : 'MONOCHROME2',
      invert: false,
      modality: r.modality,
    };
  });

describe('the engine on any image (property tests)', { timeout: 120_000 }, () => {
  it('measures only finite numbers, gives pass/review/fail and an integer confidence 0–100', () => {
    fc.assert(
      fc.property(image, (volume) => {
        let metrics;
        try {
          metrics = measureQuality(volume);
        } catch (error) {
          // The only refusal allowed is an image without a single finite value.
          expect(error).toBeInstanceOf(UnmeasurableImageError);
          expect(Array.from(volume.data).some(Number.isFinite)).toBe(false);
          return;
        }
        for (const [path, value] of numbersIn(metrics)) expect(Number.isFinite(value), path).toBe(true);
        const a = assessQuality(metrics);
        expect(['pass', 'review', 'fail']).toContain(a.verdict);
        expect(Number.isInteger(a.confidence)).toBe(true);
        expect(a.confidence).toBeGreaterThanOrEqual(0);
        expect(a.confidence).toBeLessThanOrEqual(100);
        expect(a.fixes.length).toBe(a.issues.length);
        // The same image always gets the same answer.
        expect(assessQuality(measureQuality(volume))).toEqual(a);
      }),
      { numRuns: 300, seed: 21 },
    );
  });

  it('fails every grey image of one value as blank, whatever its modality, size or value', () => {
    fc.assert(
      fc.property(
        image.filter((v) => v.channels === 1),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        (volume, value) => {
          volume.data.fill(value);
          const a = assessQuality(measureQuality(volume));
          expect(a.verdict).toBe('fail');
          expect(a.issues).toHaveLength(1);
          expect(a.issues[0]).toMatch(/^Blank image \(every pixel holds -?[\d.e+-]+( HU)?\)$/);
          expect(a.fixes).toHaveLength(1);
        },
      ),
      { numRuns: 200, seed: 21 },
    );
  });

  it('measures only finite numbers on matrices the grid samples (full-resolution window, metal, planar NM)', () => {
    // Wider or taller than 256: the grid samples every other voxel or more, and MR edge width reads a
    // full-resolution window; CT values reach metal; NM comes planar, tomographic or without Image Type.
    const large = fc
      .record({
        width: fc.constantFrom(1, 3, 257, 300, 700),
        height: fc.constantFrom(1, 2, 260, 513),
        depth: fc.constantFrom(1, 2),
        modality: fc.constantFrom('MR', 'CT', 'NM', 'PT'),
        imageType: fc.constantFrom(undefined, 'ORIGINAL\\PRIMARY\\WHOLE BODY', 'ORIGINAL\\PRIMARY\\RECON TOMO'),
        seed: fc.array(sample, { minLength: 1, maxLength: 64 }),
      })
      .map((r): ImageVolume => {
        const n = r.width * r.height * r.depth;
        const data = new Float32Array(n);
        for (let i = 0; i < n; i++) data[i] = r.seed[(i * 7) % r.seed.length]!;
        return {
          format: 'dcm',
          width: r.width,
          height: r.height,
          depth: r.depth,
          channels: 1,
          data,
          spacing: [1, 1, 1],
          bitDepth: 16,
          storedRange: [-32768, 32767],
          photometric: 'MONOCHROME2',
          invert: false,
          modality: r.modality,
          imageType: r.imageType,
        };
      });
    fc.assert(
      fc.property(large, (volume) => {
        let metrics;
        try {
          metrics = measureQuality(volume);
        } catch (error) {
          expect(error).toBeInstanceOf(UnmeasurableImageError);
          return;
        }
        for (const [path, value] of numbersIn(metrics)) expect(Number.isFinite(value), path).toBe(true);
        expect(['pass', 'review', 'fail']).toContain(assessQuality(metrics).verdict);
      }),
      { numRuns: 40, seed: 21 },
    );
  });

  it('measures a large image whose centre is all NaN (the full-resolution window) from its finite rest', () => {
    const [width, height] = [300, 300];
    const data = new Float32Array(width * height);
    for (let i = 0; i < data.length; i++) {
      const x = i % width,
        y = Math.floor(i / width);
      data[i] = Math.abs(x - 150) < 140 && Math.abs(y - 150) < 140 ? NaN : 100 + ((i * 7919) % 50);
    }
    const volume: ImageVolume = {
      format: 'dcm',
      width,
      height,
      depth: 1,
      channels: 1,
      data,
      spacing: [1, 1, 1],
      bitDepth: 16,
      storedRange: [0, 65535],
      photometric: 'MONOCHROME2',
      invert: false,
      modality: 'MR',
    };
    const metrics = measureQuality(volume);
    for (const [path, value] of numbersIn(metrics)) expect(Number.isFinite(value), path).toBe(true);
  });

  it('refuses an image with no finite value with a reason, not a crash', () => {
    const volume: ImageVolume = {
      format: 'nii',
      width: 4,
      height: 4,
      depth: 1,
      channels: 1,
      data: new Float32Array(16).fill(NaN),
      spacing: [1, 1, 1],
      bitDepth: 32,
      storedRange: [-Infinity, Infinity],
      photometric: 'MONOCHROME2',
      invert: false,
    };
    expect(() => measureQuality(volume)).toThrow(/no finite pixel value/);
  });

  it('does not give a CT in Hounsfield units a NaN confidence (negative mean signal)', () => {
    const size = 64;
    const data = new Float32Array(size * size);
    for (let i = 0; i < data.length; i++) data[i] = -1000 + ((i * 7919) % 13) + (i % size > 20 ? 990 : 0);
    const volume: ImageVolume = {
      format: 'dcm',
      width: size,
      height: size,
      depth: 1,
      channels: 1,
      data,
      spacing: [1, 1, 1],
      bitDepth: 16,
      storedRange: [-1024, 3071],
      photometric: 'MONOCHROME2',
      invert: false,
      modality: 'CT',
    };
    const a = assessQuality(measureQuality(volume));
    expect(Number.isInteger(a.confidence)).toBe(true);
  });
});
