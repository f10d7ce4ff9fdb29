import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { biasFieldSpread } from '../../../server/imaging/metrics/bias-field.ts';
import { measureQuality } from '../../../server/imaging/metrics/quality-metrics.ts';
import type { ImageVolume } from '../../../server/imaging/volume.ts';
import { addRicianNoise, cleanPhantom } from '../../fixtures/phantoms.ts';

/** The image multiplied by a smooth field from 0.5 on the left to 1.5 on the right, as a surface coil falls off. */
function withField(v: ImageVolume): ImageVolume {
  const data = Float32Array.from(v.data, (value, i) => value * (0.5 + (i % v.width) / (v.width - 1)));
  return { ...v, data };
}

describe('INU: the spread of the bias field over the head', () => {
  it('is near 0 on a uniform disc and follows a field laid over it', () => {
    const disc = addRicianNoise(cleanPhantom({ size: 128, inner: 800, foreground: 800, background: 0 }), 10, 3);
    const head = Uint8Array.from(disc.values, (v) => (v > 400 ? 1 : 0));
    const flat = biasFieldSpread(disc.values, 128, 128, head)!;
    const ramp = Float32Array.from(disc.values, (v, i) => v * (0.5 + (i % 128) / 127));
    const tilted = biasFieldSpread(ramp, 128, 128, head)!;
    expect(flat).toBeLessThan(0.05);
    // The field spans 0.5–1.5 across the image; the disc covers 0.8–1.2 of it, a spread of about 0.4.
    expect(tilted).toBeGreaterThan(0.3);
    expect(tilted).toBeLessThan(0.5);
  });

  it('is left out, not 0, when the image has too little tissue to read the field at', () => {
    // Tissue in one corner of 3×3 voxels: one block, not the four a field needs.
    const corner = Uint8Array.from({ length: 64 * 64 }, (_, i) => (i % 64 < 3 && i < 3 * 64 ? 1 : 0));
    expect(biasFieldSpread(new Float32Array(64 * 64).fill(100), 64, 64, corner)).toBeUndefined();
  });

  // A clinical 360² slice; on a 64² matrix (pydicom's MR_small) the anatomy itself varies as much as a field.
  for (const path of ['/usr/share/doc/dicom3tools/examples/0051.dcm'])
    it(`rises when a coil's fall-off is laid over ${path.split('/').pop()} (a clinical image)`, async () => {
      if (!existsSync(path)) return;
      const clean = await decodeImage(new Uint8Array(readFileSync(path)), '.dcm');
      const before = measureQuality(clean).measures.inu!;
      const after = measureQuality(withField(clean)).measures.inu!;
      expect(before).toBeGreaterThan(0);
      expect(after).toBeGreaterThan(before * 1.8);
    });
});
