import { describe, expect, it } from 'vitest';
import { DEGRADATIONS, degrade } from '../../../bench/qc-corpus/degrade.ts';
import { GENERATORS, HELD_OUT_SETTINGS, TRAIN_SETTINGS } from '../../../bench/qc-corpus/generate.ts';
import { rng } from '../../../bench/qc-corpus/image-ops.ts';
import { morphBits, packMask, unpackMask } from '../../../server/imaging/metrics/mask-bits.ts';
import { quantileInPlace } from '../../../server/imaging/metrics/image-stats.ts';
import { medianInPlace } from '../../../server/imaging/metrics/image-stats.ts';
import { dilate } from '../../../server/imaging/metrics/mask.ts';
import { backgroundStructure, ghosting, headMasks, wrapAround } from '../../../server/imaging/metrics/mr-artefacts.ts';
import { caseOf, debianCases, type KernelCase, NIBABEL, PYDICOM, same } from './kernel-cases.ts';
import * as reference from './reference-mr-artefacts.ts';

/** Debian's MR examples (pydicom, nibabel) and the corpus's MR images, clean and with every degradation. */
async function corpus(): Promise<KernelCase[]> {
  const cases = await debianCases([
    `${PYDICOM}/MR_small.dcm`,
    `${NIBABEL}/anatomical.nii`,
    `${NIBABEL}/example4d.nii.gz`,
  ]);
  for (const [s, settings] of [TRAIN_SETTINGS, HELD_OUT_SETTINGS].entries()) {
    const r = rng(200 + s);
    const clean = GENERATORS.MR(r, settings);
    cases.push(caseOf(`MR clean ${s}`, clean));
    for (const kind of DEGRADATIONS.MR) cases.push(caseOf(`MR ${kind} ${s}`, degrade(clean, 'MR', kind, 'strong', r)));
  }
  return cases;
}

// The MR model was fitted on these measures: the faster code must give the same numbers to the bit as the
// code it replaced (reference-mr-artefacts.ts).
describe('the faster MR artefact measures give the same numbers as before', { timeout: 120_000 }, async () => {
  const cases = await corpus();

  it('packed square dilation and erosion, as dilate and the complement of dilating the complement', () => {
    const r = rng(13);
    for (let t = 0; t < 400; t++) {
      const [w, h, d] = [1 + Math.floor(r.next() * 100), 1 + Math.floor(r.next() * 30), 1 + Math.floor(r.next() * 3)];
      const density = r.next();
      const mask = Uint8Array.from({ length: w * h * d }, () => (r.next() < density ? 1 : 0));
      const radius = Math.floor(r.next() * 40);
      const packed = packMask(mask, w, h);
      const grown = new Uint8Array(mask.length),
        shrunk = new Uint8Array(mask.length);
      const ones = unpackMask(morphBits(packed, radius, false), grown);
      unpackMask(morphBits(packed, radius, true), shrunk);
      const inverse = mask.map((v) => 1 - v);
      const name = `${w}×${h}×${d} r${radius} density ${density.toFixed(2)}`;
      expect(same(grown, dilate(mask, w, h, radius)), name).toBe(true);
      expect(ones, name).toBe(grown.reduce((a, v) => a + v, 0));
      expect(
        same(
          shrunk,
          dilate(inverse, w, h, radius).map((v) => 1 - v),
        ),
        name,
      ).toBe(true);
    }
  });

  it('the median by counting, as quantileInPlace gives it, on integers and on anything else', () => {
    const r = rng(17);
    for (let t = 0; t < 300; t++) {
      const n = t % 3 === 0 ? 1 + Math.floor(r.next() * 2000) : 1000 + Math.floor(r.next() * 20000);
      // Down to values mostly distinct (up to 4n), where the two middle ones differ.
      const spread = [1, 5, 300, 1e5, 4 * n][t % 5]!;
      const kind = Math.floor(r.next() * 4);
      const a = Float64Array.from({ length: n }, () => {
        const v = Math.floor(r.next() * spread);
        // Integers; integers with a few large ones; fractions; a few negative ones.
        if (kind === 1 && r.next() < 0.01) return v * 1000;
        if (kind === 2) return v + r.next();
        if (kind === 3 && r.next() < 0.001) return -v;
        return v;
      });
      expect(medianInPlace(a.slice()), `n ${n} spread ${spread} kind ${kind}`).toBe(quantileInPlace(a.slice(), 50));
    }
  });

  it('head and air masks, on every image and on random masks of every shape', () => {
    const check = (object: Uint8Array, w: number, h: number, margin: number, name: string) => {
      const fast = headMasks(object, w, h, margin);
      const old = reference.headMasks(object, w, h, margin);
      expect(same(fast.head, old.head) && same(fast.air, old.air), name).toBe(true);
      expect([fast.headCount, fast.airCount], name).toEqual([old.headCount, old.airCount]);
    };
    for (const c of cases) check(c.object, c.width, c.height, 6, c.name);
    const r = rng(11);
    for (let t = 0; t < 400; t++) {
      const [w, h, d] = [1 + Math.floor(r.next() * 40), 1 + Math.floor(r.next() * 40), 1 + Math.floor(r.next() * 3)];
      const density = r.next();
      const mask = Uint8Array.from({ length: w * h * d }, () => (r.next() < density ? 1 : 0));
      check(mask, w, h, Math.floor(r.next() * 5), `${w}×${h}×${d} density ${density.toFixed(2)}`);
    }
  });

  it('ghosting (both axes and each alone), background structure and wrap-around', () => {
    for (const c of cases) {
      const masks = reference.headMasks(c.object, c.width, c.height, 6);
      for (const phase of [undefined, 'x', 'y'] as const)
        expect(ghosting(c.values, masks, c.width, c.height, 100, phase), c.name).toBe(
          reference.ghosting(c.values, masks, c.width, c.height, 100, phase),
        );
      expect(backgroundStructure(c.values, masks, c.width, c.height, 3, 100), c.name).toBe(
        reference.backgroundStructure(c.values, masks, c.width, c.height, 3, 100),
      );
      expect(wrapAround(c.values, masks, c.width, c.height), c.name).toBe(
        reference.wrapAround(c.values, masks, c.width, c.height),
      );
    }
  });

  it('ghosting where the head fills the field of view (measured from within the head)', () => {
    for (const c of cases) {
      // Every voxel head, no air: the correlation path.
      const head = new Uint8Array(c.values.length).fill(1);
      const masks = { head, air: new Uint8Array(c.values.length), airCount: 0, headCount: head.length };
      for (const phase of ['x', 'y'] as const)
        expect(ghosting(c.values, masks, c.width, c.height, 100, phase), c.name).toBe(
          reference.ghosting(c.values, masks, c.width, c.height, 100, phase),
        );
    }
  });
});
