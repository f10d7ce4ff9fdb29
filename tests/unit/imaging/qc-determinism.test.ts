import { describe, expect, it } from 'vitest';
import { syntheticSplit, type Sample } from '../../../bench/qc-corpus/corpus.ts';
import { HELD_OUT_SETTINGS } from '../../../bench/qc-corpus/generate.ts';
import { measureQuality } from '../../../server/imaging/metrics/quality-metrics.ts';
import { assessQuality } from '../../../server/imaging/verdict.ts';

/** Everything a check reports about one image, as one comparable string. */
function checkOf(sample: Sample): string {
  const metrics = measureQuality(sample.volume);
  const { verdict, confidence, issues } = assessQuality(metrics);
  return JSON.stringify({ metrics, verdict, confidence, issues });
}

describe('the same image always gets the same check', () => {
  it('gives every image the same measures, verdict and confidence whatever was checked before it', () => {
    // Two clean and two strongly degraded images of every family, then the same again in reverse order: a
    // check that kept anything from the previous one (a cached smoothing, a reused buffer) would differ.
    const samples = [...syntheticSplit(5, HELD_OUT_SETTINGS, { clean: 2, perDegradation: 1 })].filter(
      (s) => s.kind === 'clean' || s.strength === 'strong',
    );
    const forward = samples.map(checkOf);
    const backward = [...samples].reverse().map(checkOf).reverse();
    const differing = samples.filter((_, i) => forward[i] !== backward[i]).map((s) => s.name);
    expect(differing).toEqual([]);
    expect(samples.length).toBeGreaterThan(40);
  }, 120_000);
});
