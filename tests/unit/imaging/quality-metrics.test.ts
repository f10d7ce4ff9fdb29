import { describe, expect, it } from 'vitest';
import { measureQuality } from '../../../server/imaging/metrics/quality-metrics.ts';
import { assessQuality } from '../../../server/imaging/verdict.ts';
import { GENERATORS, HELD_OUT_SETTINGS } from '../../../bench/qc-corpus/generate.ts';
import { rng } from '../../../bench/qc-corpus/image-ops.ts';
import { addGaussianNoise, addGhost, addRicianNoise, blur, cleanPhantom, clip } from '../../fixtures/phantoms.ts';
import { phantomVolume } from './phantom-volume.ts';

const within = (value: number, truth: number, tolerance: number) =>
  expect(Math.abs(value - truth) / truth).toBeLessThan(tolerance);
// The true mean of the object of cleanPhantom (ellipse at 1000 with an inner disk at 800).
function objectMean() {
  const p = cleanPhantom({ inner: 800 });
  const inside = Array.from(p.values).filter((v) => v > 100);
  return inside.reduce((a, b) => a + b, 0) / inside.length;
}

describe('noise and SNR on phantoms of known sigma', () => {
  for (const sigma of [10, 25, 60]) {
    it(`estimates Gaussian noise of sigma ${sigma} within 10%, and SNR within 10%`, () => {
      const m = measureQuality(phantomVolume(addGaussianNoise(cleanPhantom({ inner: 800 }), sigma, sigma), 'CT'));
      expect(m.noiseModel).toBe('gaussian');
      within(m.noiseSigma, sigma, 0.1);
      within(m.snr, objectMean() / sigma, 0.1);
    });
  }

  for (const sigma of [15, 40]) {
    it(`corrects MR magnitude (Rayleigh) background noise of sigma ${sigma} to within 10%`, () => {
      const m = measureQuality(
        phantomVolume(addRicianNoise(cleanPhantom({ inner: 800, background: 0 }), sigma, 7), 'MR'),
      );
      expect(m.noiseModel).toBe('rayleigh');
      within(m.noiseSigma, sigma, 0.1);
      within(m.snr, objectMean() / sigma, 0.1);
    });
  }

  it('uses the whole-image estimate when there is no background, still within 10%', () => {
    const flat = { width: 128, height: 128, values: new Float32Array(128 * 128).fill(500) };
    const m = measureQuality(phantomVolume(addGaussianNoise(flat, 20, 3), 'CT'));
    within(m.noiseSigma, 20, 0.1);
  });
});

describe('sharpness, clipping, ghosting, EFC and FBER', { timeout: 60_000 }, () => {
  it('falls monotonically as blur grows', () => {
    const values = [0, 0.6, 1, 1.5, 2.5, 4].map(
      (s) =>
        measureQuality(phantomVolume(addGaussianNoise(blur(cleanPhantom({ inner: 800 }), s), 8, 5), 'CT')).sharpness,
    );
    for (let i = 1; i < values.length; i++)
      expect(values[i]!, `blur step ${i}: ${values.join(', ')}`).toBeLessThan(values[i - 1]!);
  });

  it('measures the fraction of clipped voxels', () => {
    const m = measureQuality(phantomVolume(clip(addGaussianNoise(cleanPhantom({ inner: 800 }), 20), 0, 850), 'CT'));
    expect(m.clippedFraction).toBeGreaterThan(0.25);
    expect(
      measureQuality(phantomVolume(addGaussianNoise(cleanPhantom({ inner: 800 }), 20), 'CT')).clippedFraction,
    ).toBe(0);
  });

  it('sees a ghost shifted by half the field of view', () => {
    const noisy = addRicianNoise(cleanPhantom({ inner: 800, background: 0 }), 15, 2);
    expect(measureQuality(phantomVolume(noisy, 'MR')).ghostRatio).toBeLessThan(0.01);
    expect(measureQuality(phantomVolume(addGhost(noisy, 0.15), 'MR')).ghostRatio).toBeGreaterThan(0.08);
  });

  it('gives worse EFC and FBER to a noisier image', () => {
    const quiet = measureQuality(phantomVolume(addRicianNoise(cleanPhantom({ inner: 800, background: 0 }), 10), 'MR'));
    const loud = measureQuality(phantomVolume(addRicianNoise(cleanPhantom({ inner: 800, background: 0 }), 150), 'MR'));
    expect(loud.efc).toBeGreaterThan(quiet.efc);
    expect(loud.fber).toBeLessThan(quiet.fber);
  });
});

describe('verdicts', { timeout: 60_000 }, () => {
  const clean = () => addRicianNoise(cleanPhantom({ inner: 800, background: 0 }), 20, 11);

  it('passes a clean phantom, more likely right than wrong, with no issues', () => {
    const a = assessQuality(measureQuality(phantomVolume(clean(), 'MR')));
    expect(a).toMatchObject({ verdict: 'pass', issues: [], fixes: [] });
    // Calibrated: a flat phantom's edges sit nearer the blur limit than anatomy does, so it is not near 100.
    expect(a.confidence).toBeGreaterThan(50);
  });

  const degraded: Record<string, () => ReturnType<typeof clean>> = {
    'very noisy': () => addRicianNoise(cleanPhantom({ inner: 800, background: 0 }), 300, 4),
    'strongly blurred': () => addRicianNoise(blur(cleanPhantom({ inner: 800, background: 0 }), 5), 20, 4),
    'heavily clipped': () => clip(clean(), 0, 700),
    ghosted: () => addGhost(clean(), 0.2),
  };
  for (const [name, make] of Object.entries(degraded)) {
    it(`fails a ${name} phantom and says why and what to do`, () => {
      const a = assessQuality(measureQuality(phantomVolume(make(), 'MR')));
      expect(a.verdict).toBe('fail');
      expect(a.issues.length).toBeGreaterThan(0);
      expect(a.fixes.length).toBe(a.issues.length);
    });
  }
});

describe('colour histology', () => {
  /** A slide: white background, a stained section (pink, textured) covering `coverage` of the width. */
  function slide(coverage: number, cast = [0, 0, 0], blurSigma = 0) {
    const size = 128;
    const texture = blur(
      {
        width: size,
        height: size,
        values: Float32Array.from({ length: size * size }, (_, i) => ((i * 7919) % 97) * 1.2),
      },
      blurSigma,
    );
    const data = new Float32Array(size * size * 3);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const p = y * size + x;
        const tissue = x < size * coverage;
        const rgb = tissue
          ? [200 - texture.values[p]!, 90 - texture.values[p]! / 2, 160 - texture.values[p]!]
          : [245, 245, 245];
        for (let c = 0; c < 3; c++) data[p * 3 + c] = Math.max(0, Math.min(255, rgb[c]! + cast[c]!));
      }
    }
    return {
      format: 'png' as const,
      width: size,
      height: size,
      depth: 1,
      channels: 3 as const,
      data,
      spacing: [1, 1, 1] as [number, number, number],
      bitDepth: 8,
      storedRange: [0, 255] as [number, number],
      photometric: 'RGB',
      invert: false,
    };
  }

  it('measures tissue coverage, colour cast and focus', () => {
    const good = measureQuality(slide(0.5)).colour!;
    expect(good.tissueCoverage).toBeGreaterThan(0.45);
    expect(good.tissueCoverage).toBeLessThan(0.55);
    expect(good.colourCast).toBeLessThan(0.02);
    expect(measureQuality(slide(0.5, [-40, 0, 30])).colour!.colourCast).toBeGreaterThan(0.1);
    expect(measureQuality(slide(0.5, [0, 0, 0], 3)).colour!.focus).toBeLessThan(good.focus);
  });

  it('passes a good slide and flags an empty, cast one', () => {
    // This helper's section is darker than stained tissue is (a third of white): only the brightness is flagged.
    const dark = assessQuality(measureQuality(slide(0.5)));
    expect(dark.issues).toEqual([expect.stringMatching(/^Too dark/)]);
    const good = assessQuality(measureQuality(GENERATORS.SM(rng(5), HELD_OUT_SETTINGS)));
    expect(good).toMatchObject({ verdict: 'pass', issues: [] });
    const bad = assessQuality(measureQuality(slide(0.01, [-60, 0, 50])));
    expect(bad.verdict).toBe('fail');
    expect(bad.issues.join(' ')).toMatch(/Little tissue.*Colour cast|Colour cast/);
  });
});
