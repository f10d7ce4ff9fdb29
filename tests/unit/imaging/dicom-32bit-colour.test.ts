// 32-bit RGB DICOM: decoded to the samples pydicom's pixel_array holds (full 32-bit values) and previewed over
// the full 32-bit range, so a half-intensity bar is mid grey, not white.
import { existsSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { encodeRleFrame } from '../../../server/imaging/dicom/rle.ts';
import { displayRange, extractSlice, renderSlicePng, sliceCount } from '../../../server/imaging/preview-render.ts';
import type { ImageVolume } from '../../../server/imaging/volume.ts';
import { writeDicomFile, type FixtureElement } from '../../fixtures/dicom-writer.ts';
import { readWithPydicom } from '../../fixtures/pydicom-pixels.ts';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const BAR = 16;
const HEIGHT = 8;
/** Four bars, left to right: black, quarter, half and full intensity in all three samples. */
const LEVELS = [0, 0x40404040, 0x80808080, 0xffffffff];

function bars(): Uint32Array {
  const samples = new Uint32Array(LEVELS.length * BAR * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++)
    for (let x = 0; x < LEVELS.length * BAR; x++)
      samples.fill(
        LEVELS[Math.floor(x / BAR)]!,
        (y * LEVELS.length * BAR + x) * 3,
        (y * LEVELS.length * BAR + x) * 3 + 3,
      );
  return samples;
}

function barsDicom(rle: boolean): Uint8Array {
  const samples = bars();
  const bytes = new Uint8Array(samples.buffer);
  const elements: FixtureElement[] = [
    { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.7' },
    { tag: '00080018', vr: 'UI', value: '1.2.826.0.1.3680043.9.7734.32.1' },
    { tag: '00080060', vr: 'CS', value: 'OT' },
    { tag: '00280002', vr: 'US', value: [3] },
    { tag: '00280004', vr: 'CS', value: 'RGB' },
    { tag: '00280006', vr: 'US', value: [0] },
    { tag: '00280010', vr: 'US', value: [HEIGHT] },
    { tag: '00280011', vr: 'US', value: [LEVELS.length * BAR] },
    { tag: '00280030', vr: 'DS', value: '1\\1' },
    { tag: '00280100', vr: 'US', value: [32] },
    { tag: '00280101', vr: 'US', value: [32] },
    { tag: '00280102', vr: 'US', value: [31] },
    { tag: '00280103', vr: 'US', value: [0] },
  ];
  if (rle) {
    const frame = encodeRleFrame(bytes, LEVELS.length * BAR * HEIGHT, 3, 4);
    return writeDicomFile({
      syntax: 'encapsulated',
      transferSyntaxUid: '1.2.840.10008.1.2.5',
      elements,
      frames: [frame],
    });
  }
  return writeDicomFile({
    syntax: 'explicit-le',
    elements: [...elements, { tag: '7FE00010', vr: 'OW', value: bytes }],
  });
}

/** The preview's red, green and blue at (x, y), as the server draws it (no orientation letters). */
async function previewPixels(volume: ImageVolume, index = 0): Promise<{ at: (x: number, y: number) => number[] }> {
  const png = await renderSlicePng(volume, 'axial', index, displayRange(volume), { markers: false });
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([volume.width, volume.height]);
  return { at: (x, y) => [0, 1, 2].map((c) => data[(y * info.width + x) * info.channels + c]!) };
}

describe('32-bit RGB written by code', () => {
  it.each([
    ['native', false],
    ['RLE', true],
  ] as const)('%s: decodes every 32-bit sample and previews the bars at 0, 64, 128 and 255', async (_name, rle) => {
    const volume = await decodeImage(barsDicom(rle), 'dcm');
    expect(Array.from(volume.data)).toEqual(Array.from(bars(), (v) => Math.fround(v)));
    const preview = await previewPixels(volume);
    const shown = LEVELS.map((_, bar) => preview.at(bar * BAR + BAR / 2, HEIGHT / 2));
    expect(shown).toEqual([
      [0, 0, 0],
      [64, 64, 64],
      [128, 128, 128],
      [255, 255, 255],
    ]);
  });
});

const files = [
  'SC_rgb_32bit.dcm',
  'SC_rgb_rle_32bit.dcm',
  'SC_rgb_32bit_2frame.dcm',
  'SC_rgb_rle_32bit_2frame.dcm',
].filter((name) => existsSync(`${PYDICOM}/${name}`));

describe.skipIf(files.length === 0)('pydicom’s 32-bit RGB files', () => {
  it.each(files)('%s: decodes to pydicom’s pixel_array and previews it over the 32-bit range', async (name) => {
    const file = `${PYDICOM}/${name}`;
    const reference = readWithPydicom(file);
    expect(reference.bytesPerSample).toBe(4);
    const expected = new Uint32Array(reference.pixels.buffer, reference.pixels.byteOffset, reference.pixels.length / 4);
    const volume = await decodeImage(new Uint8Array(readFileSync(file)), 'dcm');
    expect(Array.from(volume.data)).toEqual(Array.from(expected, (v) => Math.fround(v)));
    // Every pixel of every frame shown as pydicom's value over 2³² − 1, rounded.
    const expectedVolume = { ...volume, data: Float32Array.from(expected) };
    let worst = 0;
    for (let index = 0; index < sliceCount(volume, 'axial'); index++) {
      const preview = await previewPixels(volume, index);
      const want = extractSlice(expectedVolume, 'axial', index).values;
      for (let y = 0; y < reference.rows; y++)
        for (let x = 0; x < reference.columns; x++)
          preview.at(x, y).forEach((shown, c) => {
            const level = (want[(y * reference.columns + x) * 3 + c]! / 0xffffffff) * 255;
            worst = Math.max(worst, Math.abs(shown - level));
          });
    }
    expect(worst).toBeLessThanOrEqual(1);
  });
});
