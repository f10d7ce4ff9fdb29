import { describe, expect, it } from 'vitest';
import { finiteWithRange, UnmeasurableImageError } from '../../../server/imaging/metrics/finite.ts';
import { finiteMeasurementGrid, measurementGrid } from '../../../server/imaging/metrics/measurement-grid.ts';
import type { ImageVolume } from '../../../server/imaging/volume.ts';

function volume(width: number, height: number, depth: number, channels: 1 | 3, at: (i: number) => number): ImageVolume {
  return {
    format: 'nii',
    width,
    height,
    depth,
    channels,
    data: Float32Array.from({ length: width * height * depth * channels }, (_, i) => at(i)),
    spacing: [1, 1, 1],
    bitDepth: 32,
    storedRange: [-Infinity, Infinity],
    photometric: channels === 3 ? 'RGB' : 'MONOCHROME2',
    invert: false,
  };
}

/** What measureQuality did before the grid noted its own range: the grid, then finiteWithRange over it. */
function twoPasses(v: ImageVolume) {
  const grid = measurementGrid(v);
  const finite = finiteWithRange(grid.data);
  return { data: finite.values, min: finite.min, max: finite.max };
}

describe('the finite measurement grid', () => {
  const values = (i: number) => Math.sin(i * 0.37) * 1000 + ((i * 7919) % 13);
  const cases: [string, ImageVolume][] = [
    ['grey, sampled', volume(600, 520, 1, 1, values)],
    ['grey, used whole', volume(200, 180, 3, 1, values)],
    ['grey, 40 slices', volume(300, 300, 40, 1, values)],
    ['colour, sampled', volume(530, 530, 1, 3, values)],
    ['with NaN and ±Infinity', volume(600, 600, 1, 1, (i) => [NaN, Infinity, -Infinity][i % 5] ?? values(i))],
    ['with -0 and 0', volume(520, 520, 1, 1, (i) => (i % 3 === 0 ? -0 : i % 3 === 1 ? 0 : 1))],
  ];
  for (const [name, v] of cases)
    it(`is the grid made finite, with its range, in one pass: ${name}`, () => {
      const { grid, min, max } = finiteMeasurementGrid(v);
      const expected = twoPasses(v);
      expect(Object.is(min, expected.min) && Object.is(max, expected.max)).toBe(true);
      expect(grid.data.length).toBe(expected.data.length);
      expect(grid.data.every((x, i) => Object.is(x, expected.data[i]))).toBe(true);
      expect([grid.width, grid.height, grid.depth]).toEqual(
        [measurementGrid(v)].map((g) => [g.width, g.height, g.depth])[0],
      );
    });

  it('refuses an image without a finite value, sampled or whole', () => {
    expect(() => finiteMeasurementGrid(volume(600, 600, 1, 1, () => NaN))).toThrow(UnmeasurableImageError);
    expect(() => finiteMeasurementGrid(volume(64, 64, 1, 1, () => Infinity))).toThrow(UnmeasurableImageError);
  });
});
