import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { degrade } from '../../../bench/qc-corpus/degrade.ts';
import { gaussianBlur, rng } from '../../../bench/qc-corpus/image-ops.ts';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import type { ModalityFamily } from '../../../server/imaging/metrics/modality.ts';
import { measureQuality } from '../../../server/imaging/metrics/quality-metrics.ts';
import { DETECTORS } from '../../../server/imaging/qc-detectors.ts';
import { QC_MODEL } from '../../../server/imaging/qc-model.ts';
import { assessQuality } from '../../../server/imaging/verdict.ts';
import type { ImageVolume } from '../../../server/imaging/volume.ts';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const NIBABEL = '/usr/lib/python3/dist-packages/nibabel/tests/data';

/** A Debian example image (pydicom's, nibabel's), decoded as the server decodes it. */
async function real(path: string): Promise<ImageVolume> {
  return decodeImage(new Uint8Array(readFileSync(path)), path.replace(/^.*?(\.[^/]*)$/, '$1'));
}

/** The fitted review limit of a detector, on the measure's own scale. */
function reviewLimit(family: ModalityFamily, id: string): number {
  const d = DETECTORS[family].find((x) => x.id === id)!;
  const limit = QC_MODEL.families[family].limits[id]!.review;
  return d.direction === 'high' ? limit : -limit;
}

const measure = (v: ImageVolume, key: string) => measureQuality(v).measures[key]!;

// Images this project did not make; each decodes and measures in well under a second.
describe('the measures that find strong degradations, on Debian’s example images', { timeout: 60_000 }, () => {
  it('edge width: a Gaussian blur of sigma 3 px widens the edges of CT, MR and NIfTI images past the limit', async () => {
    for (const [path, family, id] of [
      [`${PYDICOM}/CT_small.dcm`, 'CT', 'ct-blur'],
      [`${PYDICOM}/MR_small.dcm`, 'MR', 'mr-blur'],
      [`${NIBABEL}/anatomical.nii`, 'MR', 'mr-blur'],
    ] as const) {
      if (!existsSync(path)) continue;
      const clean = await real(path);
      const blurred = degrade(clean, family, 'blur', 'strong', rng(1));
      const before = measure(clean, 'edge_width');
      const after = measure(blurred, 'edge_width');
      expect(before, path).toBeLessThan(reviewLimit(family, id));
      expect(after, path).toBeGreaterThan(reviewLimit(family, id));
      // The width is in pixels: sigma 3 on top of the image’s own edges gives at least 2 px.
      expect(after, path).toBeGreaterThan(2);
      expect(after - before, path).toBeGreaterThan(1);
    }
  });

  it('measures the pixels as they are at each check, even when the same array is changed in between', async () => {
    // A single 64² slice is measured on its own array (no grid copy), so a kept smoothing would be stale.
    const image = await real(`${PYDICOM}/MR_small.dcm`);
    const before = measure(image, 'edge_width');
    image.data.set(gaussianBlur(image.data, image.width, image.height, 3));
    expect(measure(image, 'edge_width')).toBeGreaterThan(before + 1);
  });

  it('edge width grows with the blur applied, whatever the contrast', async () => {
    const clean = await real(`${PYDICOM}/CT_small.dcm`);
    const widths = [0, 1.5, 3, 4.5].map((sigma) =>
      measure(
        sigma ? { ...clean, data: gaussianBlur(clean.data, clean.width, clean.height, sigma) } : clean,
        'edge_width',
      ),
    );
    for (let i = 1; i < widths.length; i++) expect(widths[i]!, widths.join(', ')).toBeGreaterThan(widths[i - 1]!);
    const halfContrast = { ...clean, data: clean.data.map((v) => v / 2) };
    expect(measure(halfContrast, 'edge_width')).toBeCloseTo(widths[0]!, 1);
  });

  it('CT rings about the rotation axis and streaks from a dense point stand out of real scans’ own texture', async () => {
    // A 512² head scan (a round head is a centred circle of its own) and the 128² CT_small.
    const head = await real(`${PYDICOM}/693_J2KI.dcm`);
    expect(measure(head, 'rings')).toBeLessThan(reviewLimit('CT', 'ct-rings'));
    for (const seed of [1, 2])
      expect(measure(degrade(head, 'CT', 'rings', 'strong', rng(seed)), 'rings')).toBeGreaterThan(
        reviewLimit('CT', 'ct-rings'),
      );
    for (const path of [`${PYDICOM}/693_J2KI.dcm`, `${PYDICOM}/CT_small.dcm`]) {
      const clean = await real(path);
      expect(measure(clean, 'streaks'), path).toBeLessThan(reviewLimit('CT', 'ct-streaks'));
      expect(measure(degrade(clean, 'CT', 'streaks', 'strong', rng(5)), 'streaks'), path).toBeGreaterThan(
        reviewLimit('CT', 'ct-streaks'),
      );
    }
  });

  it('metal streaks: a fan of bands out of a dense point is found; metal alone or no metal is not', async () => {
    for (const path of [`${PYDICOM}/693_J2KI.dcm`, `${PYDICOM}/CT_small.dcm`]) {
      const clean = await real(path);
      expect(measure(clean, 'metal_streaks'), path).toBe(0);
      for (const seed of [5, 6])
        expect(measure(degrade(clean, 'CT', 'streaks', 'strong', rng(seed)), 'metal_streaks'), path).toBeGreaterThan(
          reviewLimit('CT', 'ct-metal-streaks'),
        );
      // A dense point (a clip, a filling) reconstructed without streaks is metal, not an artefact.
      const { width: w, height: h } = clean;
      const clip = clean.data.map((v, i) => (Math.hypot((i % w) - w / 2, Math.floor(i / w) - h / 2) < 3 ? 3000 : v));
      expect(measure({ ...clean, data: clip }, 'metal_streaks'), path).toBeLessThan(
        reviewLimit('CT', 'ct-metal-streaks'),
      );
    }
  });

  it('MR edge width of a matrix the grid samples every other voxel is measured at full resolution', async () => {
    // dicom3tools' 360² clinical slice: the grid keeps every second voxel, which would halve a blur's width.
    const path = '/usr/share/doc/dicom3tools/examples/0051.dcm';
    if (!existsSync(path)) return;
    const clean = await real(path);
    expect(clean.width).toBeGreaterThan(256);
    const blurred = degrade(clean, 'MR', 'blur', 'strong', rng(1));
    expect(measure(clean, 'edge_width')).toBeLessThan(reviewLimit('MR', 'mr-blur'));
    expect(measure(blurred, 'edge_width')).toBeGreaterThan(reviewLimit('MR', 'mr-blur'));
  });

  it('NM: a planar frame is judged on the gross-blur limit only, a reconstruction on its own', async () => {
    // pydicom's whole-body bone scan (Image Type DERIVED, PRIMARY, WHOLE BODY, EMISSION): edges 5.5 px wide by nature.
    const planar = await real(`${PYDICOM}/JPEG2000.dcm`);
    expect(planar.imageType).toContain('WHOLE BODY');
    const measures = measureQuality(planar).measures;
    expect(measures.recon_edge_width).toBeUndefined();
    expect(measures.edge_width).toBeLessThan(reviewLimit('NM', 'nm-blur'));
    // Without Image Type an NM image is not known to be a reconstruction: still judged as planar.
    expect(measureQuality({ ...planar, imageType: undefined }).measures.recon_edge_width).toBeUndefined();
    // The same pixels as a SPECT reconstruction, or as PET, are judged on the reconstruction's tighter limit.
    for (const tagged of [
      { ...planar, imageType: 'ORIGINAL\\PRIMARY\\RECON TOMO\\EMISSION' },
      { ...planar, modality: 'PT', imageType: undefined },
    ]) {
      const asRecon = measureQuality(tagged).measures;
      expect(asRecon.recon_edge_width).toBe(asRecon.edge_width);
      expect(asRecon.recon_edge_width).toBeGreaterThan(reviewLimit('NM', 'nm-recon-blur'));
    }
  });

  it('NM: a planar frame blurred after acquisition is found by the grain of its counts noise', async () => {
    // Its edges are wide (5.5 px) and a 3 px blur barely widens them; the noise's grain widens with the blur.
    const planar = await real(`${PYDICOM}/JPEG2000.dcm`);
    const limit = reviewLimit('NM', 'nm-smoothed');
    // Compressed 2097:1, its finest noise is under one count: no grain to read, and nothing flagged for it.
    expect(measure(planar, 'noise_grain')).toBeUndefined();
    expect(assessQuality(measureQuality(planar)).verdict).toBe('pass');
    // Its 76:1 JPEG copy keeps its counts noise, of a fine grain.
    expect(measure(await real(`${PYDICOM}/JPEG-lossy.dcm`), 'noise_grain')).toBeLessThan(limit);
    const blurred = degrade(planar, 'NM', 'blur', 'strong', rng(2));
    expect(measure(blurred, 'edge_width')).toBeLessThan(reviewLimit('NM', 'nm-blur'));
    expect(measure(blurred, 'noise_grain')).toBeGreaterThan(limit);
    // Noise added after acquisition makes the grain finer, not wider.
    expect(measure(degrade(planar, 'NM', 'noise', 'strong', rng(2)), 'noise_grain')).toBeLessThan(limit);
  });

  it('NM: a planar frame’s counts noise is judged as raw counts, a reconstruction’s on its own limit', async () => {
    // The 76:1 JPEG copy of pydicom's 3.6-million-count whole-body scan keeps its Poisson noise (about 16%).
    const lossy = await real(`${PYDICOM}/JPEG-lossy.dcm`);
    const cv = measure(lossy, 'counts_cv');
    expect(cv).toBeGreaterThan(reviewLimit('NM', 'nm-recon-noise'));
    expect(cv).toBeLessThan(reviewLimit('NM', 'nm-noise'));
    expect(assessQuality(measureQuality(lossy)).issues.join('; ')).not.toMatch(/Count-starved/);
    // The same pixels as a SPECT reconstruction are too noisy for one.
    const asRecon = measureQuality({ ...lossy, imageType: 'ORIGINAL\\PRIMARY\\RECON TOMO\\EMISSION' });
    expect(asRecon.measures.recon_counts_cv).toBe(cv);
    expect(assessQuality(asRecon).issues.join('; ')).toMatch(/Count-starved \(noisy\) reconstruction/);
    // Strong noise on the planar frame is found.
    const planar = await real(`${PYDICOM}/JPEG2000.dcm`);
    const noisy = degrade(planar, 'NM', 'noise', 'strong', rng(4));
    expect(assessQuality(measureQuality(noisy)).issues.join('; ')).toMatch(/Count-starved \(noisy\) image/);
  });

  it('MR contrast squeezed after acquisition: the tissue varies less than the background noise', async () => {
    // An image with air around the head to compare with (anatomical.nii is cropped to the brain). In one whose
    // tissue texture dwarfs its noise (dicom3tools' 0051.dcm, SNR over 500) squeezing is not seen this way.
    for (const path of [`${PYDICOM}/MR_small.dcm`]) {
      if (!existsSync(path)) continue;
      const clean = await real(path);
      const squeezed = degrade(clean, 'MR', 'low-contrast', 'strong', rng(4));
      expect(measure(clean, 'tissue_noise_ratio'), path).toBeGreaterThan(reviewLimit('MR', 'mr-contrast'));
      expect(measure(squeezed, 'tissue_noise_ratio'), path).toBeLessThan(reviewLimit('MR', 'mr-contrast'));
    }
  });
});
