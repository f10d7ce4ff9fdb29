import { describe, expect, it } from 'vitest';
import { blankRegions } from '../../../server/imaging/dicom/blank-regions.ts';
import { parseDicom } from '../../../server/imaging/dicom/dicom-dataset.ts';
import { readSampleFrames } from '../../../server/imaging/dicom/pixel-frames.ts';
import { blankStoredDicom, RegionOutsideError, UnblankableError } from '../../../server/imaging/dicom/pixel-rewrite.ts';
import { UndecodableImageError } from '../../../server/imaging/volume.ts';
import { makeDicomImage } from '../../fixtures/dicom-fixtures.ts';

/** The file with Rows and Columns (US, explicit VR little endian) set to 65535: a header claiming 4 billion pixels. */
function claimingHuge(file: Uint8Array): Uint8Array {
  const out = file.slice();
  for (const element of [0x10, 0x11]) {
    const at = Buffer.from(out).indexOf(Buffer.from([0x28, 0x00, element, 0x00, 0x55, 0x53, 0x02, 0x00]));
    expect(at).toBeGreaterThan(0);
    out[at + 8] = 0xff;
    out[at + 9] = 0xff;
  }
  return out;
}

describe('blanking pixel data', () => {
  it('blanks a rectangle in each plane of planar colour data, in every frame, and nothing else', () => {
    const layout = { rows: 4, columns: 5, samples: 3, bytesPerSample: 1, frames: 2, planar: true, little: true };
    const pixels = new Uint8Array(4 * 5 * 3 * 2).fill(9);
    blankRegions(pixels, layout, [{ x: 1, y: 2, width: 3, height: 1 }]);
    for (let f = 0; f < 2; f++)
      for (let s = 0; s < 3; s++)
        for (let y = 0; y < 4; y++)
          for (let x = 0; x < 5; x++) {
            const value = pixels[f * 60 + s * 20 + y * 5 + x];
            expect(value, `frame ${f} plane ${s} (${x}, ${y})`).toBe(y === 2 && x >= 1 && x < 4 ? 0 : 9);
          }
  });

  it('refuses, before allocating, compressed frames a header claims to be larger than the decode budget', async () => {
    const file = claimingHuge(await makeDicomImage({ syntax: 'rle', bitsAllocated: 8 }));
    const dataSet = parseDicom(file);
    await expect(readSampleFrames(dataSet, '1.2.840.10008.1.2.5')).rejects.toBeInstanceOf(UndecodableImageError);
    const refusal = blankStoredDicom(file, [{ x: 0, y: 0, width: 1, height: 1 }]);
    await expect(refusal).rejects.toBeInstanceOf(UnblankableError);
    await expect(refusal).rejects.toThrow(/too large to decode here/);
  });

  it('refuses a rectangle outside the image before decoding anything', async () => {
    const file = await makeDicomImage({ syntax: 'rle', width: 16, height: 12 });
    await expect(blankStoredDicom(file, [{ x: 10, y: 0, width: 7, height: 1 }])).rejects.toBeInstanceOf(
      RegionOutsideError,
    );
  });
});
