import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitConfidence } from '../../../bench/qc-corpus/calibrate.ts';
import { FAMILIES } from '../../../bench/qc-corpus/corpus.ts';
import type { QualityMetrics } from '../../../server/imaging/metrics/quality-metrics.ts';
import { DETECTORS, type ConfidenceStep } from '../../../server/imaging/qc-detectors.ts';
import { QC_MODEL } from '../../../server/imaging/qc-model.ts';
import { assessQuality } from '../../../server/imaging/verdict.ts';

/** A table is well formed: starts at margin 0, margins rising, probabilities inside (0, 1) and not falling. */
function expectMonotone(table: ConfidenceStep[]) {
  expect(table[0]?.from).toBe(0);
  for (const [k, step] of table.entries()) {
    expect(step.p).toBeGreaterThan(0);
    expect(step.p).toBeLessThan(1);
    if (k === 0) continue;
    expect(step.from).toBeGreaterThan(table[k - 1]!.from);
    expect(step.p).toBeGreaterThan(table[k - 1]!.p);
  }
}

describe('confidence calibration (fitConfidence)', () => {
  it('pools images into a rising step function that never says 0 or 100%', () => {
    // Near the limit half the verdicts are wrong, far from it all are right.
    const margins = [0.1, 0.2, 0.3, 0.4, 1, 1.5, 2, 2.5, 3, 3.5];
    const right = [true, false, true, false, true, true, true, true, true, true];
    const table = fitConfidence(margins, right, 2);
    expectMonotone(table);
    expect(table).toHaveLength(2);
    expect(table[0]).toMatchObject({ from: 0, right: 2, n: 4, p: 0.5 });
    expect(table[1]).toMatchObject({ from: 0.7, right: 6, n: 6, p: 7 / 8 });
    expect(table.reduce((n, s) => n + s.n, 0)).toBe(margins.length);
    // With the default of 20 images a block, ten images are one block: 8 right of 10.
    expect(fitConfidence(margins, right)).toEqual([{ from: 0, right: 8, n: 10, p: 0.75 }]);
  });

  it('is monotone, bounded and counts every image for any data', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 4, noNaN: true }), fc.boolean()), { minLength: 1, maxLength: 300 }),
        (data) => {
          const table = fitConfidence(
            data.map(([m]) => m),
            data.map(([, r]) => r),
          );
          expectMonotone(table);
          if (table.length > 1) for (const step of table) expect(step.n).toBeGreaterThanOrEqual(20);
          expect(table.reduce((n, s) => n + s.n, 0)).toBe(data.length);
          expect(table.reduce((n, s) => n + s.right, 0)).toBe(data.filter(([, r]) => r).length);
        },
      ),
    );
  });
});

describe('the committed confidence tables', () => {
  it('are monotone for both sides of every family, and say the verdict is right more often than not', () => {
    // Not guaranteed by the fit (a side's first block could be mostly wrong): a refit that gives a verdict
    // under 50% on some images means the limits, not the confidence, need fixing.
    for (const family of FAMILIES)
      for (const side of ['pass', 'flagged'] as const) {
        const table = QC_MODEL.families[family].confidence[side];
        expect(table.length, `${family} ${side}`).toBeGreaterThan(0);
        expectMonotone(table);
        for (const step of table) expect(step.p, `${family} ${side} from ${step.from}`).toBeGreaterThanOrEqual(0.5);
      }
  });

  it('give a pass and a flagged verdict at least 50, the same each time, an integer 0–100 for any measurements', () => {
    const measures = (family: (typeof FAMILIES)[number]) =>
      fc.record(
        Object.fromEntries(
          DETECTORS[family].map((d) => [
            d.measure,
            fc.oneof(fc.double({ noNaN: false }), fc.double({ min: -100, max: 100, noNaN: true })),
          ]),
        ),
      );
    fc.assert(
      fc.property(
        fc.constantFrom(...FAMILIES).chain((family) => fc.tuple(fc.constant(family), measures(family))),
        ([family, values]) => {
          const m = { family, measures: values } as unknown as QualityMetrics;
          const a = assessQuality(m);
          expect(Number.isInteger(a.confidence)).toBe(true);
          expect(a.confidence).toBeGreaterThanOrEqual(50);
          expect(a.confidence).toBeLessThanOrEqual(100);
          expect(assessQuality(m).confidence).toBe(a.confidence);
        },
      ),
    );
  });
});
