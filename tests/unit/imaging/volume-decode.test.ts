import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage, detectFormat } from '../../../server/imaging/decode-image.ts';
import { UndecodableImageError } from '../../../server/imaging/volume.ts';
import { writeNifti, writeNrrd } from '../../fixtures/nifti-writer.ts';
import { png16 } from '../../fixtures/png16.ts';

const ramp = (n: number, scale = 1, offset = 0) =>
  Array.from({ length: n }, (_, i) => ((i * 7) % 251) * scale + offset);

describe('NIfTI decoding', () => {
  const dims: [number, number, number] = [6, 5, 4];
  for (const type of ['uint8', 'int8', 'int16', 'uint16', 'int32', 'uint32', 'float32', 'float64'] as const) {
    it(`decodes NIfTI-1 ${type} voxels to the values written`, async () => {
      const values = ramp(120, 1, type === 'int8' ? -120 : 0);
      const volume = await decodeImage(writeNifti({ dims, values, type }));
      expect([volume.format, volume.width, volume.height, volume.depth]).toEqual(['nii', 6, 5, 4]);
      expect(Array.from(volume.data)).toEqual(values);
    });
  }

  it('decodes gzipped NIfTI-2 with scaling, spacing and orientation', async () => {
    const values = ramp(120);
    const bytes = writeNifti({
      dims,
      values,
      type: 'int16',
      version: 2,
      gzip: true,
      slope: 0.5,
      intercept: 10,
      spacing: [0.9, 0.8, 3],
      description: 'T2 brain',
    });
    expect(detectFormat(bytes)).toBe('nii');
    const volume = await decodeImage(bytes);
    expect(Array.from(volume.data)).toEqual(values.map((v) => v * 0.5 + 10));
    expect(volume.spacing.map((s) => Number(s.toFixed(3)))).toEqual([0.9, 0.8, 3]);
    expect(volume.orientation).toBe('LPS');
    expect(volume.seriesDescription).toBe('T2 brain');
    expect(volume.storedRange).toEqual([-32768 * 0.5 + 10, 32767 * 0.5 + 10]);
  });

  it('refuses a NIfTI file cut short', async () => {
    const bytes = writeNifti({ dims, values: ramp(120), type: 'float32' });
    await expect(decodeImage(bytes.subarray(0, 400))).rejects.toThrow(UndecodableImageError);
  });
});

describe('NRRD decoding', () => {
  for (const encoding of ['raw', 'gzip'] as const) {
    it(`decodes ${encoding} NRRD to the values written, with its spacing`, async () => {
      const values = ramp(60, 3, -100);
      const volume = await decodeImage(
        writeNrrd({ sizes: [5, 4, 3], values, type: 'int16', encoding, spacing: [0.5, 0.5, 2] }),
      );
      expect([volume.format, volume.width, volume.height, volume.depth]).toEqual(['nrrd', 5, 4, 3]);
      expect(Array.from(volume.data)).toEqual(values);
      expect(volume.spacing).toEqual([0.5, 0.5, 2]);
      expect(volume.orientation).toBe('RAS');
    });
  }

  it('refuses an encoding it cannot read, naming it', async () => {
    const bytes = new TextEncoder().encode('NRRD0004\ntype: uint8\ndimension: 1\nsizes: 4\nencoding: bzip2\n\nxxxx');
    await expect(decodeImage(bytes)).rejects.toThrow('NRRD encoding "bzip2" is not supported (raw and gzip are).');
  });
});

describe('raster decoding', () => {
  const width = 8,
    height = 4;
  const grey8 = Uint8Array.from({ length: width * height }, (_, i) => i * 7);

  it('decodes 16-bit greyscale PNG and TIFF to the exact samples', async () => {
    const grey16 = Uint16Array.from({ length: width * height }, (_, i) => i * 2000);
    for (const format of ['png', 'tiff'] as const) {
      const png = png16(width, height, grey16);
      const encoded =
        format === 'png' ? png : await sharp(png).toColourspace('grey16').tiff({ compression: 'lzw' }).toBuffer();
      const volume = await decodeImage(new Uint8Array(encoded));
      expect([volume.format, volume.bitDepth, volume.channels]).toEqual([format, 16, 1]);
      expect(Array.from(volume.data)).toEqual(Array.from(grey16));
    }
  });

  it('decodes 8-bit PNG, TIFF, GIF, WebP (lossless) and BMP greyscale exactly, and JPEG closely', async () => {
    for (const format of ['png', 'tiff', 'webp', 'gif'] as const) {
      const grey = sharp(grey8, { raw: { width, height, channels: 1 } }).toColourspace('b-w');
      const options = format === 'webp' ? { lossless: true } : format === 'tiff' ? { compression: 'lzw' as const } : {};
      const encoded = await grey[format](options).toBuffer();
      const volume = await decodeImage(new Uint8Array(encoded));
      expect(volume.format).toBe(format);
      expect(Array.from(volume.data).map(Math.round), format).toEqual(Array.from(grey8));
    }
    const bmp = bitmap(width, height, grey8);
    expect(Array.from((await decodeImage(bmp)).data)).toEqual(Array.from(grey8));
    const jpeg = await sharp(grey8, { raw: { width, height, channels: 1 } })
      .jpeg({ quality: 100 })
      .toBuffer();
    const decoded = await decodeImage(new Uint8Array(jpeg));
    expect(decoded.format).toBe('jpg');
    expect(Math.max(...Array.from(decoded.data, (v, i) => Math.abs(v - grey8[i]!)))).toBeLessThanOrEqual(3);
  });

  it('keeps colour images as RGB', async () => {
    const rgb = Uint8Array.from({ length: width * height * 3 }, (_, i) => (i % 3 === 0 ? 200 : 30));
    const volume = await decodeImage(
      new Uint8Array(
        await sharp(rgb, { raw: { width, height, channels: 3 } })
          .png()
          .toBuffer(),
      ),
    );
    expect(volume.channels).toBe(3);
    expect(Array.from(volume.data)).toEqual(Array.from(rgb));
  });

  it('says plainly when bytes are not an image', async () => {
    await expect(decodeImage(new TextEncoder().encode('just some text'))).rejects.toThrow(
      'This file is not an image format the product can read.',
    );
  });
});

/** A bottom-up 8-bit greyscale BMP with a 256-entry palette. */
function bitmap(width: number, height: number, grey: Uint8Array): Uint8Array {
  const rowSize = Math.ceil(width / 4) * 4;
  const offset = 14 + 40 + 1024;
  const out = new Uint8Array(offset + rowSize * height);
  const view = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  view.setUint32(2, out.length, true);
  view.setUint32(10, offset, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, width, true);
  view.setInt32(22, height, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, 8, true);
  view.setUint32(46, 256, true);
  for (let i = 0; i < 256; i++) out.set([i, i, i, 0], 54 + i * 4);
  for (let y = 0; y < height; y++)
    out.set(grey.subarray(y * width, (y + 1) * width), offset + (height - 1 - y) * rowSize);
  return out;
}

describe('decoding budget', () => {
  it('refuses, before allocating, a volume too large to decode', async () => {
    const header = writeNifti({ dims: [2, 2, 2], values: ramp(8), type: 'uint8' });
    // Same header claiming 2048×2048×2048 voxels: 8.6 billion values.
    new DataView(header.buffer).setInt16(42, 2048, true);
    new DataView(header.buffer).setInt16(44, 2048, true);
    new DataView(header.buffer).setInt16(46, 2048, true);
    await expect(decodeImage(header)).rejects.toThrow(
      /too large to decode here \(8590 million values; the limit is 150 million\)/,
    );
  });
});
