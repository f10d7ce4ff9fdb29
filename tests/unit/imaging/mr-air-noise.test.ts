import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { measureQuality } from '../../../server/imaging/metrics/quality-metrics.ts';
import { assessQuality } from '../../../server/imaging/verdict.ts';
import type { ImageVolume } from '../../../server/imaging/volume.ts';
import { addGaussianNoise, addRicianNoise, blur, cleanPhantom, type Phantom } from '../../fixtures/phantoms.ts';
import { greyVolume, phantomVolume } from './phantom-volume.ts';

const MR_SMALL = '/usr/lib/python3/dist-packages/pydicom/data/test_files/MR_small.dcm';

/** The volume with every value mapped by `f`, as a converter that rescales or shifts intensities writes it. */
function mapped(v: ImageVolume, f: (x: number, min: number, max: number) => number): ImageVolume {
  let min = Infinity,
    max = -Infinity;
  for (const x of v.data) [min, max] = [Math.min(min, x), Math.max(max, x)];
  return { ...v, data: v.data.map((x) => f(x, min, max)), storedRange: [-Infinity, Infinity] };
}

describe('MR noise from the air, and from the tissue where the "air" is dark tissue', () => {
  it.skipIf(!existsSync(MR_SMALL))(
    'passes pydicom’s MR_small (a crop with no air) however its intensities were shifted or rescaled',
    async () => {
      const original = await decodeImage(new Uint8Array(readFileSync(MR_SMALL)), '.dcm');
      const variants = {
        original,
        'min to 0, max to 4095': mapped(original, (x, min, max) => Math.round(((x - min) / (max - min)) * 4095)),
        'less 100': mapped(original, (x) => x - 100),
        'as floats from 0 to 1': mapped(original, (x, min, max) => (x - min) / (max - min)),
      };
      for (const [name, volume] of Object.entries(variants)) {
        const { verdict, issues } = assessQuality(measureQuality(volume));
        expect(verdict, `${name}: ${issues.join('; ')}`).toBe('pass');
      }
    },
  );

  it('passes a smooth phantom under noise symmetric about zero (real-valued), as it passes one under Rician noise', () => {
    const smooth = blur(cleanPhantom({ size: 192, foreground: 800, inner: 500, background: 0 }), 0.7);
    // As floats: a NIfTI of real values keeps the air's negative half, which 16-bit unsigned samples would cut off.
    const asFloats = (p: Phantom) => greyVolume(p.values, p.width, p.height, 1, { format: 'nii', bitDepth: 32 });
    for (const noisy of [addGaussianNoise(smooth, 20, 8), addRicianNoise(smooth, 20, 8)]) {
      const { verdict, issues } = assessQuality(measureQuality(asFloats(noisy)));
      expect(verdict, issues.join('; ')).toBe('pass');
    }
  });

  it('keeps the Rayleigh-corrected noise of real air: a head in Rician noise of sigma 20', () => {
    const head = addRicianNoise(cleanPhantom({ size: 192, foreground: 800, inner: 500, background: 0 }), 20, 9);
    const metrics = measureQuality(phantomVolume(head, 'MR'));
    expect(metrics.noiseModel).toBe('rayleigh');
    expect(metrics.noiseSigma).toBeGreaterThan(18);
    expect(metrics.noiseSigma).toBeLessThan(22);
  });
});
