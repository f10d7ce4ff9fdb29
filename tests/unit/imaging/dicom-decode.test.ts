import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeDicom } from '../../../server/imaging/dicom/dicom-decode.ts';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { UndecodableImageError } from '../../../server/imaging/volume.ts';
import { knownSamples, makeDicomImage } from '../../fixtures/dicom-fixtures.ts';
import { writeDicomFile } from '../../fixtures/dicom-writer.ts';

const signed12 = (v: number) => ((v & 0xfff) << 20) >> 20;

describe('DICOM decoding', () => {
  for (const syntax of [
    'explicit-le',
    'implicit-le',
    'explicit-be',
    'rle',
    'jpeg-ls',
    'jpeg-2000',
    'jpeg-lossless',
    'deflated',
  ] as const) {
    it(`decodes 16-bit ${syntax} pixel data to the samples written`, async () => {
      const volume = await decodeDicom(await makeDicomImage({ syntax, width: 20, height: 10 }));
      expect([volume.width, volume.height, volume.depth, volume.channels]).toEqual([20, 10, 1, 1]);
      expect(Array.from(volume.data)).toEqual(knownSamples(200, 16, false));
    });
  }

  it('splits encapsulated multi-frame pixel data into its frames (one fragment per frame)', async () => {
    for (const syntax of ['rle', 'jpeg-ls', 'jpeg-lossless'] as const) {
      const volume = await decodeDicom(await makeDicomImage({ syntax, frames: 3, width: 8, height: 6 }));
      expect(volume.depth, syntax).toBe(3);
      expect(Array.from(volume.data), syntax).toEqual(knownSamples(8 * 6 * 3, 16, false));
    }
  });

  it('reads a bare data set without the Part 10 preamble as implicit VR little endian', async () => {
    const bytes = await makeDicomImage({ syntax: 'implicit-le', preamble: false });
    const volume = await decodeImage(bytes, '.dcm');
    expect(Array.from(volume.data)).toEqual(knownSamples(16 * 12, 16, false));
  });

  it('sign-extends signed samples from Bits Stored and applies rescale slope and intercept', async () => {
    const volume = await decodeDicom(await makeDicomImage({ signed: true, slope: 2, intercept: -1024 }));
    const expected = knownSamples(16 * 12, 16, true).map((v) => signed12(v) * 2 - 1024);
    expect(Array.from(volume.data)).toEqual(expected);
    expect(volume.storedRange).toEqual([-2048 * 2 - 1024, 2047 * 2 - 1024]);
  });

  it('decodes 8-bit RGB, every frame of a multi-frame file, spacing, window and descriptions', async () => {
    const rgb = await decodeDicom(
      await makeDicomImage({ bitsAllocated: 8, samplesPerPixel: 3, frames: 2, width: 4, height: 3 }),
    );
    expect([rgb.channels, rgb.depth, rgb.photometric]).toEqual([3, 2, 'RGB']);
    expect(Array.from(rgb.data)).toEqual(knownSamples(4 * 3 * 3 * 2, 8, false));
    const mr = await decodeDicom(await makeDicomImage({ frames: 3, window: { center: 400, width: 800 } }));
    expect(mr.depth).toBe(3);
    expect(mr.spacing).toEqual([0.75, 0.5, 2.5]);
    expect(mr.window).toEqual({ center: 400, width: 800 });
    expect(mr.orientation).toMatch(/^axial/);
    expect([mr.modality, mr.seriesDescription, mr.studyDescription]).toEqual(['MR', 'T1 axial', 'Brain phantom study']);
  });

  it('marks MONOCHROME1 images to be shown inverted', async () => {
    expect((await decodeDicom(await makeDicomImage({ photometric: 'MONOCHROME1' }))).invert).toBe(true);
  });

  it('decodes JPEG baseline pixel data through libjpeg-turbo to within the loss of the codec', async () => {
    const width = 32,
      height = 16;
    const pixels = Uint8Array.from({ length: width * height }, (_, i) => (i % width) * 8);
    const jpeg = await sharp(pixels, { raw: { width, height, channels: 1 } })
      .toColourspace('b-w')
      .jpeg({ quality: 100 })
      .toBuffer();
    const bytes = writeDicomFile({
      syntax: 'encapsulated',
      transferSyntaxUid: '1.2.840.10008.1.2.4.50',
      frames: [new Uint8Array(jpeg)],
      elements: [
        { tag: '00280002', vr: 'US', value: [1] },
        { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
        { tag: '00280010', vr: 'US', value: [height] },
        { tag: '00280011', vr: 'US', value: [width] },
        { tag: '00280100', vr: 'US', value: [8] },
        { tag: '00280101', vr: 'US', value: [8] },
        { tag: '00280103', vr: 'US', value: [0] },
      ],
    });
    const volume = await decodeDicom(bytes);
    const worst = Math.max(...Array.from(volume.data, (v, i) => Math.abs(v - pixels[i]!)));
    expect(worst).toBeLessThanOrEqual(4);
  });

  it('refuses a syntax without a codec with a detail naming it, never a crash', async () => {
    const bytes = writeDicomFile({
      syntax: 'encapsulated',
      transferSyntaxUid: '1.2.840.10008.1.2.4.100',
      frames: [Uint8Array.from([0xff, 0xd8, 0xff, 0xd9])],
      elements: [
        { tag: '00280010', vr: 'US', value: [2] },
        { tag: '00280011', vr: 'US', value: [2] },
        { tag: '00280100', vr: 'US', value: [16] },
      ],
    });
    await expect(decodeDicom(bytes)).rejects.toThrow(UndecodableImageError);
    await expect(decodeDicom(bytes)).rejects.toThrow(
      'Pixel data in MPEG2 Main Profile (1.2.840.10008.1.2.4.100) cannot be decoded by this server.',
    );
  });

  it('answers a damaged file with a readable error', async () => {
    const bytes = await makeDicomImage();
    await expect(decodeDicom(bytes.subarray(0, 300))).rejects.toThrow(UndecodableImageError);
  });
});
