import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { degrade } from '../../../bench/qc-corpus/degrade.ts';
import { gaussianBlur, rng, smoothField } from '../../../bench/qc-corpus/image-ops.ts';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { measureQuality } from '../../../server/imaging/metrics/quality-metrics.ts';
import { QC_MODEL } from '../../../server/imaging/qc-model.ts';
import { assessQuality } from '../../../server/imaging/verdict.ts';
import type { ImageVolume } from '../../../server/imaging/volume.ts';

/** GDCM's clinical XA example: a 4-frame run of an image intensifier, a bright circle in a dark surround. */
const XA = '/usr/share/doc/libgdcm3.0/examples/00191113.dcm';

/** The exposure below which a radiograph is flagged under-exposed. */
const underLimit = -QC_MODEL.families.XR.limits['xr-under']!.review;

const exposure = (v: ImageVolume) => measureQuality(v).measures.exposure!;
const issues = (v: ImageVolume) => assessQuality(measureQuality(v)).issues.join('; ');

/**
 * A 12-bit radiograph for presentation: anatomy (smooth structure at `level` of the range, quantum noise) inside
 * a circle of radius 0.42 of the side when `surround` is 'intensifier' (outside: black with electronic noise),
 * or a central band `anatomyWidth` px wide on a dark direct-exposure background (5% of the range, quantum noise).
 */
function radiograph(surround: 'intensifier' | 'direct', level = 0.4, seed = 1, anatomyWidth = 136): ImageVolume {
  const side = 256,
    top = 4095;
  const r = rng(seed);
  const structure = smoothField(side, side, side / 12, r);
  const data = new Float32Array(side * side);
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const i = y * side + x;
      const anatomy =
        surround === 'intensifier'
          ? Math.hypot(x - 128, y - 128) < 0.42 * side
          : Math.abs(x + 0.5 - side / 2) < anatomyWidth / 2;
      const v = anatomy
        ? (level + 0.12 * structure[i]!) * top + 0.01 * top * r.normal()
        : surround === 'intensifier'
          ? Math.abs(0.002 * top * r.normal())
          : 0.05 * top + 0.004 * top * r.normal();
      data[i] = Math.min(top, Math.max(0, Math.round(v)));
    }
  return {
    format: 'dcm',
    width: side,
    height: side,
    depth: 1,
    channels: 1,
    data,
    spacing: [1, 1, 1],
    bitDepth: 12,
    storedRange: [0, top],
    photometric: 'MONOCHROME2',
    invert: false,
    modality: surround === 'intensifier' ? 'XA' : 'DX',
  };
}

/** The same image stored the other way round (MONOCHROME1: high values shown dark). */
const monochrome1 = (v: ImageVolume): ImageVolume => ({
  ...v,
  data: v.data.map((x) => v.storedRange[1] - x),
  photometric: 'MONOCHROME1',
  invert: true,
});

/** Median of the values where `keep` holds, as a share of the 12-bit range. */
function medianShare(v: ImageVolume, keep: (x: number, y: number) => boolean): number {
  const picked: number[] = [];
  for (let y = 0; y < v.height; y++)
    for (let x = 0; x < v.width; x++) if (keep(x, y)) picked.push(v.data[y * v.width + x]!);
  picked.sort((a, b) => a - b);
  return picked[Math.floor(picked.length / 2)]! / v.storedRange[1];
}

describe('the exposed field of a radiograph', () => {
  it('leaves out the dark surround of an image intensifier, stored either way round', () => {
    const image = radiograph('intensifier');
    const inCircle = medianShare(image, (x, y) => Math.hypot(x - 128, y - 128) < 0.42 * 256);
    // Nearly half the image is surround at black: counted, it would pull the median down to about a fifth.
    expect(exposure(image)).toBeGreaterThan(inCircle - 0.02);
    expect(exposure(image)).toBeLessThan(inCircle + 0.02);
    expect(exposure(monochrome1(image))).toBeCloseTo(exposure(image), 2);
    expect(issues(image)).not.toMatch(/Under-exposed/);
  });

  it('still finds the whole field dark: an under-exposed intensifier image, stored either way round', () => {
    const dark = radiograph('intensifier', 0.1);
    expect(exposure(dark)).toBeLessThan(underLimit);
    expect(issues(dark)).toMatch(/Under-exposed/);
    expect(issues(monochrome1(dark))).toMatch(/Under-exposed/);
  });

  it('measures a radiograph on a dark direct-exposure background on its anatomy, as the exposure index does', () => {
    // The background is five eighths of the image: counted, it would make the field's median its own 5%.
    const image = radiograph('direct', 0.4, 1, 96);
    const anatomy = medianShare(image, (x) => x >= 80 && x < 176);
    expect(medianShare(image, () => true)).toBeLessThan(0.1);
    expect(exposure(image)).toBeGreaterThan(anatomy - 0.02);
    expect(exposure(image)).toBeLessThan(anatomy + 0.02);
    expect(exposure(monochrome1(image))).toBeCloseTo(exposure(image), 2);
    expect(issues(image)).not.toMatch(/Under-exposed/);
    // The same radiograph a fifth as bright is under-exposed.
    const dark = { ...image, data: image.data.map((v) => Math.round(v * 0.2)) };
    expect(issues(dark)).toMatch(/Under-exposed/);
  });
});

describe('GDCM’s clinical XA example (an image-intensifier run)', { timeout: 60_000 }, () => {
  it.skipIf(!existsSync(XA))(
    'is not called under-exposed, and its strong under-exposure is (skipped without Debian’s libgdcm-tools examples)',
    async () => {
      const clean = await decodeImage(new Uint8Array(readFileSync(XA)), '.dcm');
      expect(clean.modality).toBe('XA');
      // The circular field's median is 74 of 255 (29%); the surround at black is 61% of the frame.
      expect(exposure(clean)).toBeGreaterThan(underLimit);
      expect(exposure(clean)).toBeGreaterThan(0.2);
      expect(exposure(clean)).toBeLessThan(0.35);
      expect(issues(clean)).not.toMatch(/Under-exposed/);
      const under = degrade(clean, 'XR', 'under-exposure', 'strong', rng(3));
      expect(issues(under)).toMatch(/Under-exposed/);
    },
  );

  it.skipIf(!existsSync(XA))(
    'is judged for sharpness as fluoroscopy: not called unsharp, while its strong blur and motion are',
    async () => {
      const clean = await decodeImage(new Uint8Array(readFileSync(XA)), '.dcm');
      const edge = measureQuality(clean).measures.edge_width!;
      const radiographLimit = QC_MODEL.families.XR.limits['xr-blur']!.review;
      const fluoroscopyLimit = QC_MODEL.families.XR.limits['xr-fluoro-blur']!.review;
      // Wider than a radiograph may be, within what a fluoroscopy frame may be.
      expect(edge).toBeGreaterThan(radiographLimit);
      expect(edge).toBeLessThan(fluoroscopyLimit);
      expect(assessQuality(measureQuality(clean)).verdict).toBe('pass');
      // The same pixels as a radiograph (DX) would be flagged: the limit is the modality's, not the file's.
      expect(issues({ ...clean, modality: 'DX' })).toMatch(/Unsharp image/);
      for (const kind of ['blur', 'motion'] as const)
        expect(issues(degrade(clean, 'XR', kind, 'strong', rng(5)))).toMatch(/Unsharp image/);
    },
  );

  it.skipIf(!existsSync(XA))('finds noise added at a fifth of the anatomy’s spread (SD)', async () => {
    const clean = await decodeImage(new Uint8Array(readFileSync(XA)), '.dcm');
    // Against the field's whole range (a bright airway beside soft tissue) this noise read 4.7% and passed.
    const r = rng(9);
    let mean = 0;
    for (const v of clean.data) mean += v;
    mean /= clean.data.length;
    let sd = 0;
    for (const v of clean.data) sd += (v - mean) ** 2;
    sd = Math.sqrt(sd / clean.data.length);
    const noisy = {
      ...clean,
      data: clean.data.map((v) => Math.min(255, Math.max(0, Math.round(v + 0.2 * sd * r.normal())))),
    };
    expect(issues(clean)).not.toMatch(/Noisy/);
    expect(issues(noisy)).toMatch(/Noisy/);
  });
});

describe('the sharpness of a radiograph larger than the measurement grid', { timeout: 60_000 }, () => {
  /** A 1536² 12-bit radiograph: squares of bone every 48 px on soft tissue, edges of Gaussian sigma `sigma` px. */
  function large(sigma: number): ImageVolume {
    const side = 1536,
      top = 4095;
    const r = rng(7);
    const sharp = new Float32Array(side * side);
    for (let y = 0; y < side; y++)
      for (let x = 0; x < side; x++) sharp[y * side + x] = (x % 48 < 24 && y % 48 < 24 ? 0.7 : 0.4) * top;
    const data = gaussianBlur(sharp, side, side, sigma).map((v) =>
      Math.min(top, Math.max(0, Math.round(v + 0.005 * top * r.normal()))),
    );
    return { ...radiograph('direct'), width: side, height: side, data, modality: 'CR' };
  }

  it('reads edges 1 px wide as about 1 px (not half the grid’s stride), and finds a blur of sigma 4 px', () => {
    const blurLimit = QC_MODEL.families.XR.limits['xr-blur']!.review;
    const sharp = measureQuality(large(1)).measures.edge_width!;
    expect(sharp).toBeGreaterThan(0.5);
    expect(sharp).toBeLessThan(1.6);
    expect(sharp).toBeLessThan(blurLimit);
    expect(measureQuality(large(4)).measures.edge_width!).toBeGreaterThan(blurLimit);
  });
});
