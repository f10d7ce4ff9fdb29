import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../../../bench/qc-corpus/corpus.ts';
import { DEGRADATIONS, degrade } from '../../../bench/qc-corpus/degrade.ts';
import { GENERATORS, HELD_OUT_SETTINGS, TRAIN_SETTINGS } from '../../../bench/qc-corpus/generate.ts';
import { rng } from '../../../bench/qc-corpus/image-ops.ts';
import { lineScores } from '../../../server/imaging/metrics/ct-metrics.ts';
import { edgeWidth } from '../../../server/imaging/metrics/image-stats.ts';
import { dilate } from '../../../server/imaging/metrics/mask.ts';
import { packMask } from '../../../server/imaging/metrics/mask-bits.ts';
import { binomialSmooth, ghostRatio, rowSpans, smoothInPlane } from '../../../server/imaging/metrics/sharpness.ts';
import { caseOf, debianCases, type KernelCase, NIBABEL, PYDICOM, same } from './kernel-cases.ts';
import * as reference from './reference-kernels.ts';

/** Debian's example images (pydicom, nibabel) and the corpus generators' images, clean and degraded. */
async function corpus(): Promise<KernelCase[]> {
  const cases = await debianCases([
    `${PYDICOM}/CT_small.dcm`,
    `${PYDICOM}/MR_small.dcm`,
    `${NIBABEL}/anatomical.nii`,
    `${NIBABEL}/example4d.nii.gz`,
  ]);
  for (const [s, settings] of [TRAIN_SETTINGS, HELD_OUT_SETTINGS].entries())
    for (const family of FAMILIES) {
      const r = rng(100 * s + FAMILIES.indexOf(family));
      const clean = GENERATORS[family](r, settings);
      cases.push(caseOf(`${family} clean ${s}`, clean));
      const kind = DEGRADATIONS[family][s % DEGRADATIONS[family].length]!;
      cases.push(caseOf(`${family} ${kind} ${s}`, degrade(clean, family, kind, 'strong', r)));
    }
  return cases;
}

// The faster kernels must give the measurements the QC model was fitted on: the same numbers to the bit as
// the code they replaced (reference-kernels.ts), on images this project did not make and on its corpus.
describe('the faster QC kernels give the same numbers as before', { timeout: 120_000 }, async () => {
  const cases = await corpus();

  it('square dilation, on every image’s object mask and on random masks of every shape', () => {
    for (const c of cases)
      for (const radius of [0, 1, 2, 5])
        expect(
          same(dilate(c.object, c.width, c.height, radius), reference.dilate(c.object, c.width, c.height, radius)),
          c.name,
        ).toBe(true);
    const r = rng(5);
    for (let t = 0; t < 500; t++) {
      const [w, h, d] = [1 + Math.floor(r.next() * 12), 1 + Math.floor(r.next() * 12), 1 + Math.floor(r.next() * 3)];
      const mask = Uint8Array.from({ length: w * h * d }, () => (r.next() < 0.2 ? 1 : 0));
      const radius = Math.floor(r.next() * 6);
      expect(same(dilate(mask, w, h, radius), reference.dilate(mask, w, h, radius)), `${w}×${h}×${d} r${radius}`).toBe(
        true,
      );
    }
  });

  it('the sigma-1 smoothing, on images of whole numbers (its shortcut) and of fractions', () => {
    for (const c of cases) {
      // The grid's own values, and the same rounded to whole numbers within and just beyond 16 bits.
      const whole = c.values.map((v) => Math.round(v));
      const wide = c.values.map((v, i) => (i % 7 ? Math.round(v) : i % 2 ? 65535 : -65536));
      for (const values of [c.values, whole, wide])
        expect(
          same(smoothInPlane(values, c.width, c.height), reference.smoothInPlane(values, c.width, c.height)),
          c.name,
        ).toBe(true);
    }
    const r = rng(6);
    for (let t = 0; t < 500; t++) {
      const [w, h, d] = [1 + Math.floor(r.next() * 9), 1 + Math.floor(r.next() * 9), 1 + Math.floor(r.next() * 3)];
      // Whole numbers up to the largest the shortcut takes, small ones, signed zeros, and a fraction now and then.
      const kind = t % 4;
      const values = Float32Array.from({ length: w * h * d }, () =>
        kind === 0
          ? Math.round((2 * r.next() - 1) * 65535)
          : kind === 1
            ? (r.next() < 0.5 ? -1 : 1) * 65535
            : kind === 2
              ? r.next() < 0.5
                ? -0
                : 0
              : r.next() < 0.05
                ? 0.5
                : Math.round(r.next() * 3),
      );
      expect(same(smoothInPlane(values, w, h), reference.smoothInPlane(values, w, h)), `${w}×${h}×${d} ${kind}`).toBe(
        true,
      );
    }
  });

  it('the wide binomial smoothing, whole and within the row spans of a mask', () => {
    for (const c of cases) {
      const slices = c.values.length / (c.width * c.height);
      const whole = reference.binomialSmooth(c.values, c.width, c.height, 12);
      expect(same(binomialSmooth(c.values, c.width, c.height), whole), c.name).toBe(true);
      const spans = rowSpans(c.width, c.height, slices, 2, c.object);
      const part = binomialSmooth(c.values, c.width, c.height, spans);
      const grown = reference.dilate(c.object, c.width, c.height, 2);
      expect(
        same(
          part.filter((_, i) => grown[i]),
          whole.filter((_, i) => grown[i]),
        ),
        c.name,
      ).toBe(true);
    }
  });

  it('edge width, with and without a mask', () => {
    for (const c of cases) {
      const band = reference.dilate(c.object, c.width, c.height, 2);
      for (const mask of [band, c.object, undefined])
        expect(edgeWidth(c.values, c.width, c.height, mask), c.name).toBe(
          reference.edgeWidth(c.values, c.width, c.height, mask),
        );
    }
  });

  it('ghost ratio', () => {
    for (const c of cases) {
      const grown = reference.dilate(c.object, c.width, c.height, 3);
      expect(ghostRatio(c.values, c.width, c.height, c.object, grown, 100), c.name).toBe(
        reference.ghostRatio(c.values, c.width, c.height, c.object, grown, 100),
      );
    }
  });

  it('CT streak and ring scores', () => {
    for (const c of cases) {
      const smooth = reference.smoothInPlane(c.values, c.width, c.height);
      const residual = c.values.map((v, i) => v - smooth[i]!);
      // Soft tissue away from edges for the lines; that and the background for the rings, as ctMeasures does.
      const keep = c.object.map((o, i) => (o && Math.abs(residual[i]!) < 200 ? 1 : 0));
      const ringKeep = c.object.map((o, i) => (keep[i] || !o ? 1 : 0));
      const [w, h] = [c.width, c.height];
      expect(lineScores(residual, packMask(keep, w, h), packMask(ringKeep, w, h), w, h), c.name).toEqual(
        reference.lineScores(residual, keep, ringKeep, c.width, c.height),
      );
    }
  });
});
