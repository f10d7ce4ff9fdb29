import { describe, expect, it } from 'vitest';
import { rng } from '../../../bench/qc-corpus/image-ops.ts';
import { boundedQuantile } from '../../../server/imaging/metrics/bounded-quantile.ts';
import { quantileInPlace } from '../../../server/imaging/metrics/image-stats.ts';

describe('boundedQuantile', () => {
  it('gives quantileInPlace to the bit, or undefined, on values of every kind', () => {
    const r = rng(11);
    const kinds: Array<(i: number) => number> = [
      // Whole numbers with many ties, multiples of 1/256 (a smoothed whole-number image), fractions, one value.
      () => Math.floor(r.next() * 40),
      () => -1024 + Math.round(r.next() * 30 * 256) / 256,
      () => -1100 + r.next() * 700,
      () => 7.25,
      // Fractions closer than 1/256: parts of several values, selected among.
      () => 3 + r.next() * 0.01,
      // Mostly one value with a few others: most of the values in one part.
      (i) => (i % 50 ? -1024 : -1024 + r.next()),
      // A long tail past the units.
      () => (r.next() < 0.05 ? 5000 * r.next() : 30 * r.next()),
    ];
    let counted = 0;
    for (let t = 0; t < 400; t++) {
      const kind = kinds[t % kinds.length]!;
      const n = [1, 2, 3, 10, 257, 5000][Math.floor(r.next() * 6)]!;
      const values = Float32Array.from({ length: n }, (_, i) => kind(i));
      let low = Infinity;
      for (const v of values) low = Math.min(low, Math.floor(v));
      // Sometimes a floor above the least value, to be refused.
      if (t % 7 === 0) low += 1;
      for (const p of [0, 10, 25, 50, 90, 100]) {
        const got = boundedQuantile(values, p, low, 64);
        const want = quantileInPlace(values.slice(), p);
        if (got === undefined) continue;
        counted++;
        expect(Object.is(got, want), `${t} n=${n} p=${p}: ${got} vs ${want}`).toBe(true);
      }
    }
    expect(counted).toBeGreaterThan(1000);
    expect(boundedQuantile(new Float32Array(0), 50, 0, 8)).toBe(0);
    expect(boundedQuantile(Float32Array.of(-1), 50, 0, 8)).toBeUndefined();
    expect(boundedQuantile(Float32Array.of(1, 2, 100), 90, 0, 8)).toBeUndefined();
  });
});
