import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { degrade } from '../../../bench/qc-corpus/degrade.ts';
import { rng } from '../../../bench/qc-corpus/image-ops.ts';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { measureQuality } from '../../../server/imaging/metrics/quality-metrics.ts';
import { DETECTORS } from '../../../server/imaging/qc-detectors.ts';
import { QC_MODEL } from '../../../server/imaging/qc-model.ts';
import { assessQuality } from '../../../server/imaging/verdict.ts';
import type { ImageVolume } from '../../../server/imaging/volume.ts';

const DICOM3TOOLS = '/usr/share/doc/dicom3tools/examples/0051.dcm';
const MR_SMALL = '/usr/lib/python3/dist-packages/pydicom/data/test_files/MR_small.dcm';
const NIBABEL = '/usr/lib/python3/dist-packages/nibabel/tests/data';
const EXAMPLE_4D = `${NIBABEL}/example4d.nii.gz`;
const ANATOMICAL = `${NIBABEL}/anatomical.nii`;

async function real(path: string): Promise<ImageVolume> {
  return decodeImage(new Uint8Array(readFileSync(path)), path.replace(/^.*?(\.[^/]*)$/, '$1'));
}

/** The fitted review limit of an MR detector, on the measure's own scale. */
function reviewLimit(id: string): number {
  const d = DETECTORS.MR.find((x) => x.id === id)!;
  const limit = QC_MODEL.families.MR.limits[id]!.review;
  return d.direction === 'high' ? limit : -limit;
}

/** Half the matrix: each 2×2 block of voxels averaged, as a coarser reconstruction gives. */
function halfMatrix(v: ImageVolume): ImageVolume {
  const w = v.width >> 1,
    h = v.height >> 1;
  const data = new Float32Array(w * h * v.depth);
  for (let z = 0; z < v.depth; z++)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const at = (yy: number, xx: number) => v.data[(z * v.height + yy) * v.width + xx]!;
        data[(z * h + y) * w + x] =
          (at(2 * y, 2 * x) + at(2 * y, 2 * x + 1) + at(2 * y + 1, 2 * x) + at(2 * y + 1, 2 * x + 1)) / 4;
      }
  return { ...v, width: w, height: h, data };
}

/** A quarter turn, with the phase-encoding direction the file names turned with it. */
function turned(v: ImageVolume): ImageVolume {
  const data = new Float32Array(v.data.length);
  for (let z = 0; z < v.depth; z++)
    for (let y = 0; y < v.height; y++)
      for (let x = 0; x < v.width; x++)
        data[(z * v.width + (v.width - 1 - x)) * v.height + y] = v.data[(z * v.height + y) * v.width + x]!;
  const phaseEncoding = v.phaseEncoding === 'ROW' ? 'COL' : v.phaseEncoding === 'COL' ? 'ROW' : undefined;
  return { ...v, width: v.height, height: v.width, data, phaseEncoding };
}

/**
 * A field of view `share` of the head's height along y, centred on it: what lies outside folds back onto
 * the opposite side, added (as aliasing does).
 */
function folded(v: ImageVolume, share: number): ImageVolume {
  const sorted = Float32Array.from(v.data).sort();
  const [lo, hi] = [sorted[Math.floor(sorted.length * 0.02)]!, sorted[Math.floor(sorted.length * 0.98)]!];
  const rows: number[] = [];
  for (let y = 0; y < v.height; y++)
    for (let x = 0; x < v.width; x++)
      if (v.data[y * v.width + x]! > lo + 0.25 * (hi - lo)) {
        rows.push(y);
        break;
      }
  const [top, bottom] = [rows[0]!, rows[rows.length - 1]! + 1];
  const fov = Math.round((bottom - top) * share);
  const start = Math.floor((top + bottom - fov) / 2);
  const data = new Float32Array(v.width * fov);
  for (let y = 0; y < v.height; y++) {
    const to = (((y - start) % fov) + fov) % fov;
    for (let x = 0; x < v.width; x++) data[to * v.width + x]! += v.data[y * v.width + x]!;
  }
  return { ...v, height: fov, depth: 1, data };
}

const measures = (v: ImageVolume) => measureQuality(v).measures;

describe('MR ghosting, background structure and wrap-around on clinical images', { timeout: 60_000 }, () => {
  it.skipIf(!existsSync(DICOM3TOOLS))(
    'a clean clinical slice measures alike at half its matrix and turned a quarter, and passes',
    async () => {
      const clean = await real(DICOM3TOOLS);
      expect(clean.phaseEncoding).toBe('COL');
      const base = measures(clean);
      for (const variant of [halfMatrix(clean), turned(clean)]) {
        const m = measures(variant);
        // Background structure is a share of the signal, not of the noise: resampling does not make it grow.
        expect(Math.abs(m.background_structure! - base.background_structure!)).toBeLessThan(0.005);
        expect(m.background_structure!).toBeLessThan(reviewLimit('mr-motion') / 2);
        expect(m.ghosting!).toBeLessThan(reviewLimit('mr-ghosting') / 2);
        expect(assessQuality(measureQuality(variant)).verdict).toBe('pass');
      }
    },
  );

  it.skipIf(!existsSync(DICOM3TOOLS))(
    'a half-field ghost along the phase axis the file names is found, turned or not',
    async () => {
      const clean = await real(DICOM3TOOLS);
      // The corpus ghost runs along y for COL and along x once turned (ROW).
      for (const image of [clean, turned(clean)]) {
        const ghosted = degrade(image, 'MR', 'ghosting', 'strong', rng(3));
        expect(measures(ghosted).ghosting!).toBeGreaterThan(reviewLimit('mr-ghosting'));
      }
      // A copy along the frequency axis is not a phase-encoding ghost: that axis is not searched.
      const across = degrade({ ...clean, phaseEncoding: 'ROW' }, 'MR', 'ghosting', 'strong', rng(3));
      expect(measures({ ...across, phaseEncoding: 'COL' }).ghosting!).toBeLessThan(reviewLimit('mr-ghosting'));
    },
  );

  it.skipIf(!existsSync(EXAMPLE_4D))(
    'a background of exact zeros leaves the measures that need air out, and the verdict passes over them',
    async () => {
      const clean = await real(EXAMPLE_4D);
      const m = measureQuality(clean);
      expect(m.measures.fber).toBeUndefined();
      expect(m.measures.tissue_noise_ratio).toBeUndefined();
      expect(Object.values(m.measures).every(Number.isFinite)).toBe(true);
      const a = assessQuality(m);
      expect(a.verdict).toBe('pass');
      const unmeasured = a.measures.find((r) => r.key === 'tissue_noise_ratio');
      expect(unmeasured).toMatchObject({ status: 'info', text: 'not measurable on this image' });
      expect(unmeasured!.expected).toMatch(/^≥ /);
    },
  );

  it.skipIf(!existsSync(ANATOMICAL))(
    'a head that fills the field of view: its ghost is measured inside the head, and a clean one passes',
    async () => {
      const clean = await real(ANATOMICAL);
      const m = measures(clean);
      expect(m.background_structure).toBeUndefined();
      expect(m.ghosting!).toBeLessThan(reviewLimit('mr-ghosting'));
      expect(m.wrap_around!).toBeLessThan(reviewLimit('mr-wrap'));
      expect(assessQuality(measureQuality(clean)).verdict).toBe('pass');
      const ghosted = degrade(clean, 'MR', 'ghosting', 'strong', rng(2));
      expect(measures(ghosted).ghosting!).toBeGreaterThan(reviewLimit('mr-ghosting'));
    },
  );

  it.skipIf(!existsSync(MR_SMALL))(
    'a fold-over of a 64² slice is found where the head meets the far edge only as a thin strip; the clean slice is no fold, turned or not',
    async () => {
      const clean = await real(MR_SMALL);
      expect([clean.width, clean.height]).toEqual([64, 64]);
      const wrapped = degrade(clean, 'MR', 'wrap-around', 'strong', rng(3));
      // Turned, the fold runs along x: wrap-around is looked for along both in-plane axes.
      for (const [image, fold] of [
        [clean, wrapped],
        [turned(clean), turned(wrapped)],
      ] as const) {
        expect(measures(image).wrap_around!).toBeLessThan(reviewLimit('mr-wrap'));
        expect(measures(fold).wrap_around!).toBeGreaterThan(reviewLimit('mr-wrap'));
      }
    },
  );

  it.skipIf(!existsSync(ANATOMICAL))(
    'a brain symmetric about its midline filling a tight field of view is no fold, turned or not; folded it is',
    async () => {
      const clean = await real(ANATOMICAL);
      const wrapped = degrade(clean, 'MR', 'wrap-around', 'strong', rng(3));
      for (const [image, fold] of [
        [clean, wrapped],
        [turned(clean), turned(wrapped)],
      ] as const) {
        expect(measures(image).wrap_around!).toBeLessThan(reviewLimit('mr-wrap'));
        expect(measures(fold).wrap_around!).toBeGreaterThan(reviewLimit('mr-wrap'));
      }
    },
  );

  it.skipIf(!existsSync(DICOM3TOOLS))(
    'motion ghosts raise the background structure and a fold-over the wrap-around',
    async () => {
      const clean = await real(DICOM3TOOLS);
      const moved = degrade(clean, 'MR', 'motion', 'strong', rng(5));
      expect(measures(moved).background_structure!).toBeGreaterThan(reviewLimit('mr-motion'));
      expect(measures(folded(clean, 0.7)).wrap_around!).toBeGreaterThan(reviewLimit('mr-wrap'));
    },
  );
});
