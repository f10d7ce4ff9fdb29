import { describe, expect, it } from 'vitest';
import { cohortContext, MIN_COHORT } from '../../../server/imaging/cohort.ts';
import type { QualityMetrics } from '../../../server/imaging/metrics/quality-metrics.ts';

/** Metrics carrying only what the cohort comparison reads. */
const mr = (snr: number, ghosting = 0.01, family: QualityMetrics['family'] = 'MR') =>
  ({ family, measures: { snr, ghosting } }) as unknown as QualityMetrics;

describe('cohort context (robust z-scores among images of the same family)', () => {
  const cohort = Array.from({ length: 30 }, (_, i) => mr(40 + (i % 7) - 3, 0.01 + (i % 3) * 0.001));

  it('says nothing below twenty comparable images', () => {
    expect(cohortContext(mr(40), cohort.slice(0, MIN_COHORT - 1))).toBeUndefined();
    expect(
      cohortContext(
        mr(40),
        cohort.map((m) => ({ ...m, family: 'CT' as const })),
      ),
    ).toBeUndefined();
  });

  it('places a typical image near zero and calls an outlier unusual for this cohort', () => {
    const typical = cohortContext(mr(41), cohort)!;
    expect(typical.size).toBe(30);
    expect(Math.abs(typical.z.snr!)).toBeLessThan(1);
    expect(typical.unusual).toEqual([]);
    const outlier = cohortContext(mr(12, 0.05), cohort)!;
    expect(outlier.z.snr!).toBeLessThan(-3.5);
    expect(outlier.unusual.join(' ')).toMatch(/SNR \(Rician-corrected\) unusual for this cohort \(z = -\d/);
    expect(outlier.unusual.join(' ')).toMatch(/ghost-to-signal unusual for this cohort/);
  });

  it('is not fooled by a few bad images in the cohort (median and MAD, not mean and SD)', () => {
    const spoilt = [...cohort, mr(1), mr(2), mr(3)];
    expect(cohortContext(mr(12), spoilt)!.unusual.length).toBeGreaterThan(0);
  });

  it('compares an image whose DICOM names a protocol only with images of that protocol', () => {
    const withProtocol = (m: QualityMetrics, protocol?: string) => ({ ...m, protocol }) as QualityMetrics;
    const mixed = cohort.map((m, i) => withProtocol(m, i < 25 ? 'T1 axial' : 'T2 axial'));
    expect(cohortContext(withProtocol(mr(40), 'T1 axial'), mixed)!.size).toBe(25);
    expect(cohortContext(withProtocol(mr(40), 'T2 axial'), mixed)).toBeUndefined();
    // Without a protocol of its own, an image is compared with the whole family.
    expect(cohortContext(mr(40), mixed)!.size).toBe(30);
  });

  it('judges a measurement most of the cohort has at zero by its mean deviation, and a speck as nothing', () => {
    // Wrap-around of clean images is mostly exactly 0: MAD is 0, yet a few images carry some.
    const mostlyZero = Array.from({ length: 25 }, (_, i) => mr(40, i % 5 === 0 ? 0.004 : 0));
    expect(cohortContext(mr(40, 0.0004), mostlyZero)!.unusual).toEqual([]);
    expect(cohortContext(mr(40, 0.05), mostlyZero)!.unusual.join(' ')).toMatch(/ghost-to-signal unusual/);
    // Where the whole cohort sits at 0, a value below what the summary shows (0.1% here) is not an outlier.
    const zero = Array.from({ length: 25 }, () => mr(40, 0));
    expect(cohortContext(mr(40, 0.0003), zero)!.unusual).toEqual([]);
  });

  it('does not call exact repeats of a constant measurement unusual', () => {
    const flat = Array.from({ length: 25 }, () => mr(40, 0));
    expect(cohortContext(mr(40, 0), flat)!.unusual).toEqual([]);
  });
});
